import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFiles } from './fixtures.js';
import { cleanup, makeFolder, Output, runCli, spawnCli, startHttp, waitForExit } from './harness.js';

afterEach(cleanup);

describe('promptyard-server command line', () => {
  it('prints --help and --version on stdout', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: promptyard-server/);
    expect(help.stdout).toMatch(/--transport/);
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('fails fast on an invalid config with the file, the line and what is allowed', async () => {
    const dir = await makeFolder({
      ...promptFiles,
      'promptyard.toml': '[server]\nname = "x"\n\n[transport]\ntype = "carrier-pigeon"\nprot = 3\n',
    });
    const result = await runCli(['--config', join(dir, 'promptyard.toml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('promptyard.toml:5');
    expect(result.stderr).toMatch(/one of "stdio" or "http"/);
    expect(result.stderr).toContain('promptyard.toml:6');
    expect(result.stderr).toMatch(/unknown key "prot".*did you mean "port"/);
    expect(result.stdout).toBe('');
  });

  it('reports TOML syntax errors with line and column, and bad flags', async () => {
    const dir = await makeFolder({ 'promptyard.toml': '[prompts]\nfolders = ["a",\n' });
    const syntax = await runCli(['--config', join(dir, 'promptyard.toml')]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/promptyard\.toml:\d+:\d+/);
    const flag = await runCli(['--transport', 'smoke']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--transport must be "stdio" or "http"/);
    // Nothing configured and nothing to discover in an empty project and home.
    const empty = await makeFolder({});
    const none = await runCli([], { cwd: empty, env: { PROMPTYARD_HOME: empty } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/No prompt folders/);
    const missing = await runCli(['--prompts', join(dir, 'does-not-exist')]);
    expect(missing.stderr).toMatch(/does not exist/);
  });

  it('reads folders relative to the config file and lets flags override it', async () => {
    const dir = await makeFolder({ ...Object.fromEntries(Object.entries(promptFiles).map(([path, text]) => [`library/${path}`, text])) });
    await writeFile(join(dir, 'promptyard.toml'), '[transport]\ntype = "stdio"\n\n[prompts]\nfolders = ["library"]\n');
    const server = await startHttp(['--config', join(dir, 'promptyard.toml')]);
    const health = await (await fetch(new URL('/health', server.url))).json();
    expect(health).toMatchObject({ prompts: 6 });
  });

  it('shuts down cleanly on SIGTERM and when stdin closes', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir]);
    server.child.kill('SIGTERM');
    expect(await waitForExit(server.child)).toBe(0);

    const child = spawnCli(['--prompts', dir]);
    const stderr = new Output();
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    await stderr.waitFor(/serving on stdio/);
    child.stdin.end();
    expect(await waitForExit(child)).toBe(0);
  });

  it('keeps stdout for the protocol only', async () => {
    const dir = await makeFolder(promptFiles);
    const child = spawnCli(['--prompts', dir, '--log-level', 'debug']);
    const stdout = new Output();
    const stderr = new Output();
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await stdout.waitFor(/"id":1/);
    child.stdin.write('this is not json\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await stdout.waitFor(/"id":2/);
    for (const line of stdout.text.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    child.stdin.end();
    expect(await waitForExit(child)).toBe(0);
  });
});
