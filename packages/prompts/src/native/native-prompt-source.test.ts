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
  createNativePromptSource({
    format,
    dir: `${folder.dir}/${dir}`,
    root: folder.dir,
    prefix,
    jinja: createFakeLiquid('jinja'),
    logger: captureLogs().logger,
  });

const byName = (entries: readonly PromptEntry[], name: string): PromptEntry => {
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no prompt ${name} in ${entries.map((candidate) => candidate.name).join(', ')}`);
  return entry;
};

const texts = async (entry: PromptEntry, args: Record<string, string>): Promise<unknown[]> =>
  (await entry.render(args)).messages.map((message) =>
    message.content.type === 'text' ? `${message.role}: ${message.content.text}` : message.content,
  );

describe('native prompt sources', () => {
  it('reads Claude commands with BOM, CRLF and nested folders; code blocks keep {{ }}; @path embeds a file from the root only', async () => {
    await folder.writeAll({
      '.claude/commands/git/fix-issue.md':
        '\uFEFF---\r\ndescription: Fix a GitHub issue\r\nargument-hint: [issue] [priority]\r\n---\r\nFix issue #$0 ($1).\r\n\r\n```js\r\nconst x = `{{ y }}`;\r\n```\r\nSee @docs/guide.md and @../outside.md and @.env\r\n',
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
      '.github/prompts/react-form.prompt.md':
        '---\ndescription: Create a form\nagent: agent\n---\nCreate ${input:formName:MyForm} with {{ handlebars }}',
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
    expect(await texts(byName(gemini, 'gemini:git:commit'), { arguments: 'the fix' })).toEqual([
      'user: Write a commit for the fix.\n!{git diff --staged}\n',
    ]);
  });

  it('reads Continue prompts (current and legacy with <system>) and Prompty with typed inputs and role sections', async () => {
    await folder.writeAll({
      '.continue/prompts/explain.md': '---\nname: Explain code\ndescription: Explain it\ninvokable: true\n---\nExplain the code.',
      '.continue/prompts/old.prompt': 'name: Old\ndescription: Legacy\n---\n<system>\nYou are terse.\n</system>\nAnswer: {{{ input }}}',
      'prompts/basic.prompty':
        '---\nname: Basic\ndescription: A basic prompt\ninputs:\n  - name: firstName\n    required: true\n  - name: tone\n    default: friendly\n    enumValues: [friendly, formal]\n  - name: unused\n---\nsystem:\nBe {{tone}}.\n\nuser:\nHi, I am {{firstName}}. {{question}}\n',
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
    expect(await texts(basic, { firstName: 'Ada', tone: 'formal', question: 'Why?' })).toEqual([
      'user: Be formal.',
      'user: Hi, I am Ada. Why?',
    ]);
    expect(problems.map((problem) => problem.message)).toEqual([
      'input "unused" is declared but the prompt never uses it',
      '"question" is used but not declared in inputs',
    ]);
  });

  it('reports a parse error with file and line and skips the file', async () => {
    await folder.writeAll({
      '.gemini/commands/bad.toml': 'description = "x"\nprompt = \n',
      '.gemini/commands/no-prompt.toml': 'description = "x"\n',
    });
    const { entries, problems } = await source('gemini', '.gemini/commands').inspect();
    expect(entries).toEqual([]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({ severity: 'error', line: 2 });
    expect(problems[1]?.message).toMatch(/needs a "prompt" string/);
  });
});

describe('placeholders as each tool documents them', () => {
  it('Copilot editor variables become optional arguments; an unknown ${…} is reported with its line', async () => {
    await folder.writeAll({
      '.github/prompts/explain.prompt.md':
        '---\ndescription: Explain the selection\n---\nExplain ${selection} from ${fileBasename} in ${workspaceFolderBasename} for ${input:audience:a new hire}.\nAlso ${editorThing}.\n```js\nconst s = `${name}`;\n```\n',
    });
    const { entries, problems } = await source('copilot', '.github/prompts', 'copilot:').inspect();
    const entry = byName(entries, 'copilot:explain');
    expect(entry.arguments.map((argument) => [argument.name, argument.required])).toEqual([
      ['selection', false],
      ['fileBasename', false],
      ['workspaceFolderBasename', false],
      ['audience', true],
    ]);
    expect(entry.arguments[0]?.description).toBe('The text selected in the editor, which the editor fills in for ${selection}');
    expect(await texts(entry, { selection: 'x = 1', fileBasename: 'a.py', audience: 'me' })).toEqual([
      'user: Explain x = 1 from a.py in  for me.\nAlso ${editorThing}.\n```js\nconst s = `${name}`;\n```\n',
    ]);
    expect(problems).toEqual([
      {
        file: `${folder.dir}/.github/prompts/explain.prompt.md`,
        line: 5,
        severity: 'warning',
        code: 'format-warning',
        message: 'placeholder ${editorThing} is not one Promptyard can fill; it reaches the model as written',
      },
    ]);
  });

  it('Codex named placeholders are arguments, also read from KEY=value in the free text; $$ stays $$ as in Codex', async () => {
    await folder.writeAll({
      'prompts/draftpr.md':
        '---\ndescription: Prep a branch, commit, and open a draft PR\nargument-hint: [FILES=<paths>] [PR_TITLE="<title>"]\n---\nStage $FILES, then open a draft PR titled $PR_TITLE. Costs $$0.\n',
    });
    const entry = byName(await source('codex', 'prompts', 'codex:').load(), 'codex:draftpr');
    expect(entry.arguments.map((argument) => argument.name)).toEqual(['FILES', 'PR_TITLE', 'arguments']);
    expect(await texts(entry, { arguments: 'FILES="src/a.ts src/b.ts" PR_TITLE="Add hero animation"' })).toEqual([
      'user: Stage src/a.ts src/b.ts, then open a draft PR titled Add hero animation. Costs $$0.\n',
    ]);
    expect(await texts(entry, { arguments: 'PR_TITLE=ignored', PR_TITLE: 'Explicit', FILES: 'x.ts' })).toEqual([
      'user: Stage x.ts, then open a draft PR titled Explicit. Costs $$0.\n',
    ]);
  });

  it('Claude $ARGUMENTS[N] positions are arg1, arg2… titled "Word N"; argument-hint names still win', async () => {
    await folder.writeAll({
      'commands/migrate.md':
        '---\ndescription: Migrate a component\n---\nMigrate the $ARGUMENTS[0] component from $ARGUMENTS[1] to $ARGUMENTS[2].\n',
      'commands/named.md':
        '---\nargument-hint: [component] [from] [to]\n---\nMigrate $ARGUMENTS[0] from $1 to $ARGUMENTS[2].\nRun ${CLAUDE_SKILL_DIR}/check.sh\n',
    });
    const { entries, problems } = await source('claude-commands', 'commands', 'claude:').inspect();
    expect(problems.map((problem) => [problem.line, problem.message])).toEqual([
      [5, 'placeholder ${CLAUDE_SKILL_DIR} is not one Promptyard can fill; it reaches the model as written'],
    ]);
    const migrate = byName(entries, 'claude:migrate');
    expect(migrate.arguments.map((argument) => [argument.name, argument.title])).toEqual([
      ['arg1', 'Word 1'],
      ['arg2', 'Word 2'],
      ['arg3', 'Word 3'],
      ['arguments', undefined],
    ]);
    expect(migrate.arguments[2]?.description).toBe('Word 3 of the free text ($2, $ARGUMENTS[2]); a value given here wins');
    expect(await texts(migrate, { arguments: 'SearchBar React', arg3: 'Vue' })).toEqual([
      'user: Migrate the SearchBar component from React to Vue.\n',
    ]);
    // Claude Code ≥ 2.1.19: `$1` is word 2 (`from`), as `$ARGUMENTS[1]` is.
    expect(byName(entries, 'claude:named').arguments.map((argument) => argument.name)).toEqual(['component', 'from', 'to', 'arguments']);
  });

  it('a legacy Continue .prompt is described by its preamble, else by its name; other Handlebars are reported', async () => {
    await folder.writeAll({
      '.continue/prompts/described.prompt':
        'name: Tests\ndescription: Write unit tests\ntemperature: 0.5\n---\n{{{ input }}}\n\nWrite tests.\n',
      '.continue/prompts/check.prompt':
        'temperature: 0.2\n---\n<system>\nYou review code.\n</system>\n\n{{{ input }}}\n\nCheck {{{ currentFile }}} too.\n',
      '.continue/prompts/bare.prompt': '{{{ input }}}\n\nRewrite this.\n',
    });
    const { entries, problems } = await source('continue', '.continue/prompts', 'continue:').inspect();
    expect(byName(entries, 'continue:described')).toMatchObject({ title: 'Tests', description: 'Write unit tests' });
    expect(byName(entries, 'continue:described').meta?.['temperature']).toBe(0.5);
    expect(byName(entries, 'continue:check').description).toBe('check');
    expect(byName(entries, 'continue:bare').description).toBe('bare');
    expect(await texts(byName(entries, 'continue:bare'), { arguments: 'a  b' })).toEqual(['user: a  b\n\nRewrite this.']);
    expect(problems).toEqual([
      {
        file: `${folder.dir}/.continue/prompts/check.prompt`,
        line: 9,
        severity: 'warning',
        code: 'format-warning',
        message:
          '{{{ currentFile }}}, which Continue fills from its currentFile context provider, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt or in the arguments text',
      },
    ]);
  });
});
