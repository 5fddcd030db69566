import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLogger } from '@promptyard/core';
import type { AuthOutcome, Authenticator, Identity } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHandlers, McpRelay } from '../handlers.js';
import { serveHttp } from './serve-http.js';
import type { HttpHandle } from './options.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';

const person = (subject: string, scopes: string[]): Identity => ({
  subject,
  clientId: 'test-client',
  scopes,
  groups: ['design'],
  claims: { sub: subject },
});

/** Tokens named after what they get: a stand-in for an issuer, with the outcomes a real one gives. */
const authenticator: Authenticator = {
  authorizationServers: ['https://login.example.com'],
  requiredScopes: ['mcp'],
  audience: undefined,
  authenticate: async (authorization, resource): Promise<AuthOutcome> => {
    if (authorization === undefined) return { ok: false, status: 401, description: 'send a token' };
    const token = authorization.replace(/^Bearer /, '');
    if (token === 'ada' || token === 'grace') return { ok: true, identity: person(token, ['mcp']), expiresAt: Date.now() / 1000 + 60 };
    if (token === 'narrow') return { ok: false, status: 403, error: 'insufficient_scope', description: 'the token lacks the scope mcp' };
    if (token === 'down')
      return { ok: false, status: 503, error: 'temporarily_unavailable', description: 'the authorization server cannot be reached' };
    return { ok: false, status: 401, error: 'invalid_token', description: `not for ${resource}` };
  },
};

const handles: HttpHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

/** A relay like the gateway's, answering every `tools/call` itself. */
const relay: McpRelay = {
  methods: ['tools/call'],
  open: () => ({
    offer: (message, reply) => {
      if (message['method'] !== 'tools/call') return false;
      setImmediate(() => reply({ jsonrpc: '2.0', id: message['id'], result: { content: [{ type: 'text', text: 'relayed' }] } }));
      return true;
    },
    close: () => {},
  }),
};

const serve = async (options: { authToken?: string; publicUrl?: string; relay?: boolean } = {}): Promise<HttpHandle> => {
  const handlers: McpHandlers = {
    name: 'auth-test',
    version: '1.0.0',
    logger: createLogger({ level: 'error', write: () => {} }),
    prompts: { list: () => ({ items: [] }), get: async () => ({ messages: [] }) },
    tools: {
      list: (_cursor, caller) => ({
        items: [
          { name: 'whoami', inputSchema: { type: 'object' } },
          { name: `for-${caller?.subject ?? 'nobody'}`, inputSchema: { type: 'object' } },
        ],
      }),
      call: async (_name, _args, context) => ({
        content: [{ type: 'text', text: `${context.identity?.subject ?? 'nobody'} ${context.identity?.groups.join(',') ?? ''}` }],
      }),
    },
    complete: async () => ({ completion: { values: [] } }),
    logs: { subscribe: () => () => {} },
    onListChanged: () => () => {},
    ...(options.relay === true ? { relay } : {}),
  };
  const handle = await serveHttp(await createMcpServerBlueprint(handlers), {
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 10_000,
    auth: authenticator,
    authToken: options.authToken,
    publicUrl: options.publicUrl,
  });
  handles.push(handle);
  return handle;
};

const connect = async (
  url: string,
  token: string,
  era: 'legacy' | 'modern',
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
  const client = new Client({ name: 'test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
};

const post = (url: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  });

describe('serveHttp as an OAuth resource server', () => {
  it('publishes RFC 9728 metadata at the well-known path and its path-suffixed form', async () => {
    const handle = await serve();
    const origin = new URL(handle.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: handle.url,
        authorization_servers: ['https://login.example.com'],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp'],
      });
    }
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
  });

  it('answers 401 with a challenge that leads to the metadata, 403 for a missing scope, 503 when the issuer is down', async () => {
    const handle = await serve();
    const metadata = `${new URL(handle.url).origin}/.well-known/oauth-protected-resource/mcp`;
    const none = await post(handle.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer scope="mcp", resource_metadata="${metadata}"`);
    const bad = await post(handle.url, { authorization: 'Bearer forged' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="not for ${handle.url}", scope="mcp", resource_metadata="${metadata}"`,
    );
    const narrow = await post(handle.url, { authorization: 'Bearer narrow' });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", .*scope="mcp"/);
    expect(((await narrow.json()) as { error: { message: string } }).error.message).toMatch(/lacks the scope mcp/);
    const down = await post(handle.url, { authorization: 'Bearer down' });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
  });

  it('uses [transport] public_url as the resource behind a proxy', async () => {
    const handle = await serve({ publicUrl: 'https://mcp.example.com/team/mcp' });
    const none = await post(handle.url);
    expect(none.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/team/mcp"',
    );
    const document = (await (await fetch(`${new URL(handle.url).origin}/.well-known/oauth-protected-resource/team/mcp`)).json()) as {
      resource: string;
    };
    expect(document.resource).toBe('https://mcp.example.com/team/mcp');
  });

  it('refuses a token in the query string, and a 1 MB header before reading it', async () => {
    const handle = await serve();
    const query = await post(`${handle.url}?access_token=ada`);
    expect(query.status).toBe(400);
    expect(query.headers.get('www-authenticate')).toMatch(/error="invalid_request"/);
    const started = performance.now();
    const huge = await post(handle.url, { authorization: `Bearer ${'a'.repeat(1024 * 1024)}` });
    expect(huge.status).toBe(431);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await post(handle.url, { authorization: 'Bearer ada' })).status).not.toBe(401);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`hands the caller's identity to request handling and lists (${era})`, async () => {
      const handle = await serve();
      const { client } = await connect(handle.url, 'ada', era);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'for-ada']);
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'ada design' }] });
    });
  }

  it('keeps a session to the caller who opened it, on the relay too', async () => {
    const handle = await serve({ relay: true });
    const { client, transport } = await connect(handle.url, 'ada', 'legacy');
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'relayed' }] });
    const headers = { 'mcp-session-id': transport.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
    expect((await post(handle.url, { ...headers, authorization: 'Bearer grace' })).status).toBe(404);
    expect((await post(handle.url, { ...headers, authorization: 'Bearer ada' })).status).toBe(200);
    const call = (token: string): Promise<Response> =>
      fetch(handle.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
      });
    expect((await call('grace')).status).toBe(404);
    expect(await (await call('ada')).json()).toMatchObject({ id: 7, result: { content: [{ text: 'relayed' }] } });
  });

  it('shows /health details to accepted callers only', async () => {
    const handle = await serve();
    const health = `${new URL(handle.url).origin}/health`;
    expect(await (await fetch(health)).json()).not.toHaveProperty('sessions');
    expect(await (await fetch(health, { headers: { authorization: 'Bearer forged' } })).json()).not.toHaveProperty('sessions');
    expect(await (await fetch(health, { headers: { authorization: 'Bearer ada' } })).json()).toHaveProperty('sessions', 0);
  });

  it('still takes the static server token beside OAuth', async () => {
    const handle = await serve({ authToken: 'static-secret' });
    const { client } = await connect(handle.url, 'static-secret', 'legacy');
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'server-token ' }] });
  });
});
