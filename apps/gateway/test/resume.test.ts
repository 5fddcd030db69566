/**
 * Resumable SSE through the HTTP gateway without `[cluster]`: a 2025-11-25 client whose stream drops
 * in the middle of a long call reconnects with `Last-Event-ID` and gets the rest of the call's
 * progress and its result. At 2026-07-28, which has no resumption, streams carry no event ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanup, eventually, gatewayToml, newClient, startHttpGateway, stdioBackendCommand, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

interface SseEvent {
  readonly id?: string;
  readonly retry?: number;
  readonly data: string;
}

/** One SSE block's fields (`undefined` for a block of comments, such as a keep-alive). */
const parseBlock = (block: string): SseEvent | undefined => {
  const fields = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
  if (fields.length === 0) return undefined;
  const event: { id?: string; retry?: number; data: string[] } = { data: [] };
  for (const line of fields) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'id') event.id = value;
    else if (name === 'retry') event.retry = Number(value);
    else if (name === 'data') event.data.push(value);
  }
  return { ...event, data: event.data.join('\n') };
};

/** The events of an SSE body, one at a time; `undefined` once the server ends it. */
const sseEvents = (body: ReadableStream<Uint8Array> | null): (() => Promise<SseEvent | undefined>) => {
  if (body === null) throw new Error('the response has no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return async () => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const event = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event !== undefined) return event;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
    }
  };
};

type Message = { id?: number; method?: string; params?: { progress?: number }; result?: { content?: unknown } };
const messageOf = (event: SseEvent): Message => JSON.parse(event.data) as Message;

const revision = '2025-11-25';
const headers = (session?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': revision,
  ...(session === undefined ? {} : { 'mcp-session-id': session }),
});

/** A 2025-11-25 session opened with raw requests: its id. */
const openSession = async (url: string): Promise<string> => {
  const init = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'resume-e2e', version: '1.0.0' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (init.status !== 200 || session === null) throw new Error(`initialize answered ${init.status}`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: headers(session),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return session;
};

let gateway: HttpGateway;

beforeAll(async () => {
  gateway = await startHttpGateway({ config: gatewayToml({ slow: { command: stdioBackendCommand({ name: 's1' }) } }) });
});

afterAll(async () => {
  expect(await cleanup()).toEqual([]);
});

describe('resumable SSE streams through the HTTP gateway, without [cluster]', () => {
  it('resumes a long call’s stream dropped mid-call with Last-Event-ID: the rest of its progress, then its result', async () => {
    const session = await openSession(gateway.url);
    const dropped = new AbortController();
    const call = await fetch(gateway.url, {
      method: 'POST',
      headers: headers(session),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow_progress', arguments: { steps: 6, delayMs: 100 }, _meta: { progressToken: 'p' } },
      }),
      signal: dropped.signal,
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const first = sseEvents(call.body);
    // The priming event: an id to resume from before any message, and how long to wait before resuming.
    const priming = await first();
    expect(priming).toMatchObject({ data: '', retry: 1000 });
    expect(priming?.id).toMatch(/\S/);

    const before: number[] = [];
    let lastEventId = priming?.id as string;
    while (before.length < 2) {
      const event = await first();
      if (event === undefined) throw new Error('the stream ended before the call did');
      before.push(messageOf(event).params?.progress as number);
      lastEventId = event.id as string;
    }
    dropped.abort();

    const resumed = await fetch(gateway.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': revision, 'last-event-id': lastEventId },
    });
    expect(resumed.status).toBe(200);
    const rest = sseEvents(resumed.body);
    const after: number[] = [];
    let result: Message | undefined;
    for (let event = await rest(); event !== undefined; event = await rest()) {
      if (event.data === '') continue;
      const message = messageOf(event);
      expect(event.id).toMatch(/\S/);
      if (message.method === 'notifications/progress') after.push(message.params?.progress as number);
      if (message.id === 1) result = message;
    }
    expect(before).toEqual([1, 2]);
    expect(after).toEqual([3, 4, 5, 6]);
    expect(textOf(result?.result as { content?: unknown })).toBe('done 6');
  });

  it('primes a session’s GET stream too: resumed from its priming id, it gets the list change sent while it was down', async () => {
    const session = await openSession(gateway.url);
    const open = new AbortController();
    const get = await fetch(gateway.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': revision },
      signal: open.signal,
    });
    const priming = await sseEvents(get.body)();
    expect(priming).toMatchObject({ data: '', retry: 1000 });
    open.abort();

    const rpc = async (id: number, method: string, params: Record<string, unknown>): Promise<string> => {
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: headers(session),
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
      return response.text();
    };
    await rpc(2, 'tools/call', { name: 'slow_add_tool', arguments: { name: 'extra' } });
    // The gateway lists the new tool once it heard of it, and tells its sessions then.
    await eventually(
      () => rpc(3, 'tools/list', {}),
      (text) => text.includes('slow_extra'),
    );

    const resumed = new AbortController();
    const again = await fetch(gateway.url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': revision,
        'last-event-id': priming?.id as string,
      },
      signal: resumed.signal,
    });
    // Resumed at once (the dropped stream was let go when its client left), with what it missed.
    expect(again.status).toBe(200);
    const events = sseEvents(again.body);
    let event = await events();
    while (event !== undefined && (event.data === '' || messageOf(event).method !== 'notifications/tools/list_changed'))
      event = await events();
    expect(event?.id).toMatch(/\S/);
    resumed.abort();
  });

  it('at 2026-07-28 sends streams without event ids or retry, as that revision has no resumption', async () => {
    const bodies: Promise<string>[] = [];
    const client = newClient({ versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // The call's stream (the listen stream stays open).
          const isCall = typeof init?.body === 'string' && init.body.includes('"tools/call"');
          if (isCall && response.headers.get('content-type')?.includes('text/event-stream') === true) bodies.push(response.clone().text());
          return response;
        },
      }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'slow_progress', arguments: { steps: 2, delayMs: 10 } },
      { onprogress: (value) => progress.push(value.progress) },
    );
    expect(textOf(result)).toBe('done 2');
    expect(progress).toEqual([1, 2]);
    const streams = await Promise.all(bodies);
    expect(streams.some((text) => text.includes('notifications/progress'))).toBe(true);
    for (const text of streams) expect(text).not.toMatch(/^(id|retry):/m);
  });
});
