import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, runCli, startStdio } from './harness.js';

afterEach(cleanup);

const hello = '---\ndescription: Say hello\n---\nHello\n';

describe('the config file in the working folder', () => {
  it('reads ./promptyard.toml without --config, says so at start, and lets --prompts replace its folders', async () => {
    const project = await makeFolder({
      'promptyard.toml': '[server]\nname = "from-cwd"\n[prompts]\nfolders = ["team"]\n',
      'team/hello.md': hello,
      'other/bye.md': '---\ndescription: Say bye\n---\nBye\n',
    });
    const home = await makeFolder({});
    const served = await startStdio([], { cwd: project, env: { PROMPTYARD_HOME: home } });
    expect(served.client.getServerVersion()?.name).toBe('from-cwd');
    expect((await served.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['hello']);
    const [line] = await served.stderr.waitFor(/config file read[^\n]*/);
    expect(line).toContain(join(project, 'promptyard.toml'));

    const flagged = await startStdio(['--prompts', 'other'], { cwd: project, env: { PROMPTYARD_HOME: home } });
    expect(flagged.client.getServerVersion()?.name).toBe('from-cwd');
    expect((await flagged.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['bye']);
  });

  it('prefers $PROMPTYARD_CONFIG to ./promptyard.toml, and says when no file was found', async () => {
    const project = await makeFolder({ 'promptyard.toml': '[server]\nname = "from-cwd"\n', 'named.toml': '[server]\nname = "named"\n' });
    const prompts = await makeFolder({ 'hello.md': hello });
    const home = await makeFolder({});
    const named = await startStdio(['--prompts', prompts], {
      cwd: project,
      env: { PROMPTYARD_HOME: home, PROMPTYARD_CONFIG: 'named.toml' },
    });
    expect(named.client.getServerVersion()?.name).toBe('named');
    const none = await startStdio(['--prompts', prompts], { cwd: home, env: { PROMPTYARD_HOME: home } });
    expect(none.client.getServerVersion()?.name).toBe('promptyard');
    await none.stderr.waitFor(/no config file: defaults and the environment apply/);
  });
});

describe('unknown PROMPTYARD_* variables', () => {
  it('are warned about with the closest name, when serving and for commands', async () => {
    const prompts = await makeFolder({ 'hello.md': hello });
    const home = await makeFolder({});
    const env = { PROMPTYARD_HOME: home, PROMPTYARD_LIMITS_MAX_FILE_BYTS: '1' };
    const warning = /PROMPTYARD_LIMITS_MAX_FILE_BYTS is not a setting and is ignored\. Did you mean "PROMPTYARD_LIMITS_MAX_FILE_BYTES"\?/;
    const served = await startStdio(['--prompts', prompts], { cwd: home, env });
    await served.stderr.waitFor(warning);
    const list = await runCli(['list', '--prompts', prompts], { cwd: home, env });
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(warning);
  });
});

describe('frontmatter typos', () => {
  const project = {
    'prompts/review.md': '---\ndescription: Review code\nargumnets:\n  - name: code\n    required: true\n---\nReview {{ code }}\n',
    'promptyard.toml': '[prompts]\nfolders = ["prompts"]\n',
  };

  it('are warned at load with did-you-mean', async () => {
    const dir = await makeFolder(project);
    const home = await makeFolder({});
    const served = await startStdio([], { cwd: dir, env: { PROMPTYARD_HOME: home } });
    await served.stderr.waitFor(/unknown frontmatter key "argumnets" \(did you mean "arguments"\?\)/);
    // What the typo does: the argument meant to be required is an optional template variable.
    const { prompts } = await served.client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === 'review')?.arguments).toEqual([
      expect.objectContaining({ name: 'code', required: false }),
    ]);
  });

  it('are warnings for validate and errors for validate --strict, in the formats of other tools too', async () => {
    const dir = await makeFolder(project);
    const home = await makeFolder({});
    const env = { PROMPTYARD_HOME: home };
    // Discovered (no folders configured): Claude Code's commands folder.
    const claude = await makeFolder({
      '.claude/commands/fix.md': '---\ndescription: Fix an issue\nargument-hnit: [issue]\n---\nFix $ARGUMENTS\n',
    });
    const native = await runCli(['validate', '--strict'], { cwd: claude, env });
    const plain = await runCli(['validate'], { cwd: dir, env });
    expect(plain.stdout).toMatch(/^prompts\/review\.md:3: warning: unknown frontmatter key "argumnets" \(did you mean "arguments"\?\)/m);
    expect(plain.code).toBe(0);
    expect(native.stdout).toMatch(
      /^\.claude\/commands\/fix\.md:3: warning: unknown frontmatter key "argument-hnit" \(did you mean "argument-hint"\?\)/m,
    );
    expect(native.code).toBe(1);
    const strict = await runCli(['validate', '--strict'], { cwd: dir, env });
    expect(strict.code).toBe(1);
  });

  it('leave keys far from every known key alone', async () => {
    const dir = await makeFolder({ 'prompts/tagged.md': '---\ndescription: Tagged\ntags: [a]\ncategory: x\n---\nHi\n' });
    const home = await makeFolder({});
    const strict = await runCli(['validate', '--strict', '--prompts', 'prompts'], { cwd: dir, env: { PROMPTYARD_HOME: home } });
    expect(strict.stdout).toBe('');
    expect(strict.code).toBe(0);
  });
});

describe('TOML syntax errors', () => {
  it("show the parser's snippet and caret with the path, for promptyard.toml", async () => {
    const dir = await makeFolder({ 'promptyard.toml': '[server]\nname = unq\n' });
    const result = await runCli(['list'], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(dir, 'promptyard.toml')}:2:8: invalid TOML: invalid value`);
    expect(result.stderr).toMatch(/\n {4}2: {2}name = unq\n {15}\^/);
  });

  it('and for a twig.toml in a prompt folder', async () => {
    const dir = await makeFolder({
      'prompts/writing/twig.toml': '[prompts.summarize]\ndescription = unq\n',
      'prompts/writing/prompts/summarize.md': 'Summarise {{ text }}',
      'prompts/hello.md': hello,
    });
    const home = await makeFolder({});
    const result = await runCli(['validate', '--prompts', 'prompts'], { cwd: dir, env: { PROMPTYARD_HOME: home } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^prompts\/writing\/twig\.toml:2: error: invalid TOML: invalid value\n {4}1: {2}\[prompts\.summarize\]\n {4}2: {2}description = unq\n +\^$/m,
    );
  });
});
