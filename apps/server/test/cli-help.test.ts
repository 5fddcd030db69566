/**
 * promptyard-server's command line, black-box against the built binary: each command's own help
 * (`help <command>`, `<command> --help`, `-h`), `--log-format json`, and colour on request only:
 * `validate`'s status words and the error prefix with FORCE_COLOR, plain with NO_COLOR or piped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, Output, runCli, spawnCli } from './harness.js';

afterEach(cleanup);

const ESC = '\u001b[';

/** One prompt that declares an argument it never uses: a warning for validate. */
const unusedArgument = {
  'greet.md': '---\ndescription: Greet someone\narguments:\n  - name: name\n  - name: mood\n---\nHello {{name}}!\n',
};

describe('promptyard-server help', () => {
  it.each([
    [['help', 'render'], 'render <name> [--arg key=value …]', '-a, --arg <key=value>'],
    [['render', '--help'], 'render <name> [--arg key=value …]', 'promptyard-server --prompts ./prompts render review'],
    [['--prompts', 'x', 'validate', '-h'], 'validate [--strict]', '--strict'],
    [['list', '--help'], 'list [--versions]', '--versions'],
  ])('prints the help of one command: %j', async (args, usage, detail) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: promptyard-server [options] ${usage}`);
    expect(result.stdout).toMatch(/\nExamples?:\n {2}promptyard-server /);
    expect(result.stdout).toContain(detail);
    expect(result.stdout).not.toContain('Serve folders of Markdown prompts');
  });

  it('points at the per-command help, and answers help for an unknown command with the closest', async () => {
    expect((await runCli(['--help'])).stdout).toContain('Run promptyard-server help <command> (or <command> --help)');
    const result = await runCli(['help', 'rendr']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "rendr": did you mean "render"?');
  });
});

describe('schema in the command table', () => {
  it('is listed, has its help, is found after options and suggested for a typo', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}schema {2,}print the JSON Schema of promptyard\.toml/m);
    const help = await runCli(['help', 'schema']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: promptyard-server [options] schema');
    expect(help.stdout).toContain('\nExample:\n  promptyard-server schema > promptyard.schema.json');
    const late = await runCli(['--log-level', 'debug', 'schema']);
    expect(late.code).toBe(0);
    expect(JSON.parse(late.stdout)).toMatchObject({ title: 'promptyard.toml' });
    const typo = await runCli(['schem']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "schem": did you mean "schema"?');
  });

  it('answers help help with the general help, and ends an unknown word with a full stop', async () => {
    const help = await runCli(['help', 'help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Serve folders of Markdown prompts');
    const stray = await runCli(['zzzzzz']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('Unknown command "zzzzzz". The commands are ');
  });
});

describe('install and uninstall in the command table', () => {
  it('have their help with examples, and a mistyped one gets the closest', async () => {
    const help = await runCli(['help', 'install']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: promptyard-server install <client> \[options\]/);
    expect(help.stdout).toMatch(/\nExamples:\n {2}promptyard-server install claude-desktop/);
    const typo = await runCli(['uninstal', 'cursor']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "uninstal": did you mean "uninstall"?');
  });
});

describe('promptyard-server --log-format', () => {
  it.each([
    ['--log-format json', ['--log-format', 'json'], {}],
    ['PROMPTYARD_LOG_FORMAT=json', [], { PROMPTYARD_LOG_FORMAT: 'json' }],
  ] as const)('%s writes one JSON object a line on stderr', async (_way, args, env) => {
    const dir = await makeFolder(unusedArgument);
    const child = spawnCli(['--prompts', dir, '--no-watch', '--log-level', 'debug', ...args], { env });
    const stderr = new Output();
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    await stderr.waitFor(/^\{.*\}\n/m);
    const first = JSON.parse(stderr.text.split('\n')[0] as string) as Record<string, unknown>;
    expect(first).toMatchObject({ level: expect.any(String), scope: expect.stringMatching(/^promptyard/), msg: expect.any(String) });
    expect(typeof first['time']).toBe('string');
  });
});

describe('colour', () => {
  it('colours validate findings and counts with FORCE_COLOR, and leaves piped output plain', async () => {
    const dir = await makeFolder(unusedArgument);
    const forced = await runCli(['--prompts', dir, 'validate'], { env: { FORCE_COLOR: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`greet.md:5: ${ESC}33mwarning${ESC}39m: argument "mood" is declared but never used`);
    expect(forced.stderr).toContain(`${ESC}32m0 errors${ESC}39m, ${ESC}33m1 warning${ESC}39m`);
    for (const env of [{ NO_COLOR: '1' }, {}]) {
      const plain = await runCli(['--prompts', dir, 'validate'], { env });
      expect(plain.stdout).toContain('greet.md:5: warning: argument "mood" is declared but never used');
      expect(plain.stdout + plain.stderr).not.toContain(ESC);
    }
  });

  it('colours the error prefix with FORCE_COLOR only', async () => {
    const forced = await runCli(['lsit'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr.startsWith(`${ESC}31mpromptyard-server:${ESC}39m Unknown command "lsit"`)).toBe(true);
    const plain = await runCli(['lsit'], { env: { NO_COLOR: '1' } });
    expect(plain.stderr.startsWith('promptyard-server: Unknown command "lsit"')).toBe(true);
  });
});
