/**
 * promptyard-gateway's configs, black-box: the JSON files clients already have (Claude Desktop
 * `mcpServers`, VS Code `servers` with comments and `${env:X}`), hot reload of a watched
 * gateway.toml, the `status` subcommand and `--help`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { testServerPath } from './backends/spawn.js';
import {
  cleanup,
  eventually,
  gatewayToml,
  httpBackend,
  isAlive,
  listDescendants,
  makeFolder,
  runCli,
  startStdioGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { Output, StdioGateway } from './harness.js';

const whoami = async (client: Client, name: string): Promise<{ name: string; pid: number }> => {
  const match = /^name=(\S+) pid=(\d+)/.exec(textOf(await client.callTool({ name, arguments: {} })));
  if (match === null) throw new Error(`unexpected whoami answer from ${name}`);
  return { name: match[1] as string, pid: Number(match[2]) };
};

const toolNames = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);

const expectClean = async (): Promise<void> => {
  expect(await cleanup()).toEqual([]);
};

/** Resolves once `pattern` has matched `count` times in the output. */
const nthMatch = (output: Output, pattern: RegExp, count: number): Promise<unknown> =>
  eventually(
    async () => output.text.match(new RegExp(pattern.source, 'g'))?.length ?? 0,
    (seen) => seen >= count,
    10_000,
  );

describe('client JSON configs', () => {
  let claude: StdioGateway;
  let vscode: StdioGateway;
  let remoteUrl: string;

  beforeAll(async () => {
    remoteUrl = (await httpBackend('remote')).url;
    const claudeConfig = JSON.stringify(
      {
        mcpServers: {
          'Local Alpha': { command: process.execPath, args: [testServerPath, '--name', 'alpha'], env: { UNUSED: '1' } },
          remote: { url: remoteUrl },
          off: { command: process.execPath, args: [testServerPath], disabled: true },
        },
        globalShortcut: 'Ctrl+Space',
      },
      null,
      2,
    );
    const vscodeConfig = `// .vscode/mcp.json
{
  "inputs": [],
  "servers": {
    /* a local server whose name comes from the environment */
    "local": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(testServerPath)}, "--name", "\${env:E2E_BACKEND_NAME}",],
    },
    "web": { "type": "http", "url": ${JSON.stringify(remoteUrl)}, },
  },
}
`;
    [claude, vscode] = await Promise.all([
      startStdioGateway({ config: claudeConfig, file: 'claude_desktop_config.json' }),
      startStdioGateway({ config: vscodeConfig, file: 'mcp.json', env: { E2E_BACKEND_NAME: 'from-env' } }),
    ]);
  });
  afterAll(expectClean);

  it('serves a Claude Desktop mcpServers file (ids normalised, disabled respected, url = Streamable HTTP)', async () => {
    const tools = await toolNames(claude.client);
    expect(tools).toEqual(expect.arrayContaining(['Local-Alpha_echo', 'remote_echo']));
    expect(tools.some((name) => name.startsWith('off_'))).toBe(false);
    expect(await whoami(claude.client, 'Local-Alpha_whoami')).toMatchObject({ name: 'alpha' });
    expect(await whoami(claude.client, 'remote_whoami')).toMatchObject({ name: 'remote' });
  });

  it('serves a VS Code servers file with comments, trailing commas and ${env:X}', async () => {
    const tools = await toolNames(vscode.client);
    expect(tools).toEqual(expect.arrayContaining(['local_echo', 'web_echo']));
    expect(await whoami(vscode.client, 'local_whoami')).toMatchObject({ name: 'from-env' });
    expect(await whoami(vscode.client, 'web_whoami')).toMatchObject({ name: 'remote' });
  });
});

describe('hot reload of gateway.toml', () => {
  let gateway: StdioGateway;
  let client: Client;
  let reloads = 0;
  const servers = {
    alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
    beta: { command: stdioBackendCommand({ name: 'beta' }) },
  };
  /** Writes the config and waits for the gateway to have applied it. */
  const edit = async (text: string): Promise<void> => {
    await writeFile(gateway.configPath, text);
    reloads++;
    await nthMatch(gateway.stderr, /config reloaded/, reloads);
  };

  beforeAll(async () => {
    gateway = await startStdioGateway({ config: gatewayToml(servers) });
    client = gateway.client;
  });
  afterAll(expectClean);

  it('adds a server: its tools appear and the client hears tools/list_changed', async () => {
    expect((await toolNames(client)).some((name) => name.startsWith('gamma_'))).toBe(false);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    await edit(gatewayToml({ ...servers, gamma: { command: stdioBackendCommand({ name: 'gamma' }) } }));
    await eventually(
      async () => changed,
      (count) => count > 0,
    );
    expect(await toolNames(client)).toEqual(expect.arrayContaining(['gamma_echo', 'gamma_whoami']));
    expect(await whoami(client, 'gamma_whoami')).toMatchObject({ name: 'gamma' });
  });

  it('restarts only the server whose entry changed', async () => {
    const alpha = await whoami(client, 'alpha_whoami');
    const beta = await whoami(client, 'beta_whoami');
    const gamma = await whoami(client, 'gamma_whoami');
    await edit(
      gatewayToml({
        ...servers,
        beta: { command: { ...servers.beta.command, args: [...servers.beta.command.args.slice(0, -1), 'beta-2'] } },
        gamma: { command: stdioBackendCommand({ name: 'gamma' }) },
      }),
    );
    expect(gateway.stderr.text).toMatch(/config reloaded .*restarted=beta/);
    const beta2 = await whoami(client, 'beta_whoami');
    expect(beta2.name).toBe('beta-2');
    expect(beta2.pid).not.toBe(beta.pid);
    expect(isAlive(beta.pid)).toBe(false);
    expect(await whoami(client, 'alpha_whoami')).toEqual(alpha);
    expect(await whoami(client, 'gamma_whoami')).toEqual(gamma);
  });

  it('removes a server: its tools vanish and its process ends', async () => {
    const gamma = await whoami(client, 'gamma_whoami');
    expect(listDescendants(gateway.pid)).toContain(gamma.pid);
    await edit(
      gatewayToml({
        ...servers,
        beta: { command: { ...servers.beta.command, args: [...servers.beta.command.args.slice(0, -1), 'beta-2'] } },
      }),
    );
    expect(gateway.stderr.text).toMatch(/config reloaded .*removed=gamma/);
    expect((await toolNames(client)).some((name) => name.startsWith('gamma_'))).toBe(false);
    await expect(client.callTool({ name: 'gamma_whoami', arguments: {} })).rejects.toThrow(/not found/);
    await eventually(
      async () => isAlive(gamma.pid),
      (alive) => !alive,
    );
    expect(listDescendants(gateway.pid)).not.toContain(gamma.pid);
  });

  it('keeps the last good config after an invalid edit, and says why on stderr', async () => {
    const alpha = await whoami(client, 'alpha_whoami');
    const before = await toolNames(client);
    await writeFile(gateway.configPath, '[servers.alpha]\ncommand = "node"\nargs = [unterminated\n');
    await gateway.stderr.waitFor(/config change ignored; the gateway keeps the last good config\./);
    await writeFile(
      gateway.configPath,
      gatewayToml({ alpha: { command: stdioBackendCommand({ name: 'alpha' }), url: 'http://127.0.0.1:1/mcp' } }),
    );
    await nthMatch(gateway.stderr, /config change ignored/, 2);
    expect(gateway.stderr.text).toMatch(/server "alpha": has both command and url/);
    expect(await whoami(client, 'alpha_whoami')).toEqual(alpha);
    expect(await whoami(client, 'beta_whoami')).toMatchObject({ name: 'beta-2' });
    expect(await toolNames(client)).toEqual(before);
  });
});

describe('the status subcommand and --help', () => {
  afterAll(expectClean);

  it('prints a table of every server and exits 0 when all are ready', async () => {
    const dir = await makeFolder({
      'gateway.toml': gatewayToml({
        alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
        off: { command: stdioBackendCommand({ name: 'off' }), enabled: false },
      }),
    });
    const result = await runCli(['status'], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^server\s+state\s+transport\s+protocol\s+tools\s+prompts\s+resources\s+templates\s+restarts\s+last error$/);
    // Rows count resources and templates apart, as the total does.
    expect(lines[1]).toMatch(/^alpha\s+ready\s+stdio\s+legacy 2025-11-25\s+17\s+2\s+1\s+1\s+0$/);
    expect(lines[2]).toMatch(/^off\s+disabled\s+stdio\s+-\s+0/);
    expect(lines.at(-1)).toBe('total: 17 tools, 2 prompts, 1 resources, 1 templates');
  });

  it('exits 1 and names the error when a server fails to start', async () => {
    const dir = await makeFolder({
      'gateway.toml': gatewayToml({
        alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
        broken: { command: { command: process.execPath, args: ['-e', 'process.stderr.write("no such backend\\n"); process.exit(4)'] } },
      }),
    });
    const result = await runCli(['status', '--config', `${dir}/gateway.toml`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^alpha\s+ready/m);
    expect(result.stdout).toMatch(/^broken\s+restarting\s+stdio\s+-.*could not connect.*no such backend/m);
    const json = await runCli(['status', '--json', '--config', `${dir}/gateway.toml`]);
    expect(json.code).toBe(1);
    expect(
      (JSON.parse(json.stdout) as { backends: { id: string; state: string }[] }).backends.map((backend) => [backend.id, backend.state]),
    ).toEqual([
      ['alpha', 'ready'],
      ['broken', 'restarting'],
    ]);
  });

  it('--help explains the options on stdout and exits 0; a bad flag exits 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: promptyard-gateway \[options\]/);
    for (const option of ['--config', '--transport', '--port', '--lazy', '--no-watch', 'status']) expect(help.stdout).toContain(option);
    expect(help.stderr).toBe('');
    const bad = await runCli(['--transport', 'carrier-pigeon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--transport must be "stdio" or "http"/);
  });
});

describe('promptyard-gateway schema', () => {
  it('prints the JSON Schema of gateway.toml the package ships, without reading a config', async () => {
    const shipped = await readFile(new URL('../schema/gateway.schema.json', import.meta.url), 'utf8');
    const result = await runCli(['schema'], { env: { PROMPTYARD_GATEWAY_CONFIG: '/nonexistent/gateway.toml' } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(shipped);
    expect(JSON.parse(result.stdout)).toMatchObject({ title: 'gateway.toml', properties: { servers: { type: 'object' } } });
  });
});
