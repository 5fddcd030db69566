import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLogger } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientPeer, JsonObject, McpHandlers, McpRelay } from '../handlers.js';
import { serveHttp } from './serve-http.js';
import type { HttpHandle } from './options.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';

/** What the fake relay saw: each offer, each channel with its client and whether it was closed. */
interface RelayLog {
  readonly offers: JsonObject[];
  readonly channels: { client: ClientPeer | undefined; closed: boolean; cancelled: unknown[] }[];
}

const text = (value: string): JsonObject => ({ content: [{ type: 'text', text: value }] });

/**
 * A relay like the gateway's: takes `tools/call` of `fast` (answered at once) and `slow` (answered
 * never, until cancelled) and the cancellation of a call it holds; declines everything else.
 */
const fakeRelay = (log: RelayLog): McpRelay => ({
  methods: ['tools/call'],
  open: (client) => {
    const channel = { client, closed: false, cancelled: [] as unknown[] };
    log.channels.push(channel);
    const held = new Set<unknown>();
    return {
      offer: (message, reply) => {
        log.offers.push(message);
        const params = message['params'] as Record<string, unknown>;
        if (message['method'] === 'notifications/cancelled') {
          if (!held.delete(params['requestId'])) return false;
          channel.cancelled.push(params['requestId']);
          return true;
        }
        if (params['name'] === 'slow') {
          held.add(message['id']);
          return true;
        }
        if (params['name'] !== 'fast' || (params['_meta'] as Record<string, unknown> | undefined)?.['progressToken'] !== undefined)
          return false;
        setImmediate(() => reply({ jsonrpc: '2.0', id: message['id'], result: text('relayed') }));
        return true;
      },
      close: () => {
        channel.closed = true;
      },
    };
  },
});

const handles: HttpHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

const serve = async (
  options: { readonly relay?: boolean; readonly authToken?: string } = {},
): Promise<{ handle: HttpHandle; log: RelayLog }> => {
  const log: RelayLog = { offers: [], channels: [] };
  const handlers: McpHandlers = {
    name: 'relay-test',
    version: '1.0.0',
    logger: createLogger({ level: 'error', write: () => {} }),
    prompts: { list: () => ({ items: [] }), get: async () => ({ messages: [] }) },
    tools: {
      list: () => ({ items: ['fast', 'slow', 'other'].map((name) => ({ name, inputSchema: { type: 'object' } })) }),
      // The full path answers `fast` as the relay does, so the two can be compared byte for byte.
      call: async (name) => text(name === 'fast' ? 'relayed' : 'full'),
    },
    complete: async () => ({ completion: { values: [] } }),
    logs: { subscribe: () => () => {} },
    onListChanged: () => () => {},
    ...(options.relay === false ? {} : { relay: fakeRelay(log) }),
  };
  const handle = await serveHttp(await createMcpServerBlueprint(handlers), {
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 10_000,
    authToken: options.authToken,
  });
  handles.push(handle);
  return { handle, log };
};

const connect = async (
  url: string,
  era: 'legacy' | 'modern',
  capabilities: Record<string, unknown> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.push(client);
  expect(client.getProtocolEra()).toBe(era);
  return { client, transport };
};

const modernHeaders = (name: string, accept = 'application/json, text/event-stream'): Record<string, string> => ({
  'content-type': 'application/json',
  accept,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
});
const modernCall = (name: string, meta: Record<string, unknown> = {}): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: {
      name,
      arguments: {},
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...meta },
    },
  });

describe('the HTTP relay', () => {
  it('relays a 2025-11-25 session’s call and answers with one JSON body; other calls take the full path', async () => {
    const { handle, log } = await serve();
    const { client, transport } = await connect(handle.url, 'legacy');
    expect(await client.callTool({ name: 'fast', arguments: {} })).toEqual(text('relayed'));
    expect(await client.callTool({ name: 'other', arguments: {} })).toEqual(text('full'));
    expect(log.channels).toHaveLength(1);
    expect(log.channels[0]?.client?.label).toBe('session');

    const raw = await fetch(handle.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method: 'tools/call', params: { name: 'fast', arguments: {} } }),
    });
    expect(raw.headers.get('content-type')).toBe('application/json');
    expect(await raw.json()).toEqual({ jsonrpc: '2.0', id: 'raw-1', result: text('relayed') });
  });

  it('answers a 2026-07-28 call exactly as the full path does', async () => {
    const relayed = await serve();
    const full = await serve({ relay: false });
    const [viaRelay, viaSdk] = await Promise.all(
      [relayed, full].map(async ({ handle }) => {
        const response = await fetch(handle.url, {
          method: 'POST',
          headers: modernHeaders('fast'),
          body: modernCall('fast', { traceparent: '00-x' }),
        });
        return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as unknown };
      }),
    );
    expect(relayed.log.offers).toHaveLength(1);
    // The envelope is lifted before the relay sees the call, as the SDK lifts it before a handler does.
    expect((relayed.log.offers[0]?.['params'] as Record<string, unknown>)['_meta']).toEqual({ traceparent: '00-x' });
    expect(viaRelay).toEqual(viaSdk);
  });

  it('gives a client that accepts only SSE one event', async () => {
    const { handle } = await serve();
    const response = await fetch(handle.url, {
      method: 'POST',
      headers: modernHeaders('fast', 'text/event-stream'),
      body: modernCall('fast'),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = await response.text();
    expect(body).toMatch(/^event: message\ndata: \{.*"relayed".*\}\n\n$/s);
  });

  it('leaves to the full path a 2026-07-28 client that can answer server requests, and a request the SDK would reject', async () => {
    const { handle, log } = await serve();
    const { client } = await connect(handle.url, 'modern', { sampling: {} });
    expect(await client.callTool({ name: 'fast', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'relayed' }] });
    expect(log.offers).toHaveLength(0);

    const { 'mcp-name': _name, ...withoutName } = modernHeaders('fast');
    const rejected = await fetch(handle.url, { method: 'POST', headers: withoutName, body: modernCall('fast') });
    expect(rejected.status).toBe(400);
    expect(((await rejected.json()) as { error: { code: number } }).error.code).toBe(-32020);
    expect(log.offers).toHaveLength(0);
  });

  it('checks token, Origin, session and body size before any relaying', async () => {
    const { handle, log } = await serve({ authToken: 'secret' });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fast' } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' };
    expect((await fetch(handle.url, { method: 'POST', headers, body })).status).toBe(401);
    const authorized = { ...headers, authorization: 'Bearer secret' };
    expect((await fetch(handle.url, { method: 'POST', headers: { ...authorized, origin: 'http://evil.example' }, body })).status).toBe(403);
    expect((await fetch(handle.url, { method: 'POST', headers: authorized, body })).status).toBe(404);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'fast', arguments: { text: 'x'.repeat(20_000) } },
    });
    expect((await fetch(handle.url, { method: 'POST', headers: authorized, body: big })).status).toBe(413);
    expect(log.offers).toHaveLength(0);
  });

  it('passes a session’s cancellation to the relayed call, and cancels what is left when the session ends', async () => {
    const { handle, log } = await serve();
    const { client, transport } = await connect(handle.url, 'legacy');
    const controller = new AbortController();
    const slow = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal });
    await expect.poll(() => log.offers.length).toBe(1);
    controller.abort('the test cancels');
    await expect(slow).rejects.toThrow();
    await expect.poll(() => log.channels[0]?.cancelled.length).toBe(1);

    void client.callTool({ name: 'slow', arguments: {} }).catch(() => {});
    await expect.poll(() => log.offers.length).toBe(3);
    await transport.terminateSession();
    await expect.poll(() => log.channels[0]?.closed).toBe(true);
  });

  it('cancels a 2026-07-28 call whose client went away', async () => {
    const { handle, log } = await serve();
    const controller = new AbortController();
    const pending = fetch(handle.url, {
      method: 'POST',
      headers: modernHeaders('slow'),
      body: modernCall('slow'),
      signal: controller.signal,
    });
    await expect.poll(() => log.offers.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => log.channels[0]?.closed).toBe(true);
  });
});
