import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFiles, readClientEntries, readStdioEntry } from '../../../test-support/client-entries.js';
import { cleanup, cli, isAlive, makeFolder, runCli } from './harness.js';

/**
 * `promptyard-server install <client>` as a user runs it: into a temporary home, from the
 * repository (so the relative --config is made absolute); then the entry is started exactly as the
 * client would start it — its command, arguments and environment, from another folder.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const connected: { client: Client; pid: number | undefined }[] = [];

afterEach(async () => {
  for (const { client, pid } of connected.splice(0)) {
    await client.close();
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await cleanup();
});

describe('promptyard-server install', () => {
  it.each(Object.keys(clientFiles))(
    '%s: the entry it writes starts the server, which serves the example prompts',
    async (id) => {
      const home = await makeFolder({});
      const args = ['install', id, '--config', 'examples/promptyard.toml', '--env', 'PROMPTYARD_LOG_LEVEL=warning'];
      const installed = await runCli(args, { cwd: root, env: { HOME: home } });
      expect(installed.stderr).toBe('');
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain(`"promptyard" added to`);
      expect(installed.stdout).toContain(join(home, clientFiles[id] as string));

      const entry = await readStdioEntry(home, id, 'promptyard');
      expect(entry.command).toBe(process.execPath);
      expect(entry.args).toEqual([await realpath(cli), '--transport', 'stdio', '--config', join(root, 'examples', 'promptyard.toml')]);
      expect(entry.env).toEqual({ PROMPTYARD_LOG_LEVEL: 'warning' });

      const transport = new StdioClientTransport({
        command: entry.command,
        args: [...entry.args],
        env: { PATH: process.env['PATH'] ?? '', HOME: home, ...entry.env },
        cwd: await makeFolder({}),
        stderr: 'pipe',
      });
      const client = new Client({ name: 'install-e2e', version: '1.0.0' });
      await client.connect(transport);
      connected.push({ client, pid: transport.pid ?? undefined });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(['code-review', 'git/commit-message']));

      const again = await runCli(args, { cwd: root, env: { HOME: home } });
      expect(again.stdout).toContain('already up to date');
      const removed = await runCli(['uninstall', id], { cwd: root, env: { HOME: home } });
      expect(removed.code).toBe(0);
      expect(removed.stdout).toContain(`"promptyard" removed from`);
      expect((await readClientEntries(home, id))?.['promptyard']).toBeUndefined();
    },
    60_000,
  );

  it('an unknown client: exit 2 and the clients, the closest first', async () => {
    const result = await runCli(['install', 'claude'], { env: { HOME: await makeFolder({}) } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown client "claude": did you mean "claude-code" or "claude-desktop"\?/);
  });

  it('a client file that does not parse: exit 2, the file untouched', async () => {
    const home = await makeFolder({ '.cursor/mcp.json': '{ "mcpServers": ' });
    const result = await runCli(['install', 'cursor'], { env: { HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(home, '.cursor', 'mcp.json')} is not valid JSON`);
  });
});
