import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, messageText, runCli, startStdio, type Era } from './harness.js';

afterEach(cleanup);

/** Files written as each tool documents them: editor variables, named placeholders, indexed words, a legacy preamble. */
const projectFiles: Record<string, string> = {
  '.github/prompts/explain.prompt.md': [
    '---',
    "description: 'Explain the selected code'",
    "agent: 'ask'",
    '---',
    'Explain this code from ${fileBasename} (in ${workspaceFolderBasename}) to ${input:audience:a new team member}:',
    '',
    '${selection}',
    '',
    'Mention ${editorThing}.',
    '```js',
    'const label = `${name}`;',
    '```',
    '',
  ].join('\n'),
  '.claude/commands/migrate.md':
    '---\ndescription: Migrate a component\n---\nMigrate the $ARGUMENTS[0] component from $ARGUMENTS[1] to $ARGUMENTS[2].\n',
  '.continue/prompts/check.prompt':
    'temperature: 0.2\n---\n<system>\nYou review code.\n</system>\n\n{{{ input }}}\n\nAlso check {{{ currentFile }}}.\n',
};

const codexFiles: Record<string, string> = {
  'prompts/draftpr.md': [
    '---',
    'description: Prep a branch, commit, and open a draft PR',
    'argument-hint: [FILES=<paths>] [PR_TITLE="<title>"]',
    '---',
    'Create a branch named `dev/<feature_name>` for this work.',
    'If files are specified, stage them first: $FILES.',
    'Open a draft PR on the same branch. Use $PR_TITLE when supplied; otherwise write a concise summary yourself.',
    '',
  ].join('\n'),
};

const start = async (era: Era) => {
  const project = await makeFolder(projectFiles);
  const home = await makeFolder({});
  const codexHome = await makeFolder(codexFiles);
  const env = { PROMPTYARD_HOME: home, CODEX_HOME: codexHome };
  const client = era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {};
  const server = await startStdio(['--no-watch'], { cwd: project, env, client });
  return { ...server, project, env };
};

describe('placeholders each tool fills, served as prompt arguments', () => {
  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`lists and fills editor variables, Codex named placeholders, indexed words and legacy Continue prompts (${era === 'legacy' ? '2025-11-25' : '2026-07-28'})`, async () => {
      const { client } = await start(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
      const { prompts } = await client.listPrompts();
      const byName = (name: string) => prompts.find((prompt) => prompt.name === name);

      expect(byName('copilot:explain')?.arguments).toEqual([
        {
          name: 'fileBasename',
          description: 'The name of the file open in the editor (app.ts), which the editor fills in for ${fileBasename}',
          required: false,
        },
        {
          name: 'workspaceFolderBasename',
          description: 'The name of the workspace folder, which the editor fills in for ${workspaceFolderBasename}',
          required: false,
        },
        { name: 'audience', description: 'a new team member', required: true },
        { name: 'selection', description: 'The text selected in the editor, which the editor fills in for ${selection}', required: false },
      ]);
      const explain = await client.getPrompt({
        name: 'copilot:explain',
        arguments: { audience: 'an intern', selection: 'let x = 1;', fileBasename: 'app.ts' },
      });
      expect(messageText(explain.messages[0])).toBe(
        'Explain this code from app.ts (in ) to an intern:\n\nlet x = 1;\n\nMention ${editorThing}.\n```js\nconst label = `${name}`;\n```\n',
      );

      expect(byName('codex:draftpr')?.arguments?.map((argument) => argument.name)).toEqual(['FILES', 'PR_TITLE', 'arguments']);
      const draft = await client.getPrompt({
        name: 'codex:draftpr',
        arguments: { arguments: 'FILES="src/index.ts src/api.ts" PR_TITLE="Add hero animation"' },
      });
      expect(messageText(draft.messages[0])).toContain(
        'stage them first: src/index.ts src/api.ts.\nOpen a draft PR on the same branch. Use Add hero animation when supplied;',
      );
      const explicit = await client.getPrompt({
        name: 'codex:draftpr',
        arguments: { arguments: 'PR_TITLE=from-text FILES=', PR_TITLE: 'Explicit' },
      });
      expect(messageText(explicit.messages[0])).toContain('stage them first: .\nOpen a draft PR on the same branch. Use Explicit when');
      // Codex refuses to expand a prompt while a named placeholder has no value (prompt_args.rs, missing_required_args_reports_error).
      await expect(client.getPrompt({ name: 'codex:draftpr', arguments: { PR_TITLE: 'Explicit' } })).rejects.toThrow(
        /missing required argument FILES/,
      );

      expect(byName('claude:migrate')?.arguments?.map((argument) => [argument.name, argument.description])).toEqual([
        ['arg1', 'Word 1 of the free text ($0, $ARGUMENTS[0]); a value given here wins'],
        ['arg2', 'Word 2 of the free text ($1, $ARGUMENTS[1]); a value given here wins'],
        ['arg3', 'Word 3 of the free text ($2, $ARGUMENTS[2]); a value given here wins'],
        ['arguments', 'Free text, as typed after the command ($ARGUMENTS)'],
      ]);
      const migrate = await client.getPrompt({ name: 'claude:migrate', arguments: { arguments: 'SearchBar React Vue' } });
      expect(messageText(migrate.messages[0])).toBe('Migrate the SearchBar component from React to Vue.\n');

      expect(byName('continue:check')?.description).toBe('check');
      const check = await client.getPrompt({ name: 'continue:check', arguments: { arguments: 'fn add(a, b)' } });
      expect(check.messages.map(messageText)).toEqual(['You review code.', 'fn add(a, b)\n\nAlso check {{{ currentFile }}}.']);

      // Arguments a prompt does not take are ignored over MCP.
      const ignored = await client.getPrompt({ name: 'claude:migrate', arguments: { arguments: 'A B C', bogus: '1' } });
      expect(messageText(ignored.messages[0])).toBe('Migrate the A component from B to C.\n');
    });
  }

  it('validate warns about each placeholder nothing fills, with file and line', async () => {
    const { project, env } = await start('legacy');
    const result = await runCli(['validate'], { cwd: project, env });
    expect(result.code).toBe(0);
    const warnings = result.stdout.trim().split('\n');
    expect(warnings).toEqual([
      '.continue/prompts/check.prompt:9: warning: {{{ currentFile }}}, which Continue fills from its currentFile context provider, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt or in the arguments text',
      ".github/prompts/explain.prompt.md:3: warning: frontmatter agent, with which VS Code picks the agent, its tools and the model, is not supported yet: an MCP prompt cannot choose them, so Promptyard keeps them in the prompt's _meta; set them in the client",
      '.github/prompts/explain.prompt.md:9: warning: placeholder ${editorThing} is not one Promptyard can fill; it reaches the model as written',
    ]);
    expect(result.stderr).toMatch(/4 prompts from \d+ sources; 0 errors, 3 warnings/);
  });

  it('render refuses an argument the prompt does not take, naming it and the closest name', async () => {
    const { project, env } = await start('legacy');
    const bogus = await runCli(['render', 'copilot:explain', '--arg', 'audience=me', '--arg', 'bogus=1'], { cwd: project, env });
    expect(bogus.code).toBe(1);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr).toContain('prompt "copilot:explain" has no argument "bogus"');
    const typo = await runCli(['render', 'copilot:explain', '--arg', 'audiense=me'], { cwd: project, env });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      'prompt "copilot:explain" has no argument "audiense"; did you mean "audience"? (it takes "fileBasename", "workspaceFolderBasename", "audience" and "selection").',
    );
    const good = await runCli(['render', 'codex:draftpr', '--arg', 'arguments=PR_TITLE=Hello FILES=a.ts'], { cwd: project, env });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('Use Hello when supplied');
  });
});
