import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptyardError } from '@promptyard/core';
import type { BackendConfig } from '@promptyard/router';
import { loadGatewayConfig, parseGatewayConfig } from './gateway-config.js';
import { gatewayConfigSchema } from './schema.js';

const env = { HOME: '/home/me', GITHUB_TOKEN: 'ghp_secret', EMPTY: '' };
const parse = (text: string, file = '/etc/gw/gateway.toml', extra: Record<string, string> = {}) =>
  parseGatewayConfig(text, { file, env: { ...env, ...extra } });

/** The message of the CONFIG_INVALID error `run` throws. */
const problems = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PromptyardError);
    expect((error as PromptyardError).code).toBe('CONFIG_INVALID');
    return (error as Error).message;
  }
  throw new Error('expected a CONFIG_INVALID error');
};

describe('parseGatewayConfig: gateway.toml', () => {
  it('applies the defaults to an empty file', () => {
    const config = parse('');
    expect(config).toEqual({
      name: 'promptyard-gateway',
      separator: '_',
      lazy: false,
      metaTools: true,
      logLevel: 'info',
      logFormat: 'text',
      startupWaitMs: 5000,
      timeouts: { connectMs: 30_000, requestMs: 60_000, toolMs: 300_000 },
      restart: { initialMs: 500, maxMs: 30_000, maxRestarts: 0 },
      limits: { maxMessageBytes: 10_485_760, maxDefinitions: 10_000 },
      // The gateway's own default port: promptyard-server's is 3000.
      transport: { type: 'stdio', host: '127.0.0.1', port: 3100, path: '/mcp', maxBodyBytes: 1_048_576 },
      policy: [],
      telemetry: { metrics: true },
      servers: [],
      profiles: [],
      file: '/etc/gw/gateway.toml',
      format: 'toml',
    });
  });

  it('reads every section and server key, in file order', () => {
    const config = parse(`
[gateway]
name = "my-gw"
separator = "__"
lazy = true
meta_tools = false
log_level = "debug"
startup_wait_ms = 0
pins_file = "state/pins.json"

[audit]
file = "/var/log/promptyard/audit.jsonl"

[timeouts]
connect_ms = 1000
request_ms = 2000
tool_ms = 3000

[restart]
initial_ms = 100
max_ms = 1000
max_restarts = 5

[transport]
type = "http"
port = 8080
allowed_hosts = ["gw.local"]
auth_token = "t"

[servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_PERSONAL_ACCESS_TOKEN = "\${GITHUB_TOKEN}" }
cwd = "work"
prefix = "gh"
timeout = 5000
tool_timeout = 60000
pinning = "enforce"

[servers.github.tools]
allow = ["create_*", "list_*"]
deny = ["list_secrets"]

[servers.remote]
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer \${GITHUB_TOKEN}" }
prefix = false

[servers.legacy]
url = "http://localhost:9000/sse"
transport = "sse"
enabled = false
`);
    expect(config).toMatchObject({
      name: 'my-gw',
      separator: '__',
      lazy: true,
      metaTools: false,
      logLevel: 'debug',
      startupWaitMs: 0,
      timeouts: { connectMs: 1000, requestMs: 2000, toolMs: 3000 },
      restart: { initialMs: 100, maxMs: 1000, maxRestarts: 5 },
      transport: { type: 'http', port: 8080, allowedHosts: ['gw.local'], authToken: 't' },
      pinsFile: resolve('/etc/gw/state/pins.json'),
      audit: { file: '/var/log/promptyard/audit.jsonl' },
    });
    expect(config.servers.map((server) => server.id)).toEqual(['github', 'remote', 'legacy']);
    expect(config.servers[0]).toEqual({
      id: 'github',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret' },
      inheritEnv: true,
      protocol: 'auto',
      cwd: resolve('/etc/gw/work'),
      headers: {},
      enabled: true,
      prefix: 'gh',
      timeoutMs: 5000,
      toolTimeoutMs: 60_000,
      tools: { allow: ['create_*', 'list_*'], deny: ['list_secrets'] },
      prompts: { allow: [], deny: [] },
      resources: { allow: [], deny: [] },
      overrides: { tools: {}, prompts: {} },
      pinning: 'enforce',
    });
    expect(config.servers[1]).toMatchObject({
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ghp_secret' },
      prefix: false,
    });
    expect(config.servers[2]).toMatchObject({ transport: 'sse', enabled: false, prefix: 'legacy', pinning: 'warn' });
  });

  it('accepts prefix = true, http as streamable-http and stdio with a command', () => {
    const config = parse(`
[servers.a]
url = "http://127.0.0.1:1/mcp"
transport = "http"
prefix = true
[servers.b]
command = "b-server"
transport = "stdio"
`);
    expect(config.servers.map((server) => [server.id, server.transport, server.prefix])).toEqual([
      ['a', 'streamable-http', 'a'],
      ['b', 'stdio', 'b'],
    ]);
  });

  it('reads inherit_env and protocol, and says what to write when they are wrong', () => {
    const config = parse(`
[servers.a]
command = "a"
inherit_env = false
protocol = "2026-07-28"
[servers.b]
url = "http://127.0.0.1:1/mcp"
protocol = "2025-11-25"
`);
    expect(config.servers.map((server) => [server.id, server.inheritEnv, server.protocol])).toEqual([
      ['a', false, '2026-07-28'],
      ['b', true, '2025-11-25'],
    ]);
    const message = problems(() =>
      parse(`
[servers.a]
command = "a"
inherit_env = "no"
protocol = "2026"
[servers.b]
url = "http://127.0.0.1:1/sse"
transport = "sse"
protocol = "2026-07-28"
`),
    );
    expect(message).toMatch(/gateway\.toml:4: server "a": inherit_env must be true \(.*\) or false \(.*\), got "no"/);
    expect(message).toMatch(
      /gateway\.toml:5: server "a": protocol must be "auto", "2025-11-25" or "2026-07-28" \("auto" when absent\), got "2026"/,
    );
    expect(message).toMatch(/gateway\.toml:9: server "b": protocol "2026-07-28" needs a streamable-http url or a command/);
    const json = parse(
      JSON.stringify({ mcpServers: { a: { command: 'a', inherit_env: false, protocol: '2025-11-25' } } }),
      '/home/me/claude_desktop_config.json',
    );
    expect(json.servers[0]).toMatchObject({ inheritEnv: false, protocol: '2025-11-25' });
  });

  it('resolves cwd against the current folder without a file', () => {
    const config = parseGatewayConfig('[servers.a]\ncommand = "x"\ncwd = "sub"\n', { cwd: '/srv/project', env: {} });
    expect(config.servers[0]?.cwd).toBe(resolve('/srv/project/sub'));
    expect(config.file).toBeUndefined();
  });

  it('reports unknown sections and keys with a suggestion and the line', () => {
    const message = problems(() =>
      parse(`[gatway]
name = "x"

[server.github]
command = "x"

[timeouts]
tool_msec = 5

[servers.ok]
command = "x"
comand = "y"
type = "stdio"
`),
    );
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toContain('/etc/gw/gateway.toml:1: unknown section [gatway] (did you mean [gateway]?)');
    expect(message).toContain('/etc/gw/gateway.toml:4: unknown section [server] (did you mean [servers]?)');
    expect(message).toContain('/etc/gw/gateway.toml:8: unknown key "tool_msec" in [timeouts] (did you mean "tool_ms"?)');
    expect(message).toContain('/etc/gw/gateway.toml:12: server "ok": unknown key "comand" (did you mean "command"?)');
    expect(message).toContain('/etc/gw/gateway.toml:13: server "ok": unknown key "type" (did you mean "transport"?)');
  });

  it('collects every server problem into one error naming file, line, server and the fix', () => {
    const message = problems(() =>
      parse(`[servers.none]
enabled = true

[servers.both]
command = "x"
url = "https://x.test"

[servers.sse]
command = "x"
transport = "sse"

[servers.ftp]
url = "ftp://x.test"

[servers.bad-transport]
url = "https://x.test"
transport = "websocket"

[servers.stdio-url]
url = "https://x.test"
transport = "stdio"

[servers.slow]
command = "x"
timeout = 0
tool_timeout = 1.5

[servers.types]
command = "x"
args = ["a", 1]
env = { PORT = 8080 }
prefix = "has space"

[servers.filters]
command = "x"
[servers.filters.tools]
allow = "create_*"
block = ["x"]
`),
    );
    const lines = message.split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(12);
    expect(message).toContain(
      'gateway.toml:1: server "none": has neither command nor url: set command (and args) to launch a local server, or url to connect to a remote one',
    );
    expect(message).toContain('gateway.toml:6: server "both": has both command and url');
    expect(message).toContain('gateway.toml:10: server "sse": transport "sse" needs a url, but the server has a command');
    expect(message).toContain('gateway.toml:13: server "ftp": url must be an http:// or https:// URL, got "ftp://x.test"');
    expect(message).toContain('gateway.toml:17: server "bad-transport": transport must be "stdio", "streamable-http" or "sse"');
    expect(message).toContain('gateway.toml:21: server "stdio-url": transport "stdio" needs a command');
    expect(message).toContain('gateway.toml:25: server "slow": timeout must be a whole number of milliseconds');
    expect(message).toContain('gateway.toml:26: server "slow": tool_timeout must be a whole number of milliseconds');
    expect(message).toContain('gateway.toml:30: server "types": args must be a list of strings');
    expect(message).toContain('server "types": env.PORT must be a string (quote it), got 8080');
    expect(message).toContain('gateway.toml:32: server "types": prefix "has space" must be letters, digits');
    expect(message).toContain('server "filters": tools.allow must be a list of non-empty name globs');
    expect(message).toContain('server "filters": unknown key "block" in tools');
  });

  it('refuses ids that cannot be prefixes, suggesting one', () => {
    expect(problems(() => parse('[servers."my server"]\ncommand = "x"\n'))).toContain(
      'gateway.toml:1: server id "my server" cannot be used as a name prefix: rename it to "my-server"',
    );
    expect(problems(() => parse('[servers._x]\ncommand = "x"\n'))).toContain('rename it to "x"');
  });

  it('refuses two enabled servers with one prefix or one URI scheme', () => {
    expect(problems(() => parse('[servers.a]\ncommand = "x"\nprefix = "p"\n[servers.b]\ncommand = "y"\nprefix = "p"\n'))).toContain(
      'gateway.toml:6: servers "a" and "b" both use the prefix "p"',
    );
    expect(problems(() => parse('[servers.My_Db]\ncommand = "x"\n[servers.my-db]\ncommand = "y"\n'))).toContain(
      'resource URI scheme "my-db"',
    );
    expect(
      parse('[servers.a]\ncommand = "x"\nprefix = "p"\n[servers.b]\ncommand = "y"\nprefix = "p"\nenabled = false\n').servers,
    ).toHaveLength(2);
    expect(parse('[servers.a]\ncommand = "x"\nprefix = false\n[servers.b]\ncommand = "y"\nprefix = false\n').servers).toHaveLength(2);
  });

  it('checks the gateway sections', () => {
    const message = problems(() =>
      parse(
        '[gateway]\nseparator = "/"\nlog_level = "loud"\n[restart]\ninitial_ms = 5000\nmax_ms = 100\n[transport]\npath = "mcp"\n[timeouts]\ntool_ms = 0\n',
      ),
    );
    expect(message).toContain('gateway.toml:3: [gateway] log_level must be one of "debug", "info", "notice", "warning" or "error"');
    expect(message).toContain('gateway.toml:10: [timeouts] tool_ms must be an integer from 1 to');
    const second = problems(() =>
      parse('[gateway]\nseparator = "/"\n[restart]\ninitial_ms = 5000\nmax_ms = 100\n[transport]\npath = "mcp"\n'),
    );
    expect(second).toContain('gateway.toml:2: [gateway] separator "/" must be letters, digits');
    expect(second).toContain('gateway.toml:4: [restart] initial_ms (5000) must not exceed max_ms (100)');
    expect(second).toContain('gateway.toml:7: [transport] path must start with "/"');
  });

  it('reads [limits] max_message_bytes from the file or the environment, a positive byte count', () => {
    expect(parse('[limits]\nmax_message_bytes = 1048576\n').limits).toEqual({ maxMessageBytes: 1_048_576, maxDefinitions: 10_000 });
    expect(parse('', undefined, { PROMPTYARD_LIMITS_MAX_MESSAGE_BYTES: '2048' }).limits).toEqual({
      maxMessageBytes: 2048,
      maxDefinitions: 10_000,
    });
    expect(problems(() => parse('[limits]\nmax_message_bytes = 0\n'))).toContain(
      'gateway.toml:2: [limits] max_message_bytes must be an integer of at least 1024, got 0',
    );
    expect(problems(() => parse('[limits]\nmax_message_bytes = "10MB"\n'))).toContain('[limits] max_message_bytes must be an integer');
  });

  it("reads [limits] max_definitions and a server's own max_definitions, whole numbers from 1 to a million", () => {
    const config = parse('[limits]\nmax_definitions = 500\n\n[servers.big]\ncommand = "x"\nmax_definitions = 100000\n');
    expect(config.limits.maxDefinitions).toBe(500);
    expect(config.servers[0]?.maxDefinitions).toBe(100_000);
    expect(parse('', undefined, { PROMPTYARD_LIMITS_MAX_DEFINITIONS: '20000' }).limits.maxDefinitions).toBe(20_000);
    expect(problems(() => parse('[limits]\nmax_definitions = 0\n'))).toContain(
      'gateway.toml:2: [limits] max_definitions must be an integer from 1 to 1000000, got 0',
    );
    expect(problems(() => parse('[servers.big]\ncommand = "x"\nmax_definitions = "lots"\n'))).toContain(
      'gateway.toml:3: server "big": max_definitions must be a whole number of definitions per list from 1 to 1000000, got "lots"',
    );
    expect(problems(() => parse('[servers.big]\ncommand = "x"\nmax_definitions = 2000000\n'))).toContain(
      'server "big": max_definitions must be a whole number of definitions per list from 1 to 1000000, got 2000000',
    );
  });

  it('reports TOML syntax errors with line and column', () => {
    expect(problems(() => parse('[servers.a\ncommand = "x"\n'))).toMatch(/gateway\.toml:1:\d+: /);
  });

  it('applies PROMPTYARD_* environment overrides and their short aliases', () => {
    const config = parse('[transport]\nport = 1\n', '/g.toml', {
      PROMPTYARD_GATEWAY_LAZY: 'true',
      PROMPTYARD_TRANSPORT_PORT: '4000',
      PROMPTYARD_AUTH_TOKEN: 'from-env',
      PROMPTYARD_LOG_LEVEL: 'warning',
    });
    expect(config.lazy).toBe(true);
    expect(config.transport.port).toBe(4000);
    expect(config.transport.authToken).toBe('from-env');
    expect(config.logLevel).toBe('warning');
    expect(problems(() => parse('', '/g.toml', { PROMPTYARD_TRANSPORT_PORT: 'eighty' }))).toContain(
      'environment variable PROMPTYARD_TRANSPORT_PORT: must be an integer from 0 to 65535',
    );
  });
});

describe('variable substitution', () => {
  const server = (body: string, extra: Record<string, string> = {}) =>
    parse(`[servers.s]\n${body}\n`, '/etc/gw/gateway.toml', extra).servers[0] as BackendConfig;

  it('substitutes ${VAR}, ${env:VAR} and ${VAR:-default} in command, args, env, cwd, url and headers', () => {
    expect(
      server(
        'command = "${HOME}/bin/x"\nargs = ["${env:GITHUB_TOKEN}", "${MISSING:-fallback}", "${EMPTY:-was-empty}", "${EMPTY}"]\ncwd = "${HOME}/w"\nenv = { T = "${GITHUB_TOKEN}" }',
      ),
    ).toMatchObject({
      command: '/home/me/bin/x',
      args: ['ghp_secret', 'fallback', 'was-empty', ''],
      cwd: resolve('/home/me/w'),
      env: { T: 'ghp_secret' },
    });
    expect(server('url = "https://${HOST:-x.test}/mcp"\nheaders = { A = "Bearer ${GITHUB_TOKEN}" }')).toMatchObject({
      url: 'https://x.test/mcp',
      headers: { A: 'Bearer ghp_secret' },
    });
  });

  it('keeps $${ as a literal ${ and a lone $ untouched', () => {
    expect(server('command = "sh"\nargs = ["-c", "echo $HOME $${HOME} $$"]').args).toEqual(['-c', 'echo $HOME ${HOME} $$']);
  });

  it('names the server, key and variable when a variable is not set', () => {
    const message = problems(() => server('command = "x"\nenv = { TOKEN = "${NOPE}" }\nargs = ["${ALSO_NOPE}"]'));
    expect(message).toContain(
      'gateway.toml:3: server "s": env.TOKEN uses ${NOPE}, but NOPE is not set: set NOPE in the gateway\'s environment, or give a default as ${NOPE:-value}',
    );
    expect(message).toContain('gateway.toml:4: server "s": args[0] uses ${ALSO_NOPE}, but ALSO_NOPE is not set');
    expect(problems(() => server('command = "${not a var}"'))).toContain('command has ${not a var}, which is not a variable');
  });

  it('leaves unset variables of a disabled server alone', () => {
    expect(server('command = "x"\nenabled = false\nenv = { TOKEN = "${NOPE}" }').env).toEqual({ TOKEN: '${NOPE}' });
  });
});

describe('parseGatewayConfig: Claude Desktop / Cursor JSON', () => {
  const file = '/home/me/.cursor/mcp.json';

  it('reads mcpServers, type / transport, url and disabled, and ignores other keys', () => {
    const config = parse(
      JSON.stringify({
        globalShortcut: 'x',
        mcpServers: {
          github: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: '${GITHUB_TOKEN}' }, autoApprove: [] },
          remote: { type: 'http', url: 'https://x.test/mcp', headers: { A: 'b' } },
          old: { transport: 'sse', url: 'https://x.test/sse', disabled: true },
          'Brave Search': { command: 'brave' },
        },
      }),
      file,
    );
    expect(config.format).toBe('claude');
    expect(config.servers.map((server) => [server.id, server.transport, server.enabled])).toEqual([
      ['github', 'stdio', true],
      ['remote', 'streamable-http', true],
      ['old', 'sse', false],
      ['Brave-Search', 'stdio', true],
    ]);
    expect(config.servers[0]?.env).toEqual({ TOKEN: 'ghp_secret' });
    expect(config.servers[3]).toMatchObject({ id: 'Brave-Search', sourceId: 'Brave Search', prefix: 'Brave-Search' });
    expect(config.servers[0]).not.toHaveProperty('sourceId');
  });

  it('detects JSON by content when the extension says nothing', () => {
    expect(parseGatewayConfig('  {"mcpServers": {}}', { file: '/x/config', env: {} }).format).toBe('claude');
  });

  it('reports problems with the JSON key names and lines', () => {
    const text = `{
  "mcpServers": {
    "a": {
      "command": "x",
      "type": "sse"
    },
    "b": { "url": "https://x.test", "disabled": "yes" },
    "c": 5
  }
}`;
    const message = problems(() => parse(text, file));
    expect(message).toContain(`${file}:5: server "a": type "sse" needs a url`);
    expect(message).toContain(`${file}:7: server "b": disabled must be true or false`);
    expect(message).toContain(`${file}:8: server "c" must be an object with "command" or "url"`);
  });

  it('explains a JSON file without servers, and JSON syntax errors', () => {
    expect(problems(() => parse('{"other": 1}', file))).toContain(
      'expected an object with "mcpServers" (Claude Desktop, Cursor, Claude Code) or "servers" (VS Code mcp.json)',
    );
    expect(problems(() => parse('{\n  "mcpServers": {\n    "a": {,}\n  }\n}', file))).toMatch(/mcp\.json:3: /);
    expect(problems(() => parse('{"mcpServers": []}', file))).toContain('"mcpServers" must be an object of server names to settings');
  });

  it('refuses two keys that normalise to one id', () => {
    expect(problems(() => parse(JSON.stringify({ mcpServers: { 'a b': { command: 'x' }, 'a-b': { command: 'y' } } }), file))).toContain(
      'servers "a b" and "a-b" both become the id "a-b": rename one',
    );
  });
});

describe('parseGatewayConfig: VS Code mcp.json', () => {
  it('accepts comments and trailing commas, servers and ${workspaceFolder}', () => {
    const text = `// VS Code MCP servers
{
  "inputs": [],
  "servers": {
    /* local */
    "fs": {
      "type": "stdio",
      "command": "npx", // the runner
      "args": ["server-fs", "\${workspaceFolder}", "http://not-a-comment//x"],
    },
    "api": { "type": "http", "url": "https://x.test/mcp", "headers": { "A": "\${env:GITHUB_TOKEN}" }, },
  },
}`;
    const config = parse(text, '/repo/.vscode/mcp.json');
    expect(config.format).toBe('vscode');
    expect(config.servers[0]).toMatchObject({ id: 'fs', transport: 'stdio', args: ['server-fs', '/repo', 'http://not-a-comment//x'] });
    expect(config.servers[1]).toMatchObject({ id: 'api', transport: 'streamable-http', headers: { A: 'ghp_secret' } });
  });

  it('reads settings.json with mcp.servers', () => {
    const config = parse(
      '{ "editor.fontSize": 14, "mcp": { "servers": { "x": { "command": "x" } } } }',
      '/home/me/.config/Code/User/settings.json',
    );
    expect(config.format).toBe('vscode');
    expect(config.servers.map((server) => server.id)).toEqual(['x']);
  });

  it('refuses ${input:…}, which only VS Code can prompt for', () => {
    const text = '{\n "servers": {\n  "gh": {\n   "command": "x",\n   "env": { "TOKEN": "${input:github-token}" }\n  }\n }\n}';
    expect(problems(() => parse(text, '/repo/.vscode/mcp.json'))).toContain(
      '/repo/.vscode/mcp.json:5: server "gh": env.TOKEN uses ${input:github-token}, which only VS Code can prompt for: replace it with ${env:NAME}',
    );
  });

  it('loads envFile, with env winning', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'gw-config-'));
    await mkdir(join(folder, '.vscode'));
    await writeFile(join(folder, '.env'), '# secrets\nA=from-file\nexport B="quoted value"\nC=c\n');
    const file = join(folder, '.vscode', 'mcp.json');
    await writeFile(file, JSON.stringify({ servers: { s: { command: 'x', envFile: '${workspaceFolder}/.env', env: { C: 'from-env' } } } }));
    const config = await loadGatewayConfig(file, { env: {} });
    expect(config.servers[0]?.env).toEqual({ A: 'from-file', B: 'quoted value', C: 'from-env' });
    await writeFile(file, JSON.stringify({ servers: { s: { command: 'x', envFile: 'missing.env' } } }));
    await expect(loadGatewayConfig(file, { env: {} })).rejects.toThrow(
      /envFile .*missing\.env cannot be read \(ENOENT\): create it, or move the variables into env/,
    );
  });
});

describe('loadGatewayConfig', () => {
  it('reads a file and says what to do when it is missing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'gw-config-'));
    const file = join(folder, 'gateway.toml');
    await writeFile(file, '[servers.a]\ncommand = "x"\ncwd = "."\n');
    const config = await loadGatewayConfig(file, { env: {} });
    expect(config.servers[0]?.cwd).toBe(folder);
    expect(config.file).toBe(file);
    await expect(loadGatewayConfig(join(folder, 'nope.toml'))).rejects.toThrow(/nope\.toml does not exist: create it/);
  });
});

describe('gatewayConfigSchema', () => {
  it('documents every section and server key', () => {
    expect(Object.keys(gatewayConfigSchema)).toEqual([
      'gateway',
      'timeouts',
      'restart',
      'limits',
      'transport',
      'auth',
      'policy[]',
      'telemetry',
      'cluster',
      'console',
      'audit',
      'servers.<id>',
      'servers.<id>.tools',
      'servers.<id>.prompts',
      'servers.<id>.resources',
      'servers.<id>.oauth',
      'servers.<id>.overrides.tools.<tool>',
      'servers.<id>.overrides.prompts.<prompt>',
      'profiles.<name>',
      'profiles.<name>.servers.<id>',
      'profiles.<name>.servers.<id>.overrides',
    ]);
    for (const section of Object.values(gatewayConfigSchema)) {
      for (const spec of Object.values(section)) expect(spec.doc.length).toBeGreaterThan(10);
    }
    expect(gatewayConfigSchema.timeouts.tool_ms.default).toBe(300_000);
    expect(Object.keys(gatewayConfigSchema['servers.<id>'])).toEqual([
      'command',
      'args',
      'env',
      'inherit_env',
      'cwd',
      'url',
      'headers',
      'transport',
      'enabled',
      'prefix',
      'timeout',
      'tool_timeout',
      'max_definitions',
      'protocol',
      'auth',
      'pinning',
    ]);
  });
});

describe('parseGatewayConfig: [auth]', () => {
  it('reads the OAuth resource-server settings, from the file or PROMPTYARD_AUTH_*', () => {
    const config = parse(
      '[transport]\npublic_url = "https://mcp.example.com/mcp"\n[auth]\nissuer = "https://login.example.com/realms/team"\nrequired_scopes = ["mcp"]\n',
    );
    expect(config.transport.publicUrl).toBe('https://mcp.example.com/mcp');
    expect(config.auth).toMatchObject({
      issuer: 'https://login.example.com/realms/team',
      requiredScopes: ['mcp'],
      groupsClaim: 'groups',
      audience: undefined,
    });
    expect(parse('', undefined, { PROMPTYARD_AUTH_ISSUER: 'http://127.0.0.1:8080' }).auth?.issuer).toBe('http://127.0.0.1:8080');
    expect(parse('').auth).toBeUndefined();
  });

  it('reads [telemetry], from the file or PROMPTYARD_TELEMETRY_*', () => {
    expect(parse('[telemetry]\nmetrics = false\nmetrics_bind = "127.0.0.1:9464"\n').telemetry).toEqual({
      metrics: false,
      metricsBind: '127.0.0.1:9464',
    });
    expect(parse('', undefined, { PROMPTYARD_TELEMETRY_METRICS_BIND: '127.0.0.1:0' }).telemetry).toEqual({
      metrics: true,
      metricsBind: '127.0.0.1:0',
    });
    expect(parse('[telemetry]\notlp_endpoint = "http://127.0.0.1:4318"\nservice_name = "edge"\n').telemetry).toEqual({
      metrics: true,
      otlpEndpoint: 'http://127.0.0.1:4318',
      serviceName: 'edge',
    });
    expect(parse('', undefined, { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: 'http://collector:4318' }).telemetry).toEqual({
      metrics: true,
      otlpEndpoint: 'http://collector:4318',
    });
  });

  it('names the file and line of an [auth] mistake', () => {
    const message = problems(() =>
      parse('[servers.a]\ncommand = "x"\n\n[auth]\nissuer = "http://login.example.com"\nalgorithms = ["HS256"]\n'),
    );
    expect(message).toContain('/etc/gw/gateway.toml:4: [auth] issuer must use https (http is allowed only on a loopback host)');
    expect(message).toContain('/etc/gw/gateway.toml:4: [auth] algorithms must not include HS256');
  });
});

describe('parseGatewayConfig: [[policy]]', () => {
  it('reads the rules in file order', () => {
    const config = parse(
      '[[policy]]\nname = "design"\ngroups = ["design"]\nservers = ["figma"]\n\n[[policy]]\neffect = "deny"\ntools = ["*_delete_*"]\n',
    );
    expect(config.policy).toEqual([
      { label: '[[policy]] #1 "design"', effect: 'allow', when: { groups: ['design'] }, covers: { servers: ['figma'] } },
      { label: '[[policy]] #2', effect: 'deny', when: {}, covers: { tools: ['*_delete_*'] } },
    ]);
  });

  it('names the file and line of a [[policy]] mistake', () => {
    const message = problems(() => parse('[servers.a]\ncommand = "x"\n\n[[policy]]\ngroups = ["design"]\n'));
    expect(message).toContain(
      '/etc/gw/gateway.toml:4: [[policy]] #1 names nothing to allow: add servers, profiles, tools, prompts, resources or skills',
    );
  });
});
