import { describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch.js';
import type { OversizedMessage } from './message-bounds.js';

const LIMIT = 1024;

/** A body that sends `chunks`, then (with `forever`) `filler` until it is cancelled. */
const source = (chunks: readonly string[], forever?: string) => {
  let cancelled = false;
  let sent = 0;
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift() ?? forever;
      if (next === undefined) return controller.close();
      sent += Buffer.byteLength(next);
      controller.enqueue(new TextEncoder().encode(next));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled, sent: () => sent };
};

/** A fetch through the bounds to a server answering with `body` as `type`; what the bounds reported. */
const through = (body: ReadableStream<Uint8Array>, type: string, status = 200) => {
  const reports: OversizedMessage[] = [];
  const fetchIt = boundedFetch(
    { server: 'big', maxBytes: LIMIT, oversized: (message) => reports.push(message) },
    async () => new Response(body, { status, headers: { 'content-type': type } }),
  );
  return { fetchIt, reports };
};

const post = (message: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(message) });
const call = { method: 'tools/call', params: { name: 'x' }, jsonrpc: '2.0', id: 5 };
const limitError = expect.objectContaining({
  code: -32603,
  message: expect.stringContaining('Server "big" sent a message of more than 1024 bytes, over [limits] max_message_bytes (1024)'),
});

describe('boundedFetch: JSON bodies', () => {
  it('hands on a body within the limit whole', async () => {
    const answer = JSON.stringify({ result: { content: [{ type: 'text', text: 'é'.repeat(300) }] }, jsonrpc: '2.0', id: 5 });
    const { fetchIt, reports } = through(source([answer.slice(0, 100), answer.slice(100)]).body, 'application/json; charset=utf-8');
    const response = await fetchIt('http://backend/mcp', post(call));
    expect(await response.json()).toEqual(JSON.parse(answer));
    expect(reports).toEqual([]);
  });

  it('cancels an endless body at the limit and fails the POSTed request in its place', async () => {
    const endless = source(['{"result":{"content":[{"type":"text","text":"'], 'a'.repeat(300));
    const { fetchIt, reports } = through(endless.body, 'application/json');
    const response = await fetchIt('http://backend/mcp', post(call));
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 5, error: limitError });
    expect(endless.cancelled()).toBe(true);
    expect(endless.sent()).toBeLessThan(LIMIT + 600);
    expect(reports).toEqual([{ bytes: expect.any(Number), where: 'HTTP body', failed: 5 }]);
  });

  it('fails the read of any other body past the limit', async () => {
    const endless = source([], '<html>'.repeat(50));
    const { fetchIt, reports } = through(endless.body, 'text/html', 502);
    const response = await fetchIt('http://backend/mcp', post(call));
    expect(response.status).toBe(502);
    await expect(response.text()).rejects.toThrow(/over \[limits\] max_message_bytes \(1024\)/);
    expect(endless.cancelled()).toBe(true);
    expect(reports).toHaveLength(1);
  });

  it('bounds a listen stream of JSON lines line by line, passing each on as an SSE event as it ends', async () => {
    const message = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const line = `${message}\n`;
    const stream = source([line.repeat(20), line.slice(0, 10), line.slice(10), '{"last":true}']);
    const { fetchIt, reports } = through(stream.body, 'application/json');
    const response = await fetchIt('http://backend/mcp', post({ method: 'subscriptions/listen', params: {}, jsonrpc: '2.0', id: 2 }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(`${`data: ${message}\n\n`.repeat(21)}data: {"last":true}\n\n`);
    expect(reports).toEqual([]);
  });
});

describe('boundedFetch: SSE bodies', () => {
  it('passes events on unchanged, CRLF line breaks and comments included', async () => {
    const events = [
      ': ping\n\n',
      'id: 1\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"x"}\r\n\r\n',
      'data: {"a":1}\n',
      '\n',
      'data: é\n\n',
    ];
    const { fetchIt, reports } = through(source(events.join('').match(/[\s\S]{1,7}/g) ?? []).body, 'text/event-stream');
    const response = await fetchIt('http://backend/mcp', post(call));
    expect(await response.text()).toBe(events.join(''));
    expect(reports).toEqual([]);
  });

  it('fails the POSTed request and closes a stream whose line never ends', async () => {
    const endless = source(['data: {"jsonrpc":"2.0","method":"x"}\n\n', 'data: '], 'x'.repeat(500));
    const { fetchIt, reports } = through(endless.body, 'text/event-stream');
    const text = await (await fetchIt('http://backend/mcp', post(call))).text();
    const [first, second] = text.split('\n\n');
    expect(first).toBe('data: {"jsonrpc":"2.0","method":"x"}');
    expect(JSON.parse(second?.replace(/^event: message\ndata: /, '') ?? '')).toEqual({ jsonrpc: '2.0', id: 5, error: limitError });
    expect(endless.cancelled()).toBe(true);
    expect(reports).toEqual([{ bytes: expect.any(Number), where: 'SSE event', failed: 5 }]);
  });

  it('fails the POSTed request and closes a stream whose event never ends', async () => {
    const endless = source(['event: message\n'], 'data: more\n');
    const { fetchIt } = through(endless.body, 'text/event-stream');
    const text = await (await fetchIt('http://backend/mcp', post(call))).text();
    expect(text).toMatch(/^event: message\ndata: \{"jsonrpc":"2.0","id":5,"error":\{"code":-32603/);
    expect(endless.cancelled()).toBe(true);
  });

  it('cuts a GET stream over the limit, failing only a request its event shows it answers', async () => {
    const quiet = source(['data: {"result":{"x":"'], 'y'.repeat(400));
    const first = through(quiet.body, 'text/event-stream');
    expect(await (await first.fetchIt('http://backend/mcp', { method: 'GET' })).text()).toBe('');
    expect(quiet.cancelled()).toBe(true);
    expect(first.reports).toEqual([{ bytes: expect.any(Number), where: 'SSE event', failed: undefined }]);
    const answering = source(['event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{"x":"'], 'y'.repeat(400));
    const second = through(answering.body, 'text/event-stream');
    const text = await (await second.fetchIt('http://backend/sse', { method: 'GET' })).text();
    expect(text).toContain('"id":9,"error":{"code":-32603');
  });
});
