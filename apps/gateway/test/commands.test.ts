/**
 * The gateway's command line, black-box against the built binary: `status` says how long each server
 * may take and reports each one as it answers or times out (on a terminal, in tmux, with a waiting
 * line updated in place; in a pipe, naming the ones still starting every 5 s), a mistyped command
 * gets the closest one,
 * every command has its own help, logs can be JSON (config key, flag or environment), the default
 * HTTP port is 3100 (not the server's 3000), and status words are coloured only on request of a
 * terminal or FORCE_COLOR.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup as cleanupGateways, runCli } from './harness.js';
import { cleanup, gatewayCli, noteDescendants, Output, spawnGateway, testServer, testServerPath, writeConfig } from './pass-harness.js';
import { frame, startTmux, tmuxVersion } from './tmux.mjs';
import type { TmuxSession } from './tmux.mjs';

const ESC = '\u001b[';
const spawned: ChildProcess[] = [];
const listeners: Server[] = [];
let terminal: TmuxSession | undefined;

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(listeners.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await cleanup();
  await cleanupGateways();
});

/** A test-server that never answers its handshake (and ignores SIGTERM). */
const neverAnswers = { command: process.execPath, args: [testServerPath, '--name', 'h1', '--never-answer'] };

describe('promptyard-gateway status', () => {
  it('prints a line per server as each answers or times out, the timeout stated first, and names the hung one every 5 s', async () => {
    const config = await writeConfig({
      preamble: '[timeouts]\nconnect_ms = 6000',
      servers: { good: testServer('g1'), hung: neverAnswers },
    });
    const status = spawnGateway(config, [], ['status']);
    let stdout = '';
    status.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await status.stderr.waitFor(/Starting 2 servers; each has 6\.0 s to answer \(\[timeouts\] connect_ms\)/, 10_000);
    await status.stderr.waitFor(/^ok {6}good: ready after [\d.]+ s \(\d+ tools, \d+ prompts, \d+ resources\)$/m, 10_000);
    // The working server is reported while the hung one is still awaited.
    expect(status.child.exitCode).toBeNull();
    expect(status.stderr.text).not.toContain('hung:');
    // Off a terminal, the one still starting is named with its elapsed time (the one 5 s wait of this file).
    await status.stderr.waitFor(/^still starting: hung \(5 s\)$/m, 10_000);
    await status.stderr.waitFor(
      /^failed {2}hung: could not connect: .*no answer to the MCP handshake within 6000 ms.* \(after [\d.]+ s\)$/m,
      15_000,
    );
    expect(await status.exited).toBe(1);
    expect(status.stderr.text).not.toMatch(/still starting:.*good/);
    // stdout is the table alone: scripts reading it see no progress.
    expect(stdout).toMatch(/^server +state /);
    expect(stdout).not.toContain('still starting');
    // Piped and without FORCE_COLOR: plain text.
    expect(status.stderr.text).not.toContain(ESC);
  });

  it('on a terminal, keeps a waiting line at the bottom, updated in place, and clears it', { timeout: 60_000 }, async () => {
    await tmuxVersion(); // fails with "tmux is not installed: install it (apt-get install tmux) …"
    const config = await writeConfig({
      preamble: '[timeouts]\nconnect_ms = 4000',
      servers: { good: testServer('g1'), hung: neverAnswers },
    });
    terminal = await startTmux({ command: process.execPath, args: [gatewayCli, 'status', '--config', config] });
    const session = terminal;
    const pane = await session.panePid();
    const waiting = await session.waitForScreen(
      (screen) => /^ok {6}good: ready after/m.test(screen) && /^waiting for hung \([\d.]+ s of 4\.0 s\)\s*$/m.test(screen),
      15_000,
      'good reported and "waiting for hung" below it',
    );
    noteDescendants(pane);
    expect(waiting, frame(waiting)).not.toContain('waiting for good');
    expect(await session.waitForExit(15_000)).toBe(1);
    const done = await session.captureAll();
    expect(done, frame(done)).toMatch(/^failed {2}hung: could not connect/m);
    expect(done, frame(done)).not.toContain('waiting for');
    expect(done, frame(done)).toMatch(/^good\s+ready\s+stdio/m);
  });

  it('colours the status words with FORCE_COLOR, and never with NO_COLOR', async () => {
    const config = await writeConfig({ servers: { good: testServer('g1') } });
    const forced = await runCli(['status', '--config', config], { env: { FORCE_COLOR: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`\ngood    ${ESC}32mready${ESC}39m  stdio`);
    expect(forced.stderr).toContain(`${ESC}32mok     ${ESC}39m good: ready`);
    const plain = await runCli(['status', '--config', config], { env: { NO_COLOR: '1' } });
    expect(plain.stdout).toMatch(/^good {4}ready /m);
    expect(plain.stdout + plain.stderr).not.toContain(ESC);
    const failed = await runCli(['stauts'], { env: { FORCE_COLOR: '1' } });
    expect(failed.stderr.startsWith(`${ESC}31mpromptyard-gateway:${ESC}39m Unknown command`)).toBe(true);
  });
});

describe('promptyard-gateway commands and help', () => {
  it('answers a mistyped command with the closest one', async () => {
    const result = await runCli(['stauts', '--config', 'gateway.toml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "stauts": did you mean "status"? The commands are "status", ');
    expect(result.stderr).toContain('Run promptyard-gateway --help for the options.');
  });

  it.each([
    [['status', '--help'], 'status [--json]', '--json'],
    [['help', 'pins'], 'pins list | diff', 'promptyard-gateway pins diff github'],
    [['login', '-h'], 'login <server>', 'promptyard-gateway --config gateway.toml login linear'],
  ])('prints the help of one command: %j', async (args, usage, detail) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: promptyard-gateway [options] ${usage}`);
    expect(result.stdout).toMatch(/\nExamples?:\n {2}promptyard-gateway /);
    expect(result.stdout).toContain(detail);
    expect(result.stdout).not.toContain('Aggregate many MCP servers');
  });
});

describe('schema, help help and the environment of commands', () => {
  it('schema is a command: listed, with its help, found after options, suggested for a typo', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}schema {2,}print the JSON Schema of gateway\.toml/m);
    const help = await runCli(['help', 'schema']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('\nExample:\n  promptyard-gateway schema > gateway.schema.json');
    const late = await runCli(['--log-level', 'debug', 'schema']);
    expect(late.code).toBe(0);
    expect(JSON.parse(late.stdout)).toMatchObject({ title: expect.stringContaining('gateway.toml') });
    expect((await runCli(['schem'])).stderr).toContain('Unknown command "schem": did you mean "schema"?');
    const helpHelp = await runCli(['help', 'help']);
    expect(helpHelp.code).toBe(0);
    expect(helpHelp.stdout).toContain('Aggregate many MCP servers');
  });

  it('status warns about a misspelt PROMPTYARD_* variable, and pins suggests a mistyped action', async () => {
    const config = await writeConfig({ servers: { good: testServer('g1') } });
    const status = await runCli(['status', '--config', config], { env: { PROMPTYARD_TIMEOUTS_CONECT_MS: '1000' } });
    expect(status.code).toBe(0);
    expect(status.stderr).toMatch(
      /^promptyard-gateway: warning: environment variable PROMPTYARD_TIMEOUTS_CONECT_MS is not a setting and is ignored\. Did you mean "PROMPTYARD_TIMEOUTS_CONNECT_MS"/m,
    );
    const pins = await runCli(['pins', 'lst', '--config', config]);
    expect(pins.code).toBe(1);
    expect(pins.stderr).toContain('not "lst" (did you mean "list"?)');
  });
});

/** Starts the gateway over HTTP on a free port and collects stderr until it is ready. */
const startHttp = async (args: readonly string[], env: Record<string, string>, preamble = ''): Promise<Output> => {
  const config = await writeConfig({ preamble, servers: {} });
  const child = spawn(process.execPath, [gatewayCli, '--config', config, '--transport', 'http', '--port', '0', ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  spawned.push(child);
  const stderr = new Output();
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  await stderr.waitFor(/0 of 0 servers ready.*\n/, 15_000);
  return stderr;
};

describe('log_format', () => {
  it.each([
    ['[gateway] log_format', [], {}, '[gateway]\nlog_format = "json"'],
    ['--log-format', ['--log-format', 'json'], {}, ''],
    ['PROMPTYARD_LOG_FORMAT', [], { PROMPTYARD_LOG_FORMAT: 'json' }, ''],
    ['PROMPTYARD_GATEWAY_LOG_FORMAT', [], { PROMPTYARD_GATEWAY_LOG_FORMAT: 'json' }, ''],
  ] as const)('%s = json writes one JSON object a line', async (_way, args, env, preamble) => {
    const stderr = await startHttp(args, env, preamble);
    const records = stderr.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.find((record) => String(record['msg']).startsWith('listening on http://127.0.0.1:'))).toMatchObject({
      level: 'notice',
      scope: 'gateway',
    });
  });

  it('stays text by default, and refuses an unknown format', async () => {
    const stderr = await startHttp([], {});
    expect(stderr.text).toMatch(/^\d{4}-\d\d-\d\dT\S+ NOTICE {2}\[gateway\] listening on http/m);
    const wrong = await runCli(['--log-format', 'xml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--log-format must be text or json; got "xml"');
  });
});

describe('the default HTTP port', () => {
  it('is 3100, not the server’s 3000', async () => {
    // Held here (or by someone else already): the gateway reports the port it wanted, and binds nothing.
    const holder = createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(3100, '127.0.0.1', () => resolve());
    });
    listeners.push(holder);
    const config = await writeConfig({ servers: {} });
    const result = await runCli(['--config', config, '--transport', 'http']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('port 3100 is in use — choose another with --port or [transport] port');
  });
});
