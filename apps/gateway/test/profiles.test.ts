/**
 * `[profiles.<name>]`, black-box: the built gateway in front of two test-server backends shows each
 * profile only its servers' chosen tools, prompts and resources — at `/mcp/<name>` over HTTP (SDK v2
 * on both revisions, SDK v1 on 2025-11-25) and with `--profile` over stdio — routes calls to the
 * right backend, and lets its meta tools, lazy mode, `/health` and `status` see the profile's view.
 * Brace and negated globs filter for real; a glob that does not parse stops the start.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttp, health, makeFolder, runCli, startHttpGateway, startStdioGateway, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';
import { names, outcome, profilesToml, toolNames, twoServers } from './surface-config.js';

const metaTools = ['call_tool', 'catalog_prompts', 'catalog_tools', 'describe_prompt', 'describe_tool', 'search_prompts', 'search_tools'];
const codingTools = ['alpha_add', 'alpha_echo', 'alpha_whoami'];
/** Beta's tools but add (the profile's `!add`), content_kinds and progress (the server's deny). */
const supportTools = [
  'beta_add_tool',
  'beta_busy',
  'beta_crash',
  'beta_echo',
  'beta_elicit',
  'beta_hang',
  'beta_log',
  'beta_remove_tool',
  'beta_roots',
  'beta_sample',
  'beta_slow',
  'beta_touch_resource',
  'beta_was_cancelled',
  'beta_whoami',
];
const notFound = /No tool "beta_echo"|[Uu]nknown tool|not found/;

/** The same checks for a client of the `coding` profile, whatever its SDK or revision. */
const checkCoding = async (client: Client): Promise<void> => {
  expect(await toolNames(client)).toEqual([...codingTools, ...metaTools].sort());
  expect(await outcome(client, 'alpha_whoami')).toMatch(/^name=a1 /);
  expect(await outcome(client, 'alpha_echo', { text: 'through coding' })).toBe('through coding');
  expect(await outcome(client, 'beta_echo', { text: 'hi' })).toMatch(notFound);
  expect(await outcome(client, 'alpha_slow', { ms: 1 })).toMatch(/alpha_slow/);
  expect(names((await client.listPrompts()).prompts)).toEqual(['alpha_greet']);
  expect((await client.listResources()).resources).toEqual([]);
  expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  await expect(client.readResource({ uri: 'alpha+test://a1/info' })).rejects.toThrow(/does not belong to any server/);
};

describe('profiles over HTTP (one gateway, /mcp, /mcp/coding and /mcp/support)', () => {
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await startHttpGateway({ config: profilesToml });
  });
  afterAll(async () => {
    expect(await cleanup()).toEqual([]);
  });
  const profile = (name: string): string => `${gateway.url.replace(/\/+$/u, '')}/${name}`;

  it('shows /mcp/coding only its tools, prompts and resources, on both revisions (SDK v2)', async () => {
    await checkCoding(await connectHttp(profile('coding')));
    const modern = new Client({ name: 'profiles-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(profile('coding'))));
    await checkCoding(modern);
    await modern.close();
  });

  it('serves a profile to an SDK v1 client (2025-11-25)', async () => {
    const client = new ClientV1({ name: 'profiles-e2e-v1', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(profile('support'))));
    try {
      expect(names((await client.listTools()).tools)).toEqual([...supportTools, ...metaTools].sort());
      expect(textOf((await client.callTool({ name: 'beta_whoami', arguments: {} })) as { content?: unknown })).toMatch(
        /^name=b1 .*era=legacy$/,
      );
      const refused = await client.callTool({ name: 'beta_add', arguments: { a: 1, b: 2 } }).then(
        (result) => textOf(result as { content?: unknown }),
        (error: unknown) => String(error),
      );
      expect(refused).toMatch(/beta_add/);
      expect(refused).not.toBe('3');
      expect(names((await client.listPrompts()).prompts)).toEqual(['beta_greet', 'beta_pid_prompt']);
      const uris = (await client.listResources()).resources.map((resource) => resource.uri);
      expect(uris).toEqual(['beta+test://b1/info']);
      expect(JSON.stringify(await client.readResource({ uri: 'beta+test://b1/info' }))).toContain('info for b1');
      // Under a template the profile lists: readable though unlisted.
      expect(JSON.stringify(await client.readResource({ uri: 'beta+test://b1/items/2' }))).toContain('b1');
    } finally {
      await client.close();
    }
  });

  it('keeps everything (but what a server denies) on the plain /mcp, where a tool outside a profile is callable', async () => {
    const client = await connectHttp(gateway.url, { era: 'auto' });
    const tools = await toolNames(client);
    expect(tools).toEqual(expect.arrayContaining([...codingTools, 'alpha_slow', 'alpha_content_kinds', ...supportTools, 'beta_add']));
    // `deny = ["{content_kinds,progress}"]` on beta: a brace glob really denies both.
    expect(tools).not.toContain('beta_content_kinds');
    expect(tools).not.toContain('beta_progress');
    expect(await outcome(client, 'beta_add', { a: 1, b: 2 })).toBe('3');
    expect(await outcome(client, 'beta_echo', { text: 'plain' })).toBe('plain');
    expect(names((await client.listPrompts()).prompts)).toEqual(['alpha_greet', 'alpha_pid_prompt', 'beta_greet', 'beta_pid_prompt']);
  });

  it("lets a profile's meta tools see and call only the profile's tools", async () => {
    const client = await connectHttp(profile('coding'));
    const catalog = textOf(await client.callTool({ name: 'catalog_tools', arguments: {} }));
    for (const tool of codingTools) expect(catalog).toContain(tool);
    expect(catalog).not.toContain('beta_');
    expect(catalog).not.toContain('alpha_slow');
    const found = textOf(await client.callTool({ name: 'search_tools', arguments: { query: 'echo' } }));
    expect(found).toContain('alpha_echo');
    expect(found).not.toContain('beta_echo');
    expect(textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'alpha_echo', arguments: { text: 'meta' } } }))).toBe(
      'meta',
    );
    expect(await outcome(client, 'call_tool', { name: 'beta_echo', arguments: { text: 'hi' } })).toMatch(notFound);
    expect(textOf(await client.callTool({ name: 'catalog_prompts', arguments: {} }))).not.toContain('alpha_pid_prompt');
  });

  it('shows each profile on /health', async () => {
    const body = await health(gateway);
    const profiles = body['profiles'] as Record<string, { servers: string[]; counts: Record<string, number> }>;
    expect(profiles['coding']).toMatchObject({ servers: ['alpha'], counts: { tools: 3, prompts: 1, resources: 0 } });
    expect(profiles['support']).toMatchObject({ servers: ['beta'], counts: { tools: supportTools.length, prompts: 2 } });
  });
});

describe('profiles over stdio, status and start-up errors', () => {
  afterEach(async () => {
    expect(await cleanup()).toEqual([]);
  });

  it('serves the --profile over stdio and routes its calls to the right backend', async () => {
    const { client } = await startStdioGateway({ config: profilesToml, args: ['--profile', 'support'] });
    expect(await toolNames(client)).toEqual([...supportTools, ...metaTools].sort());
    expect(await outcome(client, 'beta_whoami')).toMatch(/^name=b1 /);
    expect(await outcome(client, 'beta_add', { a: 1, b: 2 })).toMatch(/beta_add/);
    expect(await outcome(client, 'alpha_echo', { text: 'hi' })).toMatch(/alpha_echo/);
    expect(await outcome(client, 'alpha_echo', { text: 'hi' })).not.toBe('hi');
    expect(names((await client.listPrompts()).prompts)).toEqual(['beta_greet', 'beta_pid_prompt']);
  });

  it('lists only the meta tools in lazy mode, which find and call the profile tools alone', async () => {
    const { client } = await startStdioGateway({ config: profilesToml, args: ['--profile', 'coding', '--lazy'] });
    expect(await toolNames(client)).toEqual(metaTools);
    const catalog = textOf(await client.callTool({ name: 'catalog_tools', arguments: {} }));
    for (const tool of codingTools) expect(catalog).toContain(tool);
    expect(catalog).not.toContain('beta_');
    expect(await outcome(client, 'alpha_add', { a: 2, b: 3 })).toBe('5');
    expect(await outcome(client, 'beta_echo', { text: 'hi' })).toMatch(notFound);
  });

  it('prints only the profile servers in `status --profile`', async () => {
    const dir = await makeFolder({ 'gateway.toml': profilesToml });
    const result = await runCli(['status', '--config', `${dir}/gateway.toml`, '--profile', 'coding']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^alpha\s+ready/m);
    expect(result.stdout).not.toMatch(/^beta\s/m);
  });

  it('refuses an unknown --profile at start with a did-you-mean', async () => {
    const dir = await makeFolder({ 'gateway.toml': profilesToml });
    const result = await runCli(['--config', `${dir}/gateway.toml`, '--profile', 'codng']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Unknown profile "codng".*"coding"/);
  });

  it('stops the start on a glob that does not parse, naming the file and line', async () => {
    const config = twoServers(`[profiles.broken.servers.alpha]\ntools = ["{echo"]\n`);
    const dir = await makeFolder({ 'gateway.toml': config });
    const line = config.split('\n').findIndex((text) => text.startsWith('tools = ["{echo"]')) + 1;
    const result = await runCli(['--config', `${dir}/gateway.toml`]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${dir}/gateway.toml:${line}`);
    expect(result.stderr).toMatch(/\{echo/);
  });
});
