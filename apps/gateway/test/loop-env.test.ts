/**
 * Configs that start the gateway again (the gateway listed in the Claude Desktop file it is
 * registered in), and the environment backends start with. Black-box: the built gateway, wrapper
 * shell scripts and test-server backends; /health for state.
 */
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { testServerPath } from './backends/spawn.js';
import {
  cleanup,
  cli,
  connectHttp,
  eventually,
  gatewayToml,
  health,
  listDescendants,
  makeFolder,
  runCli,
  startHttpGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { HttpGateway } from './harness.js';

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});
afterAll(cleanup);

/**
 * A folder with `self.sh`, which marks each start in `starts` and then execs the gateway with the
 * config named by its argument (relative to its cwd), the way a user's wrapper script would.
 */
const wrapperFolder = async (): Promise<{ script: string; starts: () => Promise<number> }> => {
  const dir = await makeFolder({
    'self.sh': `#!/bin/sh\necho started >> "$(dirname "$0")/starts"\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} --config "$1"\n`,
  });
  const script = join(dir, 'self.sh');
  await chmod(script, 0o755);
  const starts = async (): Promise<number> =>
    (await readFile(join(dir, 'starts'), 'utf8').catch(() => '')).split('\n').filter((line) => line !== '').length;
  return { script, starts };
};

const serverState = async (gateway: HttpGateway, id: string, token?: string) => {
  const body = await health(gateway, token === undefined ? {} : { authorization: `Bearer ${token}` });
  const found = body.servers.find((server) => server.id === id);
  if (found === undefined) throw new Error(`no server "${id}" in /health`);
  return found;
};

/** The gateway processes (dist/cli.js) below `pid`. */
const gatewaysBelow = async (pid: number): Promise<number[]> => {
  const found: number[] = [];
  for (const child of listDescendants(pid)) {
    const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(cli)) found.push(child);
  }
  return found;
};

describe('a config that starts the gateway again', () => {
  const cases = [
    {
      format: 'gateway.toml',
      file: 'gateway.toml',
      config: (script: string) =>
        `[restart]\ninitial_ms = 50\n\n${gatewayToml({ echo: { command: stdioBackendCommand({ name: 'echo' }) }, self: { command: { command: script, args: ['gateway.toml'] }, cwd: '.' } })}`,
    },
    {
      format: 'Claude Desktop JSON',
      file: 'claude_desktop_config.json',
      config: (script: string) =>
        JSON.stringify({
          mcpServers: {
            echo: { command: process.execPath, args: [testServerPath, '--name', 'echo'] },
            self: { command: script, args: ['claude_desktop_config.json'], cwd: '.' },
          },
        }),
    },
  ];

  for (const { format, file, config } of cases) {
    it(`(${format}, through a wrapper script) starts it once more, fails that entry for good and serves the rest`, async () => {
      const wrapper = await wrapperFolder();
      const gateway = await startHttpGateway({ config: config(wrapper.script), file });
      const self = await eventually(
        () => serverState(gateway, 'self'),
        (server) => server.state === 'failed' || server.state === 'ready',
        15_000,
      );
      expect(self).toMatchObject({
        state: 'failed',
        restarts: 0,
        lastError: expect.stringMatching(/^this entry starts this gateway again \(gateway loop\)/),
      });
      expect(await wrapper.starts()).toBe(1);
      expect(await gatewaysBelow(gateway.pid)).toEqual([]);

      const client: Client = await connectHttp(gateway.url);
      expect(textOf(await client.callTool({ name: 'echo_echo', arguments: { text: 'still served' } }))).toBe('still served');
    });
  }

  it('refuses to start under a chain deeper than the limit, before starting any server', async () => {
    const wrapper = await wrapperFolder();
    const dir = await makeFolder({
      'gateway.toml': gatewayToml({ marks: { command: { command: wrapper.script, args: ['unused.toml'] } } }),
    });
    const chain = ['1:aaaa', '2:bbbb', '3:cccc', '4:dddd'].join(',');
    const result = await runCli(['--config', join(dir, 'gateway.toml')], { env: { PROMPTYARD_GATEWAY_CHAIN: chain } });
    expect(result.code).toBe(78);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^promptyard-gateway: gateway loop: not starting: 4 gateways already run above this one \(at most 4\)/),
    ]);
    expect(await wrapper.starts()).toBe(0);
  });
});

describe('the environment of a stdio backend', () => {
  it("is the gateway's without PROMPTYARD_* variables, plus env; inherit_env = false gives the minimal set", async () => {
    const token = 'gateway-secret';
    const backend = (name: string) => ({
      command: process.execPath,
      args: [testServerPath, '--name', name, '--env-tool'],
      env: { FROM_CONFIG: name },
    });
    const gateway = await startHttpGateway({
      config: gatewayToml({ full: { command: backend('full') }, bare: { command: backend('bare'), inherit_env: false } }),
      env: { PROMPTYARD_AUTH_TOKEN: token, E2E_API_KEY: 'inherited-key', HTTPS_PROXY: 'http://127.0.0.1:9' },
    });
    const client = await connectHttp(gateway.url, { token });
    const report = async (tool: string): Promise<string> =>
      textOf(
        await client.callTool({
          name: tool,
          arguments: { names: ['E2E_API_KEY', 'HTTPS_PROXY', 'PROMPTYARD_AUTH_TOKEN', 'FROM_CONFIG', 'PATH', 'PROMPTYARD_GATEWAY_CHAIN'] },
        }),
      );
    const full = await report('full_env');
    expect(full).toContain('E2E_API_KEY=inherited-key');
    expect(full).toContain('HTTPS_PROXY=http://127.0.0.1:9');
    expect(full).toContain('PROMPTYARD_AUTH_TOKEN unset');
    expect(full).toContain('FROM_CONFIG=full');
    expect(full).toMatch(/^PROMPTYARD_GATEWAY_CHAIN=\d+:[0-9a-f]{16}$/m);
    const bare = await report('bare_env');
    expect(bare).toContain('E2E_API_KEY unset');
    expect(bare).toContain('HTTPS_PROXY unset');
    expect(bare).toContain('PROMPTYARD_AUTH_TOKEN unset');
    expect(bare).toContain('FROM_CONFIG=bare');
    expect(bare).toContain(`PATH=${process.env['PATH'] ?? ''}`);
    expect(Number(/count=(\d+)/.exec(bare)?.[1])).toBeLessThan(Number(/count=(\d+)/.exec(full)?.[1]));
    expect((await serverState(gateway, 'bare', token)).state).toBe('ready');
  });
});
