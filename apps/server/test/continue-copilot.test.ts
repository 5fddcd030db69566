/**
 * The built server renders Continue prompt files and VS Code prompt files as their tools do.
 * Expected texts: continuedev/continue d0a3c0b6 — parsePromptFile.ts (the `\n---\n` split,
 * `<system>`, the description falling back to the name), renderSlashCommand.ts (the text appended
 * after "\n\n", trimmed) and renderPromptv1.test.ts ("should render a prompt file templated
 * input"); microsoft/vscode 025b30c6 promptFileParser.test.ts ("prompt file": the body verbatim).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, messageText, startStdio } from './harness.js';

afterEach(cleanup);

const project: Record<string, string> = {
  '.continue/prompts/templated.prompt': 'version: 1\n---\n{{{ input }}} Simple prompt with no attachments',
  '.continue/prompts/escaped.prompt': 'version: 1\n---\n<system>\nBe terse.\n</system>\nAbout {{ input }}',
  '.continue/prompts/loose.prompt': 'Q: {{{input}}}\n',
  '.continue/prompts/explain.md': '---\ninvokable: true\n---\nExplain the code.\n\n---\n\nDropped.\n',
  '.github/prompts/prompt2.prompt.md': [
    '---',
    'description: "General purpose coding assistant"',
    'agent: agent',
    'model: GPT 4.1',
    "tools: ['search', 'terminal']",
    '---',
    'This is a prompt file body referencing #tool:search for ${input:topic:The topic}.',
  ].join('\n'),
};

describe('Continue and VS Code prompt files, as their tools render them', () => {
  it('renders each as its tool does', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const { client } = await startStdio(['--no-watch'], { cwd: folder, env: { PROMPTYARD_HOME: home } });
    const text = async (name: string, args: Record<string, string>): Promise<(string | undefined)[]> =>
      (await client.getPrompt({ name, arguments: args })).messages.map(messageText);

    expect(await text('continue:templated', { arguments: 'User input' })).toEqual(['User input Simple prompt with no attachments']);
    expect(await text('continue:escaped', { arguments: 'a<b' })).toEqual(['Be terse.', 'About a&lt;b\n\na<b']);
    expect(await text('continue:loose', { arguments: 'why' })).toEqual(['Q: {{{input}}}\n\n\nwhy']);
    expect(await text('continue:explain', { arguments: 'briefly' })).toEqual(['Explain the code.\n\n\nbriefly']);
    const { prompts } = await client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === 'continue:explain')?.description).toBe('explain.md');

    expect(await text('copilot:prompt2', { topic: 'caching' })).toEqual([
      'This is a prompt file body referencing #tool:search for caching.',
    ]);
    expect(prompts.find((prompt) => prompt.name === 'copilot:prompt2')?.description).toBe('General purpose coding assistant');
  });
});
