import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptEntry } from '@promptyard/core';
import { captureLogs, createFakeLiquid, createTempFolder, type TempFolder } from '../test-helpers.js';
import type { NativeFormat } from './native-definition.js';
import { createNativePromptSource } from './native-prompt-source.js';

let folder: TempFolder;

beforeEach(async () => {
  folder = await createTempFolder();
});

afterEach(async () => {
  await folder.cleanup();
});

const source = (format: NativeFormat, dir: string, prefix = '') =>
  createNativePromptSource({ format, dir: `${folder.dir}/${dir}`, root: folder.dir, prefix, jinja: createFakeLiquid('jinja'), logger: captureLogs().logger });

const byName = (entries: readonly PromptEntry[], name: string): PromptEntry => {
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no prompt ${name} in ${entries.map((candidate) => candidate.name).join(', ')}`);
  return entry;
};

const texts = async (entry: PromptEntry, args: Record<string, string>): Promise<unknown[]> =>
  (await entry.render(args)).messages.map((message) => (message.content.type === 'text' ? `${message.role}: ${message.content.text}` : message.content));

describe('native prompt sources', () => {
  it('reads Claude commands with BOM, CRLF and nested folders; code blocks keep {{ }}; @path embeds a file from the root only', async () => {
    await folder.writeAll({
      '.claude/commands/git/fix-issue.md': '\uFEFF---\r\ndescription: Fix a GitHub issue\r\nargument-hint: [issue] [priority]\r\n---\r\nFix issue #$1 ($2).\r\n\r\n```js\r\nconst x = `{{ y }}`;\r\n```\r\nSee @docs/guide.md and @../outside.md and @.env\r\n',
      'docs/guide.md': '# Guide',
      '.env': 'SECRET=1',
    });
    const entries = await source('claude-commands', '.claude/commands', 'claude:').load();
    const entry = byName(entries, 'claude:git/fix-issue');
    expect(entry.description).toBe('Fix a GitHub issue');
    expect(entry.arguments.map((argument) => argument.name)).toEqual(['issue', 'priority', 'arguments']);
    const rendered = await entry.render({ arguments: '12 high' });
    expect(rendered.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Fix issue #12 (high).\n\n```js\nconst x = `{{ y }}`;\n```\nSee @docs/guide.md and @../outside.md and @.env\n',
    });
    expect(rendered.messages).toHaveLength(2);
    expect(rendered.messages[1]?.content).toMatchObject({ type: 'resource', resource: { mimeType: 'text/markdown', text: '# Guide' } });
  });

  it('names skills by folder, Copilot files by file name, Gemini commands with ":"', async () => {
    await folder.writeAll({
      '.claude/skills/pdf-tools/SKILL.md': '---\nname: pdf-tools\ndescription: Work with PDFs\n---\nUse the PDF tools on $ARGUMENTS',
      '.github/prompts/react-form.prompt.md': '---\ndescription: Create a form\nagent: agent\n---\nCreate ${input:formName:MyForm} with {{ handlebars }}',
      '.gemini/commands/git/commit.toml': 'description = "Commit"\nprompt = """\nWrite a commit for {{args}}.\n!{git diff --staged}\n"""\n',
    });
    const skills = await source('claude-skills', '.claude/skills', 'claude:').load();
    expect(await texts(byName(skills, 'claude:pdf-tools'), { arguments: 'a.pdf' })).toEqual(['user: Use the PDF tools on a.pdf']);
    const copilot = await source('copilot', '.github/prompts', 'copilot:').load();
    const form = byName(copilot, 'copilot:react-form');
    expect(form.arguments).toEqual([{ name: 'formName', required: true, description: 'MyForm' }]);
    expect(form.meta?.['agent']).toBe('agent');
    expect(await texts(form, { formName: 'Login' })).toEqual(['user: Create Login with {{ handlebars }}']);
    const gemini = await source('gemini', '.gemini/commands', 'gemini:').load();
    expect(await texts(byName(gemini, 'gemini:git:commit'), { arguments: 'the fix' })).toEqual(['user: Write a commit for the fix.\n!{git diff --staged}\n']);
  });

  it('reads Continue prompts (current and legacy with <system>) and Prompty with typed inputs and role sections', async () => {
    await folder.writeAll({
      '.continue/prompts/explain.md': '---\nname: Explain code\ndescription: Explain it\ninvokable: true\n---\nExplain the code.',
      '.continue/prompts/old.prompt': 'name: Old\ndescription: Legacy\n---\n<system>\nYou are terse.\n</system>\nAnswer: {{{ input }}}',
      'prompts/basic.prompty': '---\nname: Basic\ndescription: A basic prompt\ninputs:\n  - name: firstName\n    required: true\n  - name: tone\n    default: friendly\n    enumValues: [friendly, formal]\n  - name: unused\n---\nsystem:\nBe {{tone}}.\n\nuser:\nHi, I am {{firstName}}. {{question}}\n',
    });
    const continued = await source('continue', '.continue/prompts', 'continue:').load();
    expect(byName(continued, 'continue:explain').title).toBe('Explain code');
    expect(await texts(byName(continued, 'continue:explain'), { arguments: 'briefly' })).toEqual(['user: Explain the code.\n\nbriefly']);
    expect(await texts(byName(continued, 'continue:old'), { arguments: 'why' })).toEqual(['user: You are terse.', 'user: Answer: why']);
    const prompty = source('prompty', '.', 'prompty:');
    const { entries, problems } = await prompty.inspect();
    const basic = byName(entries, 'prompty:prompts/basic');
    expect(basic.arguments).toEqual([
      { name: 'firstName', required: true },
      { name: 'tone', required: false, default: 'friendly', enum: ['friendly', 'formal'] },
      { name: 'unused', required: false },
      { name: 'question', description: 'Template variable "question"', required: false },
    ]);
    expect(await texts(basic, { firstName: 'Ada', tone: 'formal', question: 'Why?' })).toEqual(['user: Be formal.', 'user: Hi, I am Ada. Why?']);
    expect(problems.map((problem) => problem.message)).toEqual([
      'input "unused" is declared but the prompt never uses it',
      '"question" is used but not declared in inputs',
    ]);
  });

  it('reports a parse error with file and line and skips the file', async () => {
    await folder.writeAll({ '.gemini/commands/bad.toml': 'description = "x"\nprompt = \n' , '.gemini/commands/no-prompt.toml': 'description = "x"\n' });
    const { entries, problems } = await source('gemini', '.gemini/commands').inspect();
    expect(entries).toEqual([]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({ severity: 'error', line: 2 });
    expect(problems[1]?.message).toMatch(/needs a "prompt" string/);
  });
});
