import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanup, eventually, makeFolder, messageText, startStdio } from './harness.js';
import { homeFiles, projectFiles } from './native-fixtures.js';

afterEach(cleanup);

const start = async () => {
  const project = await makeFolder(projectFiles);
  const home = await makeFolder(homeFiles);
  const server = await startStdio(['--no-watch'], { cwd: project, env: { PROMPTYARD_HOME: home } });
  return { ...server, project, home };
};

describe('prompts in their tools’ own formats, discovered with no folders configured', () => {
  it('lists every format with prefixes, project over home, and says on stderr what it found', async () => {
    const { client, stderr, project, home } = await start();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(
      [
        'claude:git/fix-issue',
        'claude:personal',
        'claude:release-notes',
        'claude:review',
        'claude:triage',
        'codex:draft-pr',
        'continue:explain',
        'continue:legacy',
        'continue:resume',
        'copilot:react-form',
        'gemini:deploy',
        'gemini:git:commit',
        'gemini:summarize',
        'prompty:prompts/greet',
        'speckit:plan',
      ].sort(),
    );
    for (const prompt of prompts) expect(prompt.name).toMatch(/^[A-Za-z0-9_.:/-]{1,64}$/);
    expect(prompts.find((prompt) => prompt.name === 'claude:review')?.description).toBe('Review the change');
    await stderr.waitFor(/duplicate prompt name/);
    expect(stderr.text).toContain(`project claude-commands ${project}/.claude/commands`);
    expect(stderr.text).toContain(`home    codex`);
    expect(stderr.text).toContain(home);
    expect(stderr.text).toMatch(/named gemini:<name>/);
  });

  it('renders each dialect verbatim apart from its own placeholders, and never executes anything', async () => {
    const { client } = await start();
    const fix = await client.getPrompt({ name: 'claude:git/fix-issue', arguments: { arguments: '42 high' } });
    expect(messageText(fix.messages[0])).toBe(
      'Fix issue #42 with priority high.\n\nCurrent status: !`git status --short`\n\n```ts\nconst greeting = `{{ name }}`; // a template literal, not ours\n```\nFollow @docs/style.md.\n',
    );
    expect(fix.messages[1]?.content).toMatchObject({ type: 'resource', resource: { text: '# Style\nUse short sentences.\n' } });

    const form = await client.getPrompt({ name: 'copilot:react-form', arguments: { formName: 'Login', workspaceFolder: '/work/app' } });
    expect(messageText(form.messages[0])).toContain('Create a form named Login in /work/app.\n\n```jsx\n<input value={{ value }} />');

    const commit = await client.getPrompt({ name: 'gemini:git:commit', arguments: { arguments: 'the parser fix' } });
    expect(messageText(commit.messages[0])).toBe('Write a commit message for: the parser fix\n\n!{git diff --staged}\n');
    const deploy = await client.getPrompt({ name: 'gemini:deploy', arguments: { arguments: 'to staging' } });
    expect(messageText(deploy.messages[0])).toBe('Deploy the service.\n\n/deploy to staging');
    const summarize = await client.getPrompt({ name: 'gemini:summarize' });
    expect(summarize.messages[1]?.content).toMatchObject({ type: 'resource' });

    const legacy = await client.getPrompt({ name: 'continue:legacy', arguments: { arguments: 'Why?' } });
    expect(legacy.messages.map(messageText)).toEqual(['You answer in one line.', 'Why?']);
    const codex = await client.getPrompt({ name: 'codex:draft-pr', arguments: { branch: 'feat/x' } });
    // Codex keeps `$$` as written (prompt_args.rs, escaped_placeholder_remains_literal).
    expect(messageText(codex.messages[0])).toBe('Draft a PR for branch feat/x; costs $$5.\n');
    const plan = await client.getPrompt({ name: 'speckit:plan', arguments: { arguments: 'Add dark mode' } });
    expect(messageText(plan.messages[0])).toContain('```text\nAdd dark mode\n```');
    const triage = await client.getPrompt({ name: 'claude:triage', arguments: { issue: '#9', severity: 'minor' } });
    expect(messageText(triage.messages[0])).toBe('Triage issue #9 as minor.\n');
    const review = await client.getPrompt({ name: 'claude:review', arguments: { arguments: 'the diff' } });
    expect(messageText(review.messages[0])).toBe('Review the diff carefully. Ünïcödé ✓\n');

    const greet = await client.getPrompt({ name: 'prompty:prompts/greet', arguments: { firstName: 'Ada' } });
    expect(greet.messages.map((message) => [message.role, messageText(message)])).toEqual([
      ['user', 'You are friendly.'],
      ['user', 'Say hello to Ada.'],
    ]);
  });

  it('keeps references outside the root or in hidden folders literal', async () => {
    const { client } = await start();
    const skill = await client.getPrompt({ name: 'claude:release-notes', arguments: { arguments: '@.env and @../x' } });
    expect(skill.messages).toHaveLength(1);
  });

  it('completes Prompty enums and values seen before, and requires what the format requires', async () => {
    const { client } = await start();
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'prompty:prompts/greet' },
      argument: { name: 'tone', value: 'f' },
    });
    expect(completion.completion.values).toEqual(['friendly', 'formal']);
    await expect(client.getPrompt({ name: 'copilot:react-form' })).rejects.toThrow(/formName/);
    await client.getPrompt({ name: 'copilot:react-form', arguments: { formName: 'LoginForm' } });
    const seen = await client.complete({
      ref: { type: 'ref/prompt', name: 'copilot:react-form' },
      argument: { name: 'formName', value: 'log' },
    });
    expect(seen.completion).toMatchObject({ values: ['LoginForm'], total: 1, hasMore: false });
  });

  it('reloads discovered folders when their files change', async () => {
    const project = await makeFolder(projectFiles);
    const home = await makeFolder(homeFiles);
    const { client, stderr } = await startStdio([], { cwd: project, env: { PROMPTYARD_HOME: home } });
    const escaped = project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await stderr.waitFor(new RegExp(`watching dir=${escaped}/\\.gemini/commands`));
    await stderr.waitFor(new RegExp(`watching dir=${escaped}/\\.claude/commands`));
    await writeFile(join(project, '.gemini/commands/added.toml'), 'description = "Added later"\nprompt = "New {{args}}"\n');
    await writeFile(join(project, '.claude/commands/review.md'), '---\ndescription: Edited review\n---\nReview $ARGUMENTS\n');
    const prompts = await eventually(
      async () => (await client.listPrompts()).prompts,
      (list) => list.some((prompt) => prompt.name === 'gemini:added') && list.some((prompt) => prompt.description === 'Edited review'),
    );
    expect(prompts.find((prompt) => prompt.name === 'claude:review')?.description).toBe('Edited review');
  });

  it('serves only configured folders when there are some', async () => {
    const project = await makeFolder({ ...projectFiles, 'mine/a.md': 'A' });
    const { client } = await startStdio(['--no-watch', '--prompts', 'mine'], { cwd: project });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['a']);
  });
});
