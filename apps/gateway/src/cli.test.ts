import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { BackendStatus, RouterStatus } from '@promptyard/router';
import { parseGatewayCli } from './args.js';
import { parseGatewayConfig } from './config/gateway-config.js';
import { gatewayConfigSchema } from './config/schema.js';
import { applyOverrides, locateConfig } from './config/load-config.js';
import { formatStatus, statusProgress } from './status.js';

describe('parseGatewayCli', () => {
  it('reads the flags and the status and ui commands', () => {
    expect(parseGatewayCli(['--config', 'g.toml', '--transport', 'http', '--port', '0', '--lazy', '--no-watch'], {})).toMatchObject({
      command: 'serve',
      config: 'g.toml',
      overrides: { transport: 'http', port: 0, lazy: true, watch: false },
    });
    expect(parseGatewayCli(['--profile', 'coding'], {}).overrides).toEqual({ profile: 'coding' });
    expect(() => parseGatewayCli(['--profile', ''], {})).toThrow(/--profile needs the name of a \[profiles.<name>\] table/);
    expect(parseGatewayCli(['status', '--json'], { PROMPTYARD_GATEWAY_CONFIG: 'env.toml' })).toMatchObject({
      command: 'status',
      json: true,
      config: 'env.toml',
    });
    expect(parseGatewayCli(['ui', '-c', 'g.toml', '--no-watch'], {})).toMatchObject({
      command: 'ui',
      config: 'g.toml',
      overrides: { watch: false },
    });
  });

  it('reads login and the server to log in to', () => {
    expect(parseGatewayCli(['login', 'linear', '-c', 'g.toml'], {})).toMatchObject({
      command: 'login',
      server: 'linear',
      config: 'g.toml',
    });
    expect(() => parseGatewayCli(['login'], {})).toThrow(/login needs the id of one server: promptyard-gateway login <server>/);
    expect(() => parseGatewayCli(['status', 'extra'], {})).toThrow(/--help/);
  });

  it('finds the command after the options, and answers a mistyped one with the closest', () => {
    expect(parseGatewayCli(['-c', 'g.toml', 'status', '--json'], {})).toMatchObject({ command: 'status', config: 'g.toml', json: true });
    expect(() => parseGatewayCli(['stauts'], {})).toThrow(/^Unknown command "stauts": did you mean "status"\? The commands are "status", /);
    expect(() => parseGatewayCli(['gateway.toml'], {})).toThrow(/a config file is given with --config <file>/);
    // --json belongs to status.
    expect(() => parseGatewayCli(['--json'], {})).toThrow(/Unknown option '--json'/);
  });

  it('reads schema wherever it stands, and help on it', () => {
    expect(parseGatewayCli(['schema'], {})).toMatchObject({ command: 'schema', help: false });
    expect(parseGatewayCli(['--log-level', 'debug', 'schema'], {})).toMatchObject({ command: 'schema' });
    expect(parseGatewayCli(['help', 'schema'], {})).toMatchObject({ help: true, helpCommand: 'schema' });
    expect(() => parseGatewayCli(['schem'], {})).toThrow(/^Unknown command "schem": did you mean "schema"\?/);
  });

  it('hands install and uninstall their arguments, the command first, wherever it stands', () => {
    expect(parseGatewayCli(['--config', 'g.toml', 'uninstall', 'zed'], {}).clientArgs).toEqual(['uninstall', '--config', 'g.toml', 'zed']);
    expect(() => parseGatewayCli(['uninstal', 'zed'], {})).toThrow(/did you mean "uninstall"\?/);
  });

  it('reads help for one command, and --log-format', () => {
    expect(parseGatewayCli(['status', '--help'], {})).toMatchObject({ help: true, helpCommand: 'status' });
    expect(parseGatewayCli(['help', 'pins'], {})).toMatchObject({ help: true, helpCommand: 'pins' });
    expect(parseGatewayCli(['login', '-h'], {})).toMatchObject({ help: true, helpCommand: 'login' });
    expect(parseGatewayCli(['--log-format', 'json'], {}).overrides).toEqual({ logFormat: 'json' });
  });

  it('explains a wrong flag and points at --help', () => {
    expect(() => parseGatewayCli(['--transport', 'tcp'], {})).toThrow(/--transport must be "stdio" or "http".*\n.*--help/);
    expect(() => parseGatewayCli(['--port', '70000'], {})).toThrow(/--port must be an integer from 0 to 65535/);
    expect(() => parseGatewayCli(['--bogus'], {})).toThrow(/--help/);
  });
});

describe('locateConfig', () => {
  it('tells how to give a config when there is none', () => {
    expect(() => locateConfig(undefined, '/nonexistent-folder')).toThrow(/--config <file>.*PROMPTYARD_GATEWAY_CONFIG.*gateway\.toml/s);
    expect(locateConfig('a/b.json', '/work')).toBe('/work/a/b.json');
  });
});

describe('applyOverrides', () => {
  it('lets flags win over the file', () => {
    const base = {
      lazy: false,
      logLevel: 'info',
      transport: { type: 'stdio', host: '127.0.0.1', port: 3100, path: '/mcp', maxBodyBytes: 1 },
    } as never;
    expect(applyOverrides(base, { transport: 'http', port: 0, lazy: true })).toMatchObject({
      lazy: true,
      transport: { type: 'http', port: 0, host: '127.0.0.1' },
    });
  });
});

describe('formatStatus', () => {
  it('prints one row per server, collisions and totals, with resources and templates counted apart in both', () => {
    const status: RouterStatus = {
      backends: [
        {
          id: 'github',
          state: 'ready',
          transport: 'stdio',
          era: 'legacy',
          protocolVersion: '2025-11-25',
          restarts: 0,
          counts: { tools: 3, prompts: 1, resources: 0, resourceTemplates: 1 },
          inFlight: 0,
        },
        {
          id: 'docs',
          state: 'restarting',
          transport: 'streamable-http',
          restarts: 2,
          lastError: 'connection refused',
          counts: { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 },
          inFlight: 0,
        },
      ],
      collisions: [{ kind: 'tool', name: 'search', kept: 'github/search', dropped: 'docs/search' }],
      counts: { tools: 3, prompts: 1, resources: 0, resourceTemplates: 1 },
      lazy: false,
      profile: 'default',
      quarantined: [
        {
          server: 'github',
          kind: 'tool',
          name: 'create_issue',
          change: 'changed',
          fields: ['description'],
          message: 'Tool "create_issue" of server "github" changed since it was approved (description).',
        },
      ],
      profiles: [
        {
          profile: 'coding',
          backends: [],
          collisions: [],
          counts: { tools: 2, prompts: 0, resources: 0, resourceTemplates: 0 },
          quarantined: [],
          lazy: false,
        },
      ],
    };
    const text = formatStatus(status);
    expect(text).toMatch(/^server\s+state\s+transport\s+protocol\s+tools/);
    expect(text).toMatch(/^server\s+state\s+transport\s+protocol\s+tools\s+prompts\s+resources\s+templates\s+restarts\s+last error$/m);
    expect(text).toMatch(/github\s+ready\s+stdio\s+legacy 2025-11-25\s+3\s+1\s+0\s+1\s+0$/m);
    expect(text).toMatch(/docs\s+restarting\s+streamable-http\s+-\s+0\s+0\s+0\s+0\s+2\s+connection refused/);
    expect(text).toContain('collision: tool "search" served by github/search; docs/search hidden');
    expect(text).toContain('total: 3 tools, 1 prompts, 0 resources, 1 templates');
    expect(text).toContain('quarantined: Tool "create_issue" of server "github" changed since it was approved (description).');
    expect(text).toContain('profile coding: no servers; 2 tools, 0 prompts, 0 resources, 0 templates');
  });
});

const docsPage = (page: string) => readFile(new URL(`../../../docs/${page}`, import.meta.url), 'utf8');

describe('statusProgress', () => {
  const backend = (id: string, state: BackendStatus['state'], lastError?: string): BackendStatus => ({
    id,
    state,
    transport: 'stdio',
    restarts: 0,
    ...(lastError === undefined ? {} : { lastError }),
    counts: { tools: 2, prompts: 1, resources: 0, resourceTemplates: 0 },
    inFlight: 0,
  });

  it('piped: the timeout first, then a line per server as it settles, once each', () => {
    let text = '';
    let clock = 1000;
    const progress = statusProgress({
      ids: ['a', 'b', 'c'],
      connectMs: 30_000,
      write: (chunk) => (text += chunk),
      tty: false,
      paint: (tone, word) => `<${tone}>${word}`,
      now: () => clock,
    });
    progress.update(backend('a', 'starting'));
    clock += 1200;
    progress.update(backend('a', 'ready'));
    progress.update(backend('a', 'restarting', 'later'));
    progress.update(backend('c', 'disabled'));
    clock += 30_000;
    progress.update(backend('b', 'restarting', 'could not connect: no answer to the MCP handshake within 30000 ms'));
    progress.stop();
    expect(text).toBe(
      [
        'Starting 3 servers; each has 30 s to answer ([timeouts] connect_ms).',
        '<ok>ok      a: ready after 1.2 s (2 tools, 1 prompts, 0 resources)',
        '<hidden>off     c: disabled in the config (enabled = false)',
        '<failed>failed  b: could not connect: no answer to the MCP handshake within 30000 ms (after 31 s)',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal: a waiting line kept last, rewritten in place, cleared at the end', () => {
    let text = '';
    const progress = statusProgress({
      ids: ['a', 'b'],
      connectMs: 5000,
      write: (chunk) => (text += chunk),
      tty: true,
      paint: (_tone, word) => word,
      now: () => 0,
    });
    expect(text.endsWith('\r\u001b[2Kwaiting for a, b (0.0 s of 5.0 s)')).toBe(true);
    progress.update(backend('a', 'ready'));
    expect(text.endsWith('\r\u001b[2Kok      a: ready after 0.0 s (2 tools, 1 prompts, 0 resources)\nwaiting for b (0.0 s of 5.0 s)')).toBe(
      true,
    );
    progress.update(backend('b', 'needs-login'));
    expect(text.endsWith('\r\u001b[2Klogin   b: needs a login after 0.0 s: run promptyard-gateway login b\n')).toBe(true);
    progress.stop();
    expect(text.endsWith('login b\n')).toBe(true);
  });
});

describe('the configuration reference (docs/reference/configuration.md)', () => {
  it('documents every key of the gateway config', async () => {
    const readme = await docsPage('reference/configuration.md');
    for (const [section, fields] of Object.entries(gatewayConfigSchema)) {
      const label = section.endsWith('[]') ? `[[${section.slice(0, -2)}]]` : `[${section}]`;
      for (const key of Object.keys(fields)) expect(readme, `${label} ${key}`).toContain(`| \`${label} ${key}\``);
    }
  });
});

describe('the profiles example (docs/teams/profiles.md)', () => {
  it('is a valid gateway.toml with two profiles and overrides', async () => {
    const section = await docsPage('teams/profiles.md');
    const example = /```toml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const config = parseGatewayConfig(example, { file: 'gateway.toml', env: {} });
    expect(config.profiles.map((profile) => [profile.name, profile.servers.map((entry) => entry.server)])).toEqual([
      ['coding', ['github', 'jira']],
      ['support', ['zendesk']],
    ]);
    expect(config.servers[0]?.overrides.tools['search_issues']).toMatchObject({ name: 'find_issues', arguments: { owner: 'acme' } });
  });
});

describe('the gateway [[policy]] example (docs/teams/policy.md)', () => {
  it('is a valid gateway.toml', async () => {
    const section = await docsPage('teams/policy.md');
    const example = [...section.matchAll(/```toml\n([\s\S]*?)```/g)][1]?.[1] ?? '';
    const config = parseGatewayConfig(`${example}\n[servers.figma]\nurl = "https://figma.example/mcp"\n`, {
      file: 'gateway.toml',
      env: {},
    });
    expect(config.policy.map((rule) => rule.label)).toEqual([
      '[[policy]] #1 "design"',
      '[[policy]] #2 "platform"',
      '[[policy]] #3 "read-only CI"',
    ]);
  });
});
