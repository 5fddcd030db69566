/**
 * Oracle cases for VS Code prompt files (`*.prompt.md`), from microsoft/vscode:
 * - src/vs/workbench/contrib/chat/test/common/promptSyntax/service/promptFileParser.test.ts at
 *   025b30c6286f216b6e61d851ae25ff4e2b174601, its test "prompt file" (header values, body verbatim,
 *   `#tool:` references);
 * - src/vs/workbench/contrib/chat/common/promptSyntax/languageProviders/promptValidator.ts at
 *   01a59900a295505f0a2e76dad372aeeeff5d3cbd: the messages VS Code marks a header with;
 * - the variables VS Code documents for prompt files (microsoft/vscode-docs
 *   docs/copilot/customization/prompt-files.md at 00dc2069): `${workspaceFolder}`,
 *   `${workspaceFolderBasename}`, `${selection}`, `${selectedText}`, `${file}`, `${fileBasename}`,
 *   `${fileDirname}`, `${fileBasenameNoExtension}`, `${input:name}`, `${input:name:placeholder}`.
 */
import { describe, expect, it } from 'vitest';
import type { TemplateEngine } from '@promptyard/core';
import { checkCopilotFile, copilotRefusalNote } from './copilot-checks.js';
import { parseCopilotFormat } from './copilot-format.js';

const jinja = {} as TemplateEngine;
const input = (text: string) => ({ text, file: '/p/prompt2.prompt.md', path: 'prompt2.prompt.md', jinja });

describe('VS Code prompt files (oracle: promptFileParser.test.ts, promptValidator.ts)', () => {
  it('prompt file: the header is read, the body served verbatim, #tool: reported', async () => {
    const text = [
      '---',
      'description: "General purpose coding assistant"',
      'agent: agent',
      'model: GPT 4.1',
      "tools: ['search', 'terminal']",
      '---',
      'This is a prompt file body referencing #tool:search and [docs](https://example.com/docs).',
    ].join('\n');
    const definition = parseCopilotFormat(input(text));
    expect(definition.description).toBe('General purpose coding assistant');
    expect(definition.meta).toEqual({ agent: 'agent', model: 'GPT 4.1', tools: ['search', 'terminal'] });
    expect(await definition.sections[0]?.render({})).toBe(
      'This is a prompt file body referencing #tool:search and [docs](https://example.com/docs).',
    );
    expect(checkCopilotFile(input(text)).map((finding) => finding.message)).toEqual([
      "frontmatter agent, tools, model, with which VS Code picks the agent, its tools and the model, is not supported yet: an MCP prompt cannot choose them, so Promptyard keeps them in the prompt's _meta; set them in the client",
      '#tool:search, a tool VS Code enables for the request, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt',
    ]);
  });

  it("the header checks VS Code's validator makes, in its words", () => {
    const text = ['---', 'mode: ask', 'description: ""', 'tools: search', 'model: []', 'temprature: 1', 'color: red', '---', 'Hi.'].join(
      '\n',
    );
    const messages = checkCopilotFile(input(text)).map((finding) => finding.message);
    expect(messages.filter((message) => message.startsWith('VS Code reports: '))).toEqual([
      "VS Code reports: Attribute 'temprature' is not supported in prompt files. Supported: agent, argument-hint, description, model, name, tools.",
      "VS Code reports: Attribute 'color' is not supported in prompt files. Supported: agent, argument-hint, description, model, name, tools.",
      "VS Code reports: The 'description' attribute should not be empty.",
      "VS Code reports: The 'mode' attribute has been deprecated. Please rename it to 'agent'.",
      "VS Code reports: The 'model' array must not be empty.",
      "VS Code reports: The 'tools' attribute must be an array.",
    ]);
  });

  it('the documented variables: inputs are required arguments, editor variables optional ones', async () => {
    const text = 'Form ${input:formName:The form name} in ${fileBasename} (${workspaceFolder}): ${selection} ${input:formName}';
    const definition = parseCopilotFormat(input(text));
    expect(definition.arguments).toEqual([
      { name: 'formName', required: true, description: 'The form name' },
      expect.objectContaining({ name: 'fileBasename', required: false }),
      expect.objectContaining({ name: 'workspaceFolder', required: false }),
      expect.objectContaining({ name: 'selection', required: false }),
    ]);
    expect(await definition.sections[0]?.render({ formName: 'Login', fileBasename: 'app.ts', selection: 'x' })).toBe(
      'Form Login in app.ts (): x Login',
    );
  });

  it('a relative Markdown link and #file: are reported: VS Code attaches the file', () => {
    const text = 'Use [the guide](../docs/guide.md), #file:./src/a.ts and ![logo](./logo.png).';
    expect(checkCopilotFile(input(text)).map((finding) => finding.message)).toEqual([
      '[the guide](../docs/guide.md), a Markdown link to a file, which VS Code attaches to the request, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt',
      '#file:./src/a.ts, a file VS Code attaches to the request, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt',
    ]);
  });
});

describe('VS Code prompt files Promptyard refuses (oracle: promptFileParser.ts)', () => {
  it('a header never closed, or YAML that does not parse: VS Code would still run the file', () => {
    expect(copilotRefusalNote('the frontmatter is never closed: add a --- line after the YAML')).toMatch(
      /^VS Code would run this file, reading everything after the first line as its header/,
    );
    expect(copilotRefusalNote('invalid YAML frontmatter: bad indentation')).toMatch(
      /^VS Code would run this file, marking the header error/,
    );
    expect(copilotRefusalNote('cannot read the file')).toBeUndefined();
  });
});
