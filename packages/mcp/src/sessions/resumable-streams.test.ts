import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from './memory-event-store.js';
import { followClient, serveResumable, sseRetryMs } from './resumable-streams.js';
import type { ResumableStreams } from './resumable-streams.js';

const sseHeaders = { 'content-type': 'text/event-stream' };

/** An SSE body the test writes to, and a promise of why it was cancelled. */
const openBody = () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: (reason) => onCancel(reason ?? 'cancelled'),
  });
  return { body, write: (text: string) => controller.enqueue(new TextEncoder().encode(text)), end: () => controller.close(), cancelled };
};

const request = (method: string, headers: Record<string, string> = {}, signal?: AbortSignal): Request =>
  new Request('http://127.0.0.1/mcp', { method, headers: { accept: 'text/event-stream', ...headers }, ...(signal ? { signal } : {}) });

describe('followClient', () => {
  it('writes the prefix first, then the stream as it comes', async () => {
    const source = openBody();
    const response = followClient(request('GET'), new Response(source.body, { headers: sseHeaders }), 'retry: 5\n\n');
    source.write('data: {}\n\n');
    source.end();
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('retry: 5\n\ndata: {}\n\n');
  });

  it('lets the stream go the moment its client disconnects, ending the body the server writes', async () => {
    const abort = new AbortController();
    const source = openBody();
    const response = followClient(request('POST', {}, abort.signal), new Response(source.body, { headers: sseHeaders }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    source.write('id: a|1\ndata: \n\n');
    expect((await reader.read()).done).toBe(false);
    const next = reader.read();
    abort.abort();
    await source.cancelled;
    expect((await next).done).toBe(true);
  });

  it('leaves a response that is not an SSE stream as it is', () => {
    const response = Response.json({ error: 'conflict' }, { status: 409 });
    expect(followClient(request('GET'), response, 'retry: 5\n\n')).toBe(response);
  });
});

describe('serveResumable', () => {
  const streamsOf = (): ResumableStreams => ({ events: new MemoryEventStore(), live: new Map() });
  const served = async (streams: ResumableStreams | undefined, req: Request): Promise<string> => {
    const source = openBody();
    source.write('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n');
    source.end();
    return (await serveResumable(streams, req, async () => new Response(source.body, { headers: sseHeaders }))).text();
  };

  it('primes a 2025-11-25 GET stream with an id the session’s store resumes from, and a retry', async () => {
    const streams = streamsOf();
    const { events } = streams;
    const text = await served(streams, request('GET', { 'mcp-protocol-version': '2025-11-25' }));
    const primed = /^id: (\S+)\nretry: (\d+)\ndata: \n\n/.exec(text);
    expect(primed?.[2]).toBe(String(sseRetryMs));
    expect(await events.getStreamIdForEventId(primed?.[1] as string)).toBe('_GET_stream');
  });

  it('gives a resumed GET stream the retry alone, and leaves POST streams (primed by the SDK) and older revisions as they are', async () => {
    const streams = streamsOf();
    expect(await served(streams, request('GET', { 'mcp-protocol-version': '2025-11-25', 'last-event-id': 'x|1' }))).toMatch(
      /^retry: 1000\n\nevent: message\n/,
    );
    expect(await served(streams, request('POST', { 'mcp-protocol-version': '2025-11-25' }))).toMatch(/^event: message\n/);
    expect(await served(streams, request('GET', { 'mcp-protocol-version': '2025-06-18' }))).toMatch(/^event: message\n/);
    expect(await served(streams, request('GET'))).toMatch(/^event: message\n/);
    // Without a store of its own (a cluster keeps the events) a fresh GET stream is not primed here.
    expect(await served(undefined, request('GET', { 'mcp-protocol-version': '2025-11-25' }))).toMatch(/^event: message\n/);
  });

  it('lets go of a stream whose client left unheard when that client resumes it, and of nothing else', async () => {
    const streams = streamsOf();
    const primed = await streams.events.storeEvent('s1', {});
    const post = openBody();
    const other = openBody();
    const postResponse = await serveResumable(streams, request('POST', { 'mcp-protocol-version': '2025-11-25' }), async () => {
      post.write(`id: ${primed}\nretry: 1000\ndata: \n\n`);
      return new Response(post.body, { headers: sseHeaders });
    });
    const otherPrimed = await streams.events.storeEvent('s2', {});
    const otherResponse = await serveResumable(streams, request('POST', { 'mcp-protocol-version': '2025-11-25' }), async () => {
      other.write(`id: ${otherPrimed}\ndata: \n\n`);
      return new Response(other.body, { headers: sseHeaders });
    });
    // The server writes both: each is listed under its stream as its first event goes out.
    const postReader = (postResponse.body as ReadableStream<Uint8Array>).getReader();
    await postReader.read();
    await (otherResponse.body as ReadableStream<Uint8Array>).getReader().read();
    expect([...streams.live.keys()].sort()).toEqual(['s1', 's2']);

    const resumed = openBody();
    resumed.end();
    const handled = await serveResumable(
      streams,
      request('GET', { 'mcp-protocol-version': '2025-11-25', 'last-event-id': primed }),
      async () => new Response(resumed.body, { headers: sseHeaders }),
    );
    await post.cancelled;
    expect((await postReader.read()).done).toBe(true);
    expect(await handled.text()).toBe('retry: 1000\n\n');
    expect([...streams.live.keys()]).toEqual(['s2']);
  });
});
