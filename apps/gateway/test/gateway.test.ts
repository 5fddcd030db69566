/**
 * promptyard-gateway, black-box: the built binary in front of real backends (test-server.mjs over
 * stdio, Streamable HTTP in both eras and legacy-only, server-everything over stdio and legacy SSE),
 * driven by the SDK client over stdio and HTTP. Gateways are shared within a describe; every
 * describe ends by checking the gateway's shutdown left no process behind.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  cleanup,
  eventually,
  connectHttp,
  everythingCommand,
  everythingSse,
  gatewayToml,
  health,
  httpBackend,
  isAlive,
  listDescendants,
  noLeftovers,
  runCli,
  startHttpGateway,
  startStdioGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { HttpGateway, StdioGateway } from './harness.js';

const whoami = async (client: Client, name: string): Promise<{ name: string; pid: number; era: string }> => {
  const text = textOf(await client.callTool({ name, arguments: {} }));
  const match = /^name=(\S+) pid=(\d+) era=(\S+)$/.exec(text);
  if (match === null) throw new Error(`unexpected whoami answer: ${text}`);
  return { name: match[1] as string, pid: Number(match[2]), era: match[3] as string };
};

const expectClean = async (): Promise<void> => {
  expect(await cleanup()).toEqual([]);
};

/** A raw GET with a chosen Host header (fetch would not let a test forge it). */
const getWithHost = (url: string, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'GET', headers: { host, accept: 'application/json, text/event-stream' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });

const token = 'e2e-secret-token';

describe('aggregation over real backends (HTTP gateway, bearer token)', () => {
  let gateway: HttpGateway;
  let client: Client;

  beforeAll(async () => {
    const [gamma, delta, sse] = await Promise.all([httpBackend('gamma'), httpBackend('delta', 'legacy'), everythingSse()]);
    gateway = await startHttpGateway({
      config: gatewayToml(
        {
          alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
          beta: { command: stdioBackendCommand({ name: 'beta' }) },
          gamma: { url: gamma.url },
          delta: { url: delta.url },
          everything: { command: everythingCommand('stdio') },
          evsse: { url: sse.url, transport: 'sse' },
        },
        {},
        `[transport]\nauth_token = ${JSON.stringify(token)}`,
      ),
    });
    client = await connectHttp(gateway.url, { token });
  });
  afterAll(expectClean);

  it('lists every server’s tools, prompts, resources and templates under its prefix, meta tools first', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools.slice(0, 7)).toEqual([
      'catalog_tools',
      'describe_tool',
      'search_tools',
      'call_tool',
      'catalog_prompts',
      'describe_prompt',
      'search_prompts',
    ]);
    for (const id of ['alpha', 'beta', 'gamma', 'delta'])
      expect(tools).toEqual(expect.arrayContaining([`${id}_echo`, `${id}_add`, `${id}_content_kinds`, `${id}_whoami`]));
    for (const id of ['everything', 'evsse'])
      expect(tools).toEqual(expect.arrayContaining([`${id}_echo`, `${id}_get-sum`, `${id}_get-tiny-image`]));
    expect(tools.filter((name) => !name.includes('_') || /^(catalog|describe|search|call)_/.test(name))).toHaveLength(7);
    expect(new Set(tools).size).toBe(tools.length);

    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toEqual(
      expect.arrayContaining([
        'alpha_greet',
        'beta_pid_prompt',
        'gamma_greet',
        'delta_greet',
        'everything_args-prompt',
        'evsse_completable-prompt',
      ]),
    );

    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(
      expect.arrayContaining(['alpha+test://alpha/info', 'beta+test://beta/info', 'gamma+test://gamma/info', 'delta+test://delta/info']),
    );
    expect(resources.filter((uri) => uri.startsWith('everything+demo://'))).not.toHaveLength(0);
    expect(resources.filter((uri) => uri.startsWith('evsse+demo://'))).not.toHaveLength(0);

    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates).toEqual(
      expect.arrayContaining([
        'alpha+test://alpha/items/{id}',
        'delta+test://delta/items/{id}',
        'everything+demo://resource/dynamic/text/{resourceId}',
        'evsse+demo://resource/dynamic/text/{resourceId}',
      ]),
    );
  });

  it('routes each call to the right instance, in the backend’s own protocol era', async () => {
    const status = await health(gateway, { authorization: `Bearer ${token}` });
    const pidOf = (id: string): number | undefined => status.servers.find((server) => server.id === id)?.pid;
    const alpha = await whoami(client, 'alpha_whoami');
    const beta = await whoami(client, 'beta_whoami');
    expect(alpha).toMatchObject({ name: 'alpha', pid: pidOf('alpha') });
    expect(beta).toMatchObject({ name: 'beta', pid: pidOf('beta') });
    expect(alpha.pid).not.toBe(beta.pid);
    expect(listDescendants(gateway.pid)).toEqual(expect.arrayContaining([alpha.pid, beta.pid]));
    expect(await whoami(client, 'gamma_whoami')).toMatchObject({ name: 'gamma', era: 'modern' });
    expect(await whoami(client, 'delta_whoami')).toMatchObject({ name: 'delta', era: 'legacy' });
    expect(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'via stdio' } }))).toContain('via stdio');
    expect(textOf(await client.callTool({ name: 'evsse_echo', arguments: { message: 'via sse' } }))).toContain('via sse');
  });

  it('shows each backend’s state, transport and protocol era in /health', async () => {
    const status = await health(gateway, { authorization: `Bearer ${token}` });
    const byId = Object.fromEntries(status.servers.map((server) => [server.id, server]));
    expect(byId['alpha']).toMatchObject({ state: 'ready', transport: 'stdio', restarts: 0 });
    expect(byId['gamma']).toMatchObject({ state: 'ready', transport: 'streamable-http', era: 'modern', protocolVersion: '2026-07-28' });
    expect(byId['delta']).toMatchObject({ state: 'ready', transport: 'streamable-http', era: 'legacy', protocolVersion: '2025-11-25' });
    expect(byId['evsse']).toMatchObject({ state: 'ready', transport: 'sse', era: 'legacy' });
    expect(byId['everything']).toMatchObject({
      state: 'ready',
      transport: 'stdio',
      counts: expect.objectContaining({ tools: expect.any(Number) }),
    });
    expect(status.collisions).toEqual([]);
    expect(status.counts['tools']).toBe(status.servers.reduce((sum, server) => sum + (server.counts['tools'] ?? 0), 0));
  });

  it('forwards every content kind and structured content, resource URIs namespaced', async () => {
    for (const id of ['alpha', 'gamma', 'delta']) {
      const result = await client.callTool({ name: `${id}_content_kinds`, arguments: {} });
      const content = result.content as { type: string; [key: string]: unknown }[];
      expect(content.map((block) => block.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link']);
      expect(content[0]).toEqual({ type: 'text', text: 'text block' });
      expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) });
      expect(content[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav', data: expect.stringMatching(/^UklGR/) });
      // URIs inside a result are namespaced like listed ones, so the client can read them back here.
      expect(content[3]).toEqual({
        type: 'resource',
        resource: { uri: `${id}+test://${id}/info`, mimeType: 'text/plain', text: `info for ${id}` },
      });
      expect(content[4]).toEqual({ type: 'resource_link', uri: `${id}+test://${id}/info`, name: 'info', mimeType: 'text/plain' });
      expect((await client.readResource({ uri: `${id}+test://${id}/info` })).contents).toEqual([
        { uri: `${id}+test://${id}/info`, mimeType: 'text/plain', text: expect.stringMatching(`^info for ${id}`) },
      ]);

      const sum = await client.callTool({ name: `${id}_add`, arguments: { a: 2, b: 40 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      expect(textOf(sum)).toBe('42');
    }
    const image = await client.callTool({ name: 'everything_get-tiny-image', arguments: {} });
    expect((image.content as { type: string }[]).map((block) => block.type)).toContain('image');
  });

  it('gets prompts with arguments and completes prompt and resource-template arguments', async () => {
    const greeting = await client.getPrompt({ name: 'beta_greet', arguments: { name: 'Ada', style: 'formal' } });
    expect(JSON.stringify(greeting.messages)).toContain('Ada');
    const args = await client.getPrompt({ name: 'evsse_args-prompt', arguments: { city: 'Lyon' } });
    expect(JSON.stringify(args.messages)).toContain('Lyon');

    const styles = await client.complete({ ref: { type: 'ref/prompt', name: 'alpha_greet' }, argument: { name: 'style', value: 'f' } });
    expect(styles.completion.values).toEqual(['formal']);
    const departments = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything_completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    expect(departments.completion.values).toEqual(['Engineering']);
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'delta+test://delta/items/{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(ids.completion.values).toEqual(['1', '2', '3']);
  });

  it('reads namespaced resources and templated URIs from the right server', async () => {
    const info = await client.readResource({ uri: 'beta+test://beta/info' });
    expect(info.contents).toEqual([
      expect.objectContaining({ uri: 'beta+test://beta/info', text: expect.stringContaining('info for beta') }),
    ]);
    const item = await client.readResource({ uri: 'gamma+test://gamma/items/7' });
    expect(item.contents[0]).toMatchObject({ uri: 'gamma+test://gamma/items/7', text: 'item 7' });
    const dynamic = await client.readResource({ uri: 'everything+demo://resource/dynamic/text/3' });
    expect(dynamic.contents[0]?.uri).toBe('everything+demo://resource/dynamic/text/3');
    const listed = (await client.listResources()).resources.find((resource) => resource.uri.startsWith('evsse+demo://resource/static/'));
    expect(listed).toBeDefined();
    expect((await client.readResource({ uri: listed?.uri ?? '' })).contents).not.toHaveLength(0);
    await expect(client.readResource({ uri: 'nobody+test://x/info' })).rejects.toThrow(/does not belong to any server/);
  });

  it('serves a 2026-07-28 client (auto negotiation) and a 2025-11-25 session side by side', async () => {
    const modern = await connectHttp(gateway.url, { era: 'auto', token });
    expect(modern.getProtocolEra()).toBe('modern');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await whoami(modern, 'alpha_whoami')).toMatchObject({ name: 'alpha' });
    expect((await modern.listTools()).tools.length).toBe((await client.listTools()).tools.length);
    expect((await modern.readResource({ uri: 'alpha+test://alpha/items/2' })).contents[0]).toMatchObject({ text: 'item 2' });
  });

  it('answers 401 without the bearer token, and 403 to a foreign Host', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    const allowed = await post({ authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
    await expect(connectHttp(gateway.url)).rejects.toThrow();
    // Without the token /health says only that the gateway is up: no server names or errors.
    expect(await health(gateway)).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
    expect(await getWithHost(`${gateway.origin}/health`, 'evil.example.com')).toBe(403);
    expect(await getWithHost(gateway.url, 'evil.example.com')).toBe(403);
  });
});

describe('names: passthrough, custom prefix and separator, filters, collisions, long names (HTTP gateway)', () => {
  const longId = 'an-exceedingly-long-server-identifier-for-the-name-limit';
  let gateway: HttpGateway;
  let client: Client;

  beforeAll(async () => {
    gateway = await startHttpGateway({
      config: gatewayToml(
        {
          plain: { command: stdioBackendCommand({ name: 'plain' }), prefix: false },
          plain2: { command: stdioBackendCommand({ name: 'plain2' }), prefix: false, tools: { allow: ['whoami', 'echo', 'add'] } },
          custom: { command: stdioBackendCommand({ name: 'custom' }), prefix: 'cx' },
          filtered: {
            command: stdioBackendCommand({ name: 'filtered' }),
            tools: { allow: ['echo', 'add*', 'who*'], deny: ['add_tool'] },
            prompts: { deny: ['pid_*'] },
          },
          [longId]: { command: stdioBackendCommand({ name: 'long' }), tools: { allow: ['content_kinds', 'whoami'] } },
          off: { command: stdioBackendCommand({ name: 'off' }), enabled: false },
        },
        { separator: '__' },
      ),
    });
    client = await connectHttp(gateway.url);
  });
  afterAll(expectClean);

  it('passes names through with prefix = false and uses a custom prefix and separator', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['echo', 'whoami', 'content_kinds', 'cx__echo', 'cx__whoami']));
    expect(tools.some((name) => name.startsWith('custom'))).toBe(false);
    expect(await whoami(client, 'whoami')).toMatchObject({ name: 'plain' });
    expect(await whoami(client, 'cx__whoami')).toMatchObject({ name: 'custom' });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(['greet', 'cx__greet']));
    // A passthrough server's resources keep their URIs and still route back.
    expect((await client.readResource({ uri: 'test://plain/info' })).contents[0]).toMatchObject({ uri: 'test://plain/info' });
    expect((await client.readResource({ uri: 'cx+test://custom/items/5' })).contents[0]).toMatchObject({ text: 'item 5' });
  });

  it('applies allow and deny globs to tools and prompts', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('filtered__'));
    expect(tools.sort()).toEqual(['filtered__add', 'filtered__echo', 'filtered__whoami']);
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name).filter((name) => name.startsWith('filtered__'));
    expect(prompts).toEqual(['filtered__greet']);
    await expect(client.callTool({ name: 'filtered__crash', arguments: {} })).rejects.toThrow(/not found/);
    expect(await whoami(client, 'filtered__whoami')).toMatchObject({ name: 'filtered' });
  });

  it('keeps the first server’s name on a collision, and says so on stderr, in /health and in status', async () => {
    // plain and plain2 both serve echo, add and whoami unprefixed: plain (first in config) keeps them.
    expect(await whoami(client, 'whoami')).toMatchObject({ name: 'plain' });
    await gateway.stderr.waitFor(/tool name collision: "whoami" is served by plain\/whoami; plain2\/whoami is hidden/);
    expect(gateway.stderr.text).toMatch(/prompt name collision: "greet" is served by plain\/greet; plain2\/greet is hidden/);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools.filter((name) => name === 'whoami')).toHaveLength(1);

    const expected = [
      { kind: 'tool', name: 'whoami', kept: 'plain/whoami', dropped: 'plain2/whoami' },
      { kind: 'tool', name: 'echo', kept: 'plain/echo', dropped: 'plain2/echo' },
      { kind: 'prompt', name: 'greet', kept: 'plain/greet', dropped: 'plain2/greet' },
    ];
    const reported = (await health(gateway)).collisions;
    expect(reported).toEqual(expect.arrayContaining(expected));
    expect(reported).toHaveLength(5); // echo, add, whoami; greet, pid_prompt

    const status = await runCli(['status', '--json', '--config', gateway.configPath]);
    expect(status.code).toBe(0);
    const collisions = (JSON.parse(status.stdout) as { collisions: { kind: string; name: string; kept: string; dropped: string }[] })
      .collisions;
    expect(collisions).toEqual(reported);
    const table = await runCli(['status', '--config', gateway.configPath]);
    expect(table.stdout).toContain('collision: tool "whoami" served by plain/whoami; plain2/whoami hidden');
    expect(collisions).toEqual(
      expect.arrayContaining([
        { kind: 'tool', name: 'whoami', kept: 'plain/whoami', dropped: 'plain2/whoami' },
        { kind: 'tool', name: 'echo', kept: 'plain/echo', dropped: 'plain2/echo' },
        { kind: 'prompt', name: 'greet', kept: 'plain/greet', dropped: 'plain2/greet' },
      ]),
    );
  });

  it('shortens names over 64 characters deterministically, and they stay callable', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const mine = tools.filter((name) => name.startsWith(longId.slice(0, 20)));
    expect(mine).toHaveLength(2);
    for (const name of mine) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^[A-Za-z0-9_.-]+$/);
    }
    // `<cut to 57>-<6 base32 chars of SHA-256(full name)>`: the same on every run and every gateway.
    const full = `${longId}__content_kinds`;
    const bits = createHash('sha256').update(full).digest().readUInt32BE(0);
    const hash = [0, 1, 2, 3, 4, 5].map((index) => 'abcdefghijklmnopqrstuvwxyz234567'[(bits >>> (5 * index)) & 31]).join('');
    const shortened = `${full.slice(0, 57)}-${hash}`;
    expect(mine).toContain(shortened);
    const result = await client.callTool({ name: shortened, arguments: {} });
    expect((result.content as { type: string }[]).map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'resource_link',
    ]);
    const described = textOf(await client.callTool({ name: 'describe_tool', arguments: { name: shortened } }));
    expect(JSON.parse(described)).toMatchObject({ name: shortened, server: longId });
    // `${longId}__whoami` is 64 characters: it fits and is kept whole.
    expect(mine).toContain(`${longId}__whoami`);
    expect(await whoami(client, `${longId}__whoami`)).toMatchObject({ name: 'long' });
  });

  it('answers an unknown tool with a JSON-RPC error that suggests the closest name', async () => {
    const error = await client.callTool({ name: 'cx__ehco', arguments: { text: 'x' } }).then(
      () => undefined,
      (caught: unknown) => caught as { code?: number; message: string },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/Tool "cx__ehco" not found\. Did you mean "cx__echo"/);
  });

  it('refuses a disabled server’s tools and lists none of them', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools.some((name) => name.startsWith('off__'))).toBe(false);
    await expect(client.callTool({ name: 'off__echo', arguments: { text: 'x' } })).rejects.toThrow(
      /not found: Server "off" is disabled in the gateway config/,
    );
    expect((await health(gateway)).servers.find((server) => server.id === 'off')).toMatchObject({ state: 'disabled', restarts: 0 });
  });

  it('leaves no backend behind when the gateway stops', async () => {
    const backends = listDescendants(gateway.pid);
    expect(backends.length).toBeGreaterThanOrEqual(5);
    expect(await noLeftovers(gateway.pid)).toEqual([]);
    expect(isAlive(gateway.pid)).toBe(false);
    for (const pid of backends) expect(isAlive(pid)).toBe(false);
  });
});

describe('meta tools and lazy mode (server-everything + two test-servers, stdio)', () => {
  let full: StdioGateway;
  let lazy: StdioGateway;
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> =>
    textOf(await client.callTool({ name, arguments: args }));

  beforeAll(async () => {
    const config = gatewayToml({
      alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
      beta: { command: stdioBackendCommand({ name: 'beta' }) },
      everything: { command: everythingCommand('stdio') },
    });
    [full, lazy] = await Promise.all([startStdioGateway({ config }), startStdioGateway({ config, args: ['--lazy'] })]);
  });
  afterAll(expectClean);

  it('catalog_tools lists one line per tool grouped by server, filters by server and pages', async () => {
    const catalog = await call(full.client, 'catalog_tools');
    expect(catalog).toMatch(/^51 tools from 3 servers\./);
    const headings = catalog.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(['## alpha', '## beta', '## everything']);
    expect(catalog).toContain('alpha_echo(text) — Returns its text.');
    expect(catalog).toContain('beta_add(a, b)');
    expect(catalog).not.toContain('More:');

    const beta = await call(full.client, 'catalog_tools', { server: 'beta' });
    expect(beta).toMatch(/^17 tools from beta\./);
    expect(beta).not.toContain('alpha_');
    expect(await call(full.client, 'catalog_tools', { server: 'betta' })).toMatch(/Unknown server "betta".*Did you mean "beta"/);

    const rest = await call(full.client, 'catalog_tools', { cursor: '40' });
    expect(rest).toMatch(/^51 tools from 3 servers, from #41\./);
    expect(rest.split('\n').filter((line) => line.startsWith('everything_'))).toHaveLength(11);
  });

  it('describe_tool returns the full schema; search_tools finds by word and by typo', async () => {
    const described = JSON.parse(await call(full.client, 'describe_tool', { name: 'alpha_add' })) as Record<string, unknown>;
    expect(described).toMatchObject({
      name: 'alpha_add',
      server: 'alpha',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    });
    expect(described['outputSchema']).toBeDefined();
    const missing = await full.client.callTool({ name: 'describe_tool', arguments: { name: 'alpha_ad' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/Did you mean "alpha_add"/);

    expect(await call(full.client, 'search_tools', { query: 'tiny image' })).toMatch(
      /^\d+ tools for "tiny image":\neverything_get-tiny-image \[everything\]/,
    );
    expect(await call(full.client, 'search_tools', { query: 'whoamu', server: 'beta' })).toMatch(/\nbeta_whoami \[beta\]/);
  });

  it('call_tool routes to the owner and returns its result unchanged', async () => {
    expect(await whoami(full.client, 'beta_whoami')).toMatchObject({ name: 'beta' });
    const routed = await full.client.callTool({ name: 'call_tool', arguments: { name: 'beta_whoami', arguments: {} } });
    expect(textOf(routed)).toMatch(/^name=beta pid=\d+/);
    const sum = await full.client.callTool({ name: 'call_tool', arguments: { name: 'alpha_add', arguments: { a: 1, b: 2 } } });
    expect(sum.structuredContent).toEqual({ sum: 3 });
    const refused = await full.client.callTool({ name: 'call_tool', arguments: { name: 'catalog_tools' } });
    expect(refused.isError).toBe(true);
  });

  it('catalog_prompts, describe_prompt and search_prompts cover every prompt', async () => {
    const catalog = await call(full.client, 'catalog_prompts');
    expect(catalog).toMatch(/^8 prompts from 3 servers\./);
    expect(catalog).toContain('alpha_greet(name, style?) — Greets someone.');
    expect(catalog).toContain('everything_args-prompt(city, state?)');
    const described = JSON.parse(await call(full.client, 'describe_prompt', { name: 'beta_greet' })) as Record<string, unknown>;
    expect(described).toMatchObject({
      name: 'beta_greet',
      server: 'beta',
      arguments: [
        { name: 'name', required: true },
        { name: 'style', required: false },
      ],
    });
    // Optional arguments keep their `?` in search results as in the catalog.
    expect(await call(full.client, 'search_prompts', { query: 'city' })).toMatch(/everything_args-prompt\(city, state\?\) \[everything\]/);
  });

  it('lazy mode lists only the 7 meta tools, and every tool stays callable directly and via call_tool', async () => {
    const lazyList = await lazy.client.listTools();
    expect(lazyList.tools.map((tool) => tool.name)).toEqual([
      'catalog_tools',
      'describe_tool',
      'search_tools',
      'call_tool',
      'catalog_prompts',
      'describe_prompt',
      'search_prompts',
    ]);
    expect(await whoami(lazy.client, 'alpha_whoami')).toMatchObject({ name: 'alpha' });
    expect(
      textOf(await lazy.client.callTool({ name: 'call_tool', arguments: { name: 'everything_echo', arguments: { message: 'lazy hi' } } })),
    ).toContain('lazy hi');
    expect(await call(lazy.client, 'catalog_tools')).toMatch(/^51 tools from 3 servers\./);
    // Prompts and resources are not affected by lazy mode.
    expect((await lazy.client.listPrompts()).prompts).toHaveLength(8);

    const fullList = await full.client.listTools();
    expect(fullList.tools).toHaveLength(58);
    const lazyBytes = Buffer.byteLength(JSON.stringify(lazyList));
    const fullBytes = Buffer.byteLength(JSON.stringify(fullList));
    console.log(
      `tools/list JSON, server-everything + 2 test-servers: full ${fullBytes} bytes (${fullList.tools.length} tools), lazy ${lazyBytes} bytes (${lazyList.tools.length} tools), ${(fullBytes / lazyBytes).toFixed(1)}x smaller`,
    );
    expect(lazyBytes * 3).toBeLessThan(fullBytes);
  });

  it('catalog_tools pages past 100 tools', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, index) => full.client.callTool({ name: 'alpha_add_tool', arguments: { name: `extra_${index}` } })),
    );
    await eventually(
      () => call(full.client, 'catalog_tools'),
      (text) => text.startsWith('111 tools'),
    );
    const first = await call(full.client, 'catalog_tools');
    expect(first).toMatch(/More: call again with cursor "100"\.$/);
    expect(first.split('\n').filter((line) => /^[a-z]+_/.test(line))).toHaveLength(100);
    const second = await call(full.client, 'catalog_tools', { cursor: '100' });
    expect(second).toMatch(/^111 tools from 3 servers, from #101\./);
    expect(second.split('\n').filter((line) => /^[a-z]+_/.test(line))).toHaveLength(11);
    expect(second).not.toContain('More:');
  });
});
