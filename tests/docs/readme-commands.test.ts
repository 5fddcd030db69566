/**
 * Every shell command README.md and the getting-started page show, run as written from the
 * repository's root, in the order they come: commands that finish must exit 0; the quick start's
 * server must print the URL it listens on and answer its health check, then it is stopped. Each runs
 * with a temporary HOME, so `install <client>` writes into a throwaway client config, never the real
 * one. Commands this test must not run (installing packages or system tools, the whole test suite, a
 * client's own CLI) are skipped with the reason printed; a command it does not know fails, so a
 * command added to those pages comes with a way to check it. Needs the built binaries.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', 'docs/guide/getting-started.md'];

/** The commands of a page's shell code blocks: comments dropped, continued lines joined, `a && b` as two. */
const shellCommands = (markdown: string): string[] =>
  [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap(([, block]) =>
    (block as string)
      .replace(/\s*\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
      .filter((line) => line !== '')
      .flatMap((line) => line.split(/\s*&&\s*/)),
  );

type Way =
  | { readonly kind: 'skip'; readonly why: string }
  | { readonly kind: 'finish'; readonly check?: (stdout: string, home: string) => void }
  | { readonly kind: 'serve' };

/** How each command the pages may show is checked; a command matching none fails the test. */
const ways: readonly (readonly [RegExp, Way])[] = [
  [/^bash scripts\/ensure-tools\.sh$/, { kind: 'skip', why: 'installs system packages with apt-get; .ci/run runs it before the tests' }],
  [/^npx -y pnpm@10 install$/, { kind: 'skip', why: 'installs the dependencies, which every test needs done already' }],
  [/^npx -y pnpm@10 test$/, { kind: 'skip', why: 'the whole test suite, this test among it; CI runs it' }],
  [/^npx -y pnpm@10 start$/, { kind: 'serve' }],
  [
    /^node apps\/(server|gateway)\/dist\/cli\.js install [a-z-]+ --config examples\/[a-z]+\.toml$/,
    {
      kind: 'finish',
      // Written into the temporary home's client config.
      check: (stdout, home) => {
        expect(stdout).toContain('added to');
        expect(stdout).toContain(`${home}/`);
      },
    },
  ],
  [/^claude mcp add /, { kind: 'skip', why: "Claude Code's own CLI: not installed here, and it would change Claude Code's configuration" }],
];

const wayOf = (command: string): Way | undefined => ways.find(([pattern]) => pattern.test(command))?.[1];

const running = new Set<ChildProcess>();
const homes: string[] = [];

afterEach(async () => {
  // Each command runs in a process group of its own (npx → pnpm → node): the whole group is stopped.
  for (const child of running) if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  running.clear();
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

/** A shell running `command` from the root, with a temporary HOME (npx keeps its own cache, so pnpm is not fetched again). */
const start = async (command: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; home: string }> => {
  const home = await mkdtemp(join(tmpdir(), 'docs-commands-home-'));
  homes.push(home);
  const child = spawn('sh', ['-c', command], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      LANG: process.env['LANG'] ?? 'C.UTF-8',
      ...(process.env['CI'] === undefined ? {} : { CI: process.env['CI'] }),
      TMPDIR: tmpdir(),
      HOME: home,
      npm_config_cache: process.env['npm_config_cache'] ?? join(homedir(), '.npm'),
      ...env,
    },
  });
  running.add(child);
  return { child, home };
};

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));

const finish = async (command: string, check: ((stdout: string, home: string) => void) | undefined): Promise<void> => {
  const { child, home } = await start(command);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  expect(await exited(child), `${command}\n${stdout}${stderr}`).toBe(0);
  check?.(stdout, home);
};

/** Starts the server as written (on a free port: `PROMPTYARD_PORT=0` over the example's 3000), waits for its URL, asks its health, stops it. */
const serve = async (command: string): Promise<void> => {
  const { child } = await start(command, { PROMPTYARD_PORT: '0' });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const look = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(output);
      if (found !== null) resolve(found[1] as string);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before printing its URL:\n${output}`)));
  });
  expect((await fetch(`${url}/health`)).status).toBe(200);
  process.kill(-(child.pid as number), 'SIGTERM');
  await exited(child);
};

describe('the shell commands of a page', () => {
  it('are its sh code blocks, without comments, continued lines joined, each `&&` a command of its own', () => {
    const page = [
      'Text `not this`.',
      '```sh',
      '# a comment',
      'one && two   # and why',
      'three \\',
      '  --flag',
      '```',
      '```json',
      '{}',
      '```',
    ].join('\n');
    expect(shellCommands(page)).toEqual(['one', 'two', 'three --flag']);
  });
});

describe.each(pages)('the commands %s shows', (page) => {
  const commands = shellCommands(readFileSync(join(root, page), 'utf8'));

  it('are there to check', () => {
    expect(commands.length).toBeGreaterThan(1);
  });

  for (const command of commands) {
    const way = wayOf(command);
    if (way === undefined) {
      it(`knows how to run: ${command}`, () => {
        expect.fail(
          `${page} shows "${command}", which this test does not know how to run: add it to the ways in tests/docs/readme-commands.test.ts`,
        );
      });
    } else if (way.kind === 'skip') {
      process.stderr.write(`${page}: "${command}" skipped: ${way.why}\n`);
      it.skip(`${command} (${way.why})`, () => {});
    } else {
      it(command, () => (way.kind === 'serve' ? serve(command) : finish(command, way.check)), 120_000);
    }
  }
});
