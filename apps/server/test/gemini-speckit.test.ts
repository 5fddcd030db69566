/**
 * The built server renders Gemini CLI commands and spec-kit templates as their tools do. Expected
 * texts: gemini-cli 5411f113 FileCommandLoader.test.ts 'correctly processes a command without
 * {{args}}'; spec-kit 27f50f7e `process_template` for its default install (copilot, sh), as in
 * packages/prompts/src/native/fixtures/speckit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, messageText, runCli, startStdio } from './harness.js';

afterEach(cleanup);

const project: Record<string, string> = {
  '.gemini/commands/model_led.toml': 'prompt = "This is the instruction."\ndescription = "Default processor test"\n',
  '.gemini/commands/diff.toml': 'prompt = "Review {{args}}:\\n!{git diff}"\n',
  'templates/commands/plan.md':
    '---\ndescription: Plan\nscripts:\n  sh: scripts/bash/setup-plan.sh --json "{ARGS}"\n  ps: scripts/powershell/setup-plan.ps1 -Json\n---\nRun `{SCRIPT}`, then __SPECKIT_COMMAND_TASKS__ (for __AGENT__).\nInput: {ARGS}\n',
};

describe('Gemini CLI commands and spec-kit templates, as their tools render them', () => {
  it('appends the typed Gemini command, and fills spec-kit templates as its default install does', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const { client } = await startStdio(['--no-watch'], { cwd: folder, env: { PROMPTYARD_HOME: home } });

    const led = await client.getPrompt({ name: 'gemini:model_led', arguments: { arguments: '1.2.0 added "a feature"' } });
    expect(messageText(led.messages[0])).toBe('This is the instruction.\n\n/model_led 1.2.0 added "a feature"');
    const diff = await client.getPrompt({ name: 'gemini:diff', arguments: { arguments: ' a.ts   b.ts ' } });
    expect(messageText(diff.messages[0])).toBe('Review a.ts b.ts:\n!{git diff}');

    const plan = await client.getPrompt({ name: 'speckit:plan', arguments: { arguments: 'Add dark mode' } });
    expect(messageText(plan.messages[0])).toBe(
      'Run `.specify/scripts/bash/setup-plan.sh --json "Add dark mode"`, then /speckit-tasks (for copilot).\nInput: Add dark mode\n',
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === 'speckit:plan')?._meta?.['dev.promptyard/filled']).toMatchObject({
      '{SCRIPT}': 'scripts.sh',
      '{ARGS}': '$ARGUMENTS',
      __AGENT__: 'copilot',
    });
  });

  it('validate warns that Gemini shell injections are not run', async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const result = await runCli(['validate'], { cwd: folder, env: { PROMPTYARD_HOME: home } });
    expect(result.stdout).toMatch(/^\.gemini\/commands\/diff\.toml:1: warning: placeholder !\{git diff\} is not one Promptyard can fill/m);
  });
});
