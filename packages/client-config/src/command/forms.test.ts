import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runClientCommand } from './run.js';

let home: string;
let output: string[];

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'promptyard-client-forms-'));
  await writeFile(join(home, 'cli.js'), '');
  output = [];
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

interface Extra {
  configFallback?: string;
  configVariable?: string;
  promptsOption?: boolean;
  script?: string;
  env?: Record<string, string>;
}

const run = (argv: readonly string[], extra: Extra = {}): Promise<number> =>
  runClientCommand(argv, {
    program: 'promptyard-gateway',
    packageName: '@promptyard/gateway',
    defaultName: 'promptyard-gateway',
    stdout: (text) => output.push(text),
    script: join(home, 'cli.js'),
    execPath: '/opt/node',
    env: { HOME: home, USERPROFILE: home },
    cwd: home,
    ...extra,
  });

const json = async (path: string): Promise<Record<string, Record<string, unknown>>> =>
  parseJsonc(await readFile(join(home, path), 'utf8')) as Record<string, Record<string, unknown>>;

const url = 'https://mcp.example.test/mcp';
const http = ['--url', url, '--header', 'X-Team: blue', '--token-env', 'PY_TOKEN', '--platform', 'linux'];

describe('the HTTP form of each client', () => {
  it.each([
    [
      'claude-code',
      '.claude.json',
      'mcpServers',
      { type: 'http', url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${PY_TOKEN}' } },
    ],
    ['cursor', '.cursor/mcp.json', 'mcpServers', { url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${env:PY_TOKEN}' } }],
    [
      'vscode',
      '.config/Code/User/mcp.json',
      'servers',
      { type: 'http', url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${env:PY_TOKEN}' } },
    ],
    [
      'windsurf',
      '.codeium/windsurf/mcp_config.json',
      'mcpServers',
      { serverUrl: url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${env:PY_TOKEN}' } },
    ],
    [
      'gemini-cli',
      '.gemini/settings.json',
      'mcpServers',
      { httpUrl: url, headers: { 'X-Team': 'blue', Authorization: 'Bearer ${PY_TOKEN}' } },
    ],
  ])('%s: url and headers, the token as the client reads it from the environment', async (client, file, key, expected) => {
    expect(await run(['install', client, ...http])).toBe(0);
    expect((await json(file))[key]?.['promptyard-gateway']).toEqual(expected);
  });

  it('claude-desktop (no HTTP form in its file) and zed with a token from the environment: the mcp-remote bridge', async () => {
    for (const [client, file, key] of [
      ['claude-desktop', '.config/Claude/claude_desktop_config.json', 'mcpServers'],
      ['zed', '.config/zed/settings.json', 'context_servers'],
    ] as const) {
      expect(await run(['install', client, ...http])).toBe(0);
      expect((await json(file))[key]?.['promptyard-gateway']).toEqual({
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'X-Team:${MCP_REMOTE_HEADER_X_TEAM}', '--header', 'Authorization:${PY_TOKEN}'],
        env: { MCP_REMOTE_HEADER_X_TEAM: 'blue' },
      });
    }
  });

  it('zed with plain headers: its own url form', async () => {
    expect(await run(['install', 'zed', '--url', url, '--header', 'Authorization: Bearer abc'])).toBe(0);
    expect((await json('.config/zed/settings.json'))['context_servers']?.['promptyard-gateway']).toEqual({
      url,
      headers: { Authorization: 'Bearer abc' },
    });
  });

  it('codex: url, http_headers and bearer_token_env_var (no token in the file)', async () => {
    expect(await run(['install', 'codex', ...http])).toBe(0);
    const text = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
    expect(text).toContain('[mcp_servers.promptyard-gateway]');
    expect((parseToml(text) as { mcp_servers: Record<string, unknown> }).mcp_servers['promptyard-gateway']).toEqual({
      url,
      bearer_token_env_var: 'PY_TOKEN',
      http_headers: { 'X-Team': 'blue' },
    });
  });

  it('continue: streamable-http with the token as a Continue secret', async () => {
    expect(await run(['install', 'continue', ...http])).toBe(0);
    const config = parseYaml(await readFile(join(home, '.continue', 'config.yaml'), 'utf8')) as Record<string, unknown>;
    expect(config['schema']).toBe('v1');
    expect(config['mcpServers']).toEqual([
      {
        name: 'promptyard-gateway',
        type: 'streamable-http',
        url,
        requestOptions: { headers: { 'X-Team': 'blue', Authorization: 'Bearer ${{ secrets.PY_TOKEN }}' } },
      },
    ]);
  });
});

describe('what the stdio entry starts', () => {
  it('--npx on Windows goes through cmd /c, as the clients need for npx', async () => {
    expect(await run(['install', 'cursor', '--npx', '--platform', 'win32'])).toBe(0);
    expect((await json('.cursor/mcp.json'))['mcpServers']?.['promptyard-gateway']).toEqual({
      command: 'cmd',
      args: ['/c', 'npx', '-y', '@promptyard/gateway', '--transport', 'stdio'],
    });
  });

  it("names the binary's default config file by absolute path when the current folder has one", async () => {
    await writeFile(join(home, 'gateway.toml'), '');
    expect(await run(['install', 'gemini-cli'], { configFallback: 'gateway.toml' })).toBe(0);
    expect((await json('.gemini/settings.json'))['mcpServers']?.['promptyard-gateway']).toEqual({
      command: '/opt/node',
      args: [join(home, 'cli.js'), '--transport', 'stdio', '--config', join(home, 'gateway.toml')],
    });
  });

  it('--workspace writes the project file in the current folder', async () => {
    expect(await run(['install', 'vscode', '--workspace'])).toBe(0);
    expect((await json('.vscode/mcp.json'))['servers']?.['promptyard-gateway']).toMatchObject({ type: 'stdio', command: '/opt/node' });
  });

  it('writes through a symbolic link to its target, which stays a link', async () => {
    const target = join(home, 'dotfiles', 'mcp.json');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, '{}\n');
    await mkdir(join(home, '.cursor'));
    await symlink(target, join(home, '.cursor', 'mcp.json'));
    expect(await run(['install', 'cursor'])).toBe(0);
    expect(JSON.parse(await readFile(target, 'utf8'))).toHaveProperty(['mcpServers', 'promptyard-gateway']);
  });
});

describe('options of the stdio entry', () => {
  const entryOf = async (): Promise<unknown> => (await json('.cursor/mcp.json'))['mcpServers']?.['promptyard-gateway'];

  it('--prompts (repeatable, before the client too) is written as absolute --prompts arguments', async () => {
    expect(await run(['install', '--prompts', 'p', 'cursor', '-p', '/abs/q'], { promptsOption: true })).toBe(0);
    expect(await entryOf()).toEqual({
      command: '/opt/node',
      args: [join(home, 'cli.js'), '--transport', 'stdio', '--prompts', join(home, 'p'), '--prompts', '/abs/q'],
    });
  });

  it('--prompts is refused by a binary without it', async () => {
    await expect(run(['install', 'cursor', '--prompts', 'p'])).rejects.toThrow(/takes no --prompts/);
  });

  it('--env values keep their spaces; only the first = splits', async () => {
    expect(await run(['install', 'cursor', '--env', 'A= x=y '])).toBe(0);
    expect(await entryOf()).toMatchObject({ env: { A: ' x=y ' } });
  });

  it("the binary's config variable names the config file, before the current folder's default", async () => {
    await writeFile(join(home, 'gateway.toml'), '');
    const extra = {
      configFallback: 'gateway.toml',
      configVariable: 'PY_CONFIG',
      env: { HOME: home, USERPROFILE: home, PY_CONFIG: 'conf/g.toml' },
    };
    expect(await run(['install', 'cursor'], extra)).toBe(0);
    expect(await entryOf()).toMatchObject({ args: [join(home, 'cli.js'), '--transport', 'stdio', '--config', join(home, 'conf/g.toml')] });
  });

  it("a cli.js in npx's cache writes the --npx form and says so", async () => {
    const script = join(home, '_npx', 'abc', 'cli.js');
    await mkdir(dirname(script), { recursive: true });
    await writeFile(script, '');
    expect(await run(['install', 'cursor'], { script })).toBe(0);
    expect(await entryOf()).toEqual({ command: 'npx', args: ['-y', '@promptyard/gateway', '--transport', 'stdio'] });
    expect(output.join('')).toMatch(/npx's cache.*npx -y @promptyard\/gateway/);
  });

  it('a new file holding --env values is created with mode 0600; an existing file keeps its mode', async () => {
    expect(await run(['install', 'cursor', '--env', 'TOKEN=s'])).toBe(0);
    expect((await stat(join(home, '.cursor/mcp.json'))).mode & 0o777).toBe(0o600);
    await mkdir(join(home, '.gemini'));
    await writeFile(join(home, '.gemini/settings.json'), '{}\n', { mode: 0o644 });
    expect(await run(['install', 'gemini-cli', '--env', 'TOKEN=s'])).toBe(0);
    expect((await stat(join(home, '.gemini/settings.json'))).mode & 0o777).toBe(0o644);
  });

  it('an unknown client with nothing close: a sentence, then the list', async () => {
    await expect(run(['install', 'qqqqqqq'])).rejects.toThrow(/Unknown client "qqqqqqq"\. The clients are: "claude-desktop"/);
  });

  it('--token-env through mcp-remote: no space in the argument, and the note on what the variable holds', async () => {
    expect(await run(['install', 'claude-desktop', ...http])).toBe(0);
    expect(output.join('')).toMatch(/set PY_TOKEN to "Bearer <token>"/);
  });
});

describe('line ends', () => {
  it.each([
    [
      'vscode',
      '.config/Code/User/mcp.json',
      '{\r\n  // mine\r\n  "servers": {\r\n    "other": { "type": "stdio", "command": "x" }\r\n  }\r\n}\r\n',
    ],
    ['codex', '.codex/config.toml', '# mine\r\n[mcp_servers.other]\r\ncommand = "x"\r\n'],
  ])('%s: a file with \\r\\n keeps them, and uninstall restores it', async (client, file, text) => {
    await mkdir(dirname(join(home, file)), { recursive: true });
    await writeFile(join(home, file), text);
    expect(await run(['install', client, '--platform', 'linux'])).toBe(0);
    const installed = await readFile(join(home, file), 'utf8');
    expect(installed).toContain('promptyard-gateway');
    expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
    expect(await run(['uninstall', client, '--platform', 'linux'])).toBe(0);
    expect(await readFile(join(home, file), 'utf8')).toBe(text);
  });
});

describe('mistakes', () => {
  it('an unknown client: the clients listed, the closest first', async () => {
    await expect(run(['install', 'vs-code'])).rejects.toThrow(
      /Unknown client "vs-code": did you mean "vscode"\? The clients are: "claude-desktop", .*"gemini-cli"/,
    );
    await expect(run(['install'])).rejects.toThrow(/Name the client to configure\. The clients are/);
  });

  it.each([
    [['install', 'cursor', '--url', 'https://x.test/mcp', '--npx'], /--npx sets how the client starts the server/],
    [['install', 'cursor', '--header', 'A: b'], /--header and --token-env go with --url/],
    [['install', 'cursor', '--env', 'NOVALUE'], /--env must be KEY=VALUE/],
    [
      ['install', 'cursor', '--url', 'https://x.test', '--token-env', 'not a name'],
      /--token-env takes the name of an environment variable/,
    ],
    [['install', 'windsurf', '--workspace'], /Windsurf has no project config file/],
    [['install', 'cursor', '--platform', 'beos'], /--platform must be "linux", "darwin" or "win32"/],
    [['uninstall', 'cursor', '--url', 'https://x.test'], /--url is for install/],
  ])('%j is refused', async (argv, message) => {
    await expect(run(argv)).rejects.toThrow(message);
  });

  it.each([
    ['cursor', '.cursor/mcp.json', '{ "mcpServers": ["not", "a", "map"] }\n', /"mcpServers" is not an object/],
    ['zed', '.config/zed/settings.json', '// zed\n{ "context_servers": 3 }\n', /"context_servers" is not an object/],
    ['codex', '.codex/config.toml', 'mcp_servers = ["x"]\n', /"mcp_servers" is not a table/],
    ['continue', '.continue/config.yaml', 'name: x\nmcpServers:\n  other: {}\n', /"mcpServers" is not a list/],
  ])('%s: a servers key holding something else is not overwritten', async (client, file, text, message) => {
    await mkdir(dirname(join(home, file)), { recursive: true });
    await writeFile(join(home, file), text);
    await expect(run(['install', client, '--platform', 'linux'])).rejects.toThrow(message);
    // Nothing of ours to remove there: refused or "nothing to remove", and the file as it was.
    await run(['uninstall', client, '--platform', 'linux']).catch((error: unknown) => expect(String(error)).toMatch(message));
    expect(await readFile(join(home, file), 'utf8')).toBe(text);
  });

  it("continue: a config.json of Continue's older format is not hidden behind a new config.yaml", async () => {
    await mkdir(join(home, '.continue'));
    await writeFile(join(home, '.continue', 'config.json'), '{ "models": [] }');
    await expect(run(['install', 'continue'])).rejects.toThrow(/config\.json is Continue's older format/);
    await expect(readFile(join(home, '.continue', 'config.yaml'), 'utf8')).rejects.toThrow();
  });

  it('uninstall of an entry that is not there changes nothing', async () => {
    await mkdir(join(home, '.cursor'));
    await writeFile(join(home, '.cursor', 'mcp.json'), '{ "mcpServers": {} }\n');
    expect(await run(['uninstall', 'cursor'])).toBe(0);
    expect(output.join('')).toContain('nothing to remove');
    expect(await readFile(join(home, '.cursor', 'mcp.json'), 'utf8')).toBe('{ "mcpServers": {} }\n');
  });
});
