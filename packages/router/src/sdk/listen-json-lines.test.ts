import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch.js';

const encoder = new TextEncoder();

/** A body that sends `chunks` one by one and then stays open (a listen stream) until `end()`. */
const openBody = (chunks: readonly (string | Uint8Array)[]): { body: ReadableStream<Uint8Array>; end: () => void } => {
  let close = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      close = () => controller.close();
    },
  });
  return { body, end: () => close() };
};

const ack = {
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:0' }, notifications: { toolsListChanged: true } },
};
const changed = {
  jsonrpc: '2.0',
  method: 'notifications/tools/list_changed',
  params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:0', note: 'café ☕' } },
};
const listen = {
  jsonrpc: '2.0',
  id: 'listen:0',
  method: 'subscriptions/listen',
  params: { notifications: { toolsListChanged: true } },
} as const;

const transports: StreamableHTTPClientTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

/** `inner` read through the bounds every HTTP backend is read with (a limit no test message reaches). */
const bounded = (inner: FetchLike): FetchLike => boundedFetch({ server: 'test', maxBytes: 1 << 20, oversized: () => {} }, inner);

/** The SDK's own HTTP transport over `fetch` read through the bounds: what its `onmessage` receives. */
const sdkTransport = async (fetch: FetchLike): Promise<{ transport: StreamableHTTPClientTransport; received: JSONRPCMessage[] }> => {
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: bounded(fetch) });
  transports.push(transport);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { transport, received };
};

const until = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

describe('a listen stream of JSON lines, through boundedFetch', () => {
  it('hands a listen stream of JSON lines to the SDK as it comes, lines split anywhere across chunks', async () => {
    const ackLine = `${JSON.stringify(ack)}\n`;
    const changedBytes = encoder.encode(`${JSON.stringify(changed)}\r\n\n`);
    // The ack in two pieces, then the notification split inside a multi-byte character; the stream stays open.
    const cut = changedBytes.indexOf(0xe2) + 1;
    const { body, end } = openBody([ackLine.slice(0, 20), ackLine.slice(20), changedBytes.slice(0, cut), changedBytes.slice(cut)]);
    const { transport, received } = await sdkTransport(async () => new Response(body, { headers: { 'content-type': 'application/json' } }));
    await transport.send(listen);
    await until(() => received.length === 2);
    expect(received).toEqual([ack, changed]);
    end();
  });

  it('hands on a listen request answered with a single JSON-RPC error (no listen stream)', async () => {
    const refusal = { jsonrpc: '2.0', id: 'listen:0', error: { code: -32601, message: 'Method not found' } };
    const { transport, received } = await sdkTransport(
      async () => new Response(JSON.stringify(refusal), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    );
    await transport.send(listen);
    await until(() => received.length === 1);
    expect(received).toEqual([refusal]);
  });

  it('leaves every other request and an SSE listen stream untouched', async () => {
    const seen: string[] = [];
    const inner: FetchLike = async (_url, init) => {
      const body = String(init?.body);
      seen.push(body);
      const isListen = body.includes('subscriptions/listen');
      return new Response(
        isListen ? `data: ${JSON.stringify(ack)}\n\n` : JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }),
        {
          headers: { 'content-type': isListen ? 'text/event-stream' : 'application/json' },
        },
      );
    };
    const wrapped = bounded(inner);
    const list = await wrapped('http://127.0.0.1:9/mcp', {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(list.headers.get('content-type')).toBe('application/json');
    expect(await list.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    const sse = await wrapped('http://127.0.0.1:9/mcp', { method: 'POST', body: JSON.stringify(listen) });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(await sse.text()).toBe(`data: ${JSON.stringify(ack)}\n\n`);
    expect(seen).toHaveLength(2);
  });
});
