import { realpath } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFiles, readClientEntries, readStdioEntry } from '../../../test-support/client-entries.js';
import { cleanup, cli, makeFolder, newClient, noLeftovers, runCli } from './harness.js';

/**
 * `promptyard-gateway install <client>` as a user runs it: into a temporary home, from the
 * repository with the example gateway.toml; then the entry is started exactly as the client would
 * start it (its command, arguments and environment, from another folder) and lists what the
 * example's servers offer through the gateway.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

describe('promptyard-gateway install', () => {
  it.each(Object.keys(clientFiles))(
    '%s: the entry it writes starts the gateway, which serves its servers',
    async (id) => {
      const home = await makeFolder({});
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
      const args = ['install', id, '--config', 'examples/gateway.toml', '--env', 'PROMPTYARD_GATEWAY_LOG_LEVEL=warning'];
      const installed = await runCli(args, { cwd: root, env });
      expect(installed.stderr).toBe('');
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain(`"promptyard-gateway" added to`);
      expect(installed.stdout).toContain(join(home, clientFiles[id] as string));

      const entry = await readStdioEntry(home, id, 'promptyard-gateway');
      expect(entry.command).toBe(process.execPath);
      expect(entry.args).toEqual([await realpath(cli), '--transport', 'stdio', '--config', join(root, 'examples', 'gateway.toml')]);
      expect(entry.env).toEqual({ PROMPTYARD_GATEWAY_LOG_LEVEL: 'warning' });

      // The example's servers are `command = "node"`: as on a user's machine, the `node` on PATH is the one
      // that runs the gateway (the Node running these tests, which need not be the first on this PATH).
      const path = `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`;
      const transport = new StdioClientTransport({
        command: entry.command,
        args: [...entry.args],
        env: { PATH: path, ...env, ...entry.env },
        cwd: await makeFolder({}),
        stderr: 'pipe',
      });
      const client = newClient();
      await client.connect(transport);
      const [{ tools }, { prompts }] = await Promise.all([client.listTools(), client.listPrompts()]);
      expect(tools.map((tool) => tool.name)).toContain('everything_echo');
      expect(prompts.map((prompt) => prompt.name)).toContain('prompts_code-review');
      expect(await noLeftovers(transport.pid as number)).toEqual([]);

      const again = await runCli(args, { cwd: root, env });
      expect(again.stdout).toContain('already up to date');
      const removed = await runCli(['uninstall', id], { cwd: root, env });
      expect(removed.stdout).toContain(`"promptyard-gateway" removed from`);
      expect((await readClientEntries(home, id))?.['promptyard-gateway']).toBeUndefined();
    },
    60_000,
  );

  it('with --url: the HTTP form, and nothing to start', async () => {
    const home = await makeFolder({});
    const result = await runCli(['install', 'cursor', '--url', 'https://gateway.example.test/mcp', '--token-env', 'GATEWAY_TOKEN'], {
      env: { HOME: home },
    });
    expect(result.code).toBe(0);
    expect((await readClientEntries(home, 'cursor'))?.['promptyard-gateway']).toEqual({
      url: 'https://gateway.example.test/mcp',
      headers: { Authorization: 'Bearer ${env:GATEWAY_TOKEN}' },
    });
  });
});
