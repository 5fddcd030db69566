import { describe, expect, it } from 'vitest';
import type { JsonObject, McpRelay } from '../handlers.js';
import type { McpTracing, TracedRequest } from './tracing-types.js';
import { responseErrorType, tracedHandler, tracedRelay } from './request-tracing.js';

/** A tracing that records the spans it starts and how they end; each span's context is a token object. */
const fakeTracing = () => {
  const spans: { request: TracedRequest; context: object; ended: (string | undefined)[] }[] = [];
  const tracing: McpTracing = {
    request: (request) => {
      const span = { request, context: { span: spans.length }, ended: [] as (string | undefined)[] };
      spans.push(span);
      return { context: span.context as never, end: (error) => void span.ended.push(error) };
    },
    backendCall: () => {
      throw new Error('not used');
    },
    traceId: () => undefined,
  };
  return { spans, tracing };
};

/** A relay that takes `tools/call` of `fast`, asking for the trace context as it does, and answers with `answer`. */
const relay = (answer: JsonObject, seen: unknown[]): McpRelay => ({
  methods: ['tools/call'],
  open: () => ({
    offer: (message, reply, trace) => {
      if ((message['params'] as { name?: unknown } | undefined)?.name !== 'fast') return false;
      seen.push(trace?.());
      queueMicrotask(() => reply({ jsonrpc: '2.0', id: message['id'], ...answer }));
      return true;
    },
    close: () => {},
  }),
});

const offer = (channel: ReturnType<McpRelay['open']>, message: JsonObject): Promise<JsonObject | undefined> =>
  new Promise((resolve) => {
    if (!channel.offer(message, resolve)) resolve(undefined);
  });

describe('tracedRelay', () => {
  it('starts a span when the relay takes a call, hands it its context, and ends it with the answer', async () => {
    const { spans, tracing } = fakeTracing();
    const seen: unknown[] = [];
    const channel = tracedRelay(relay({ result: { content: [], isError: true } }, seen), tracing).open(undefined);
    const params = { name: 'fast', _meta: { traceparent: 'x' } };
    expect(await offer(channel, { jsonrpc: '2.0', id: 4, method: 'tools/call', params })).toMatchObject({ id: 4 });
    expect(spans).toHaveLength(1);
    expect(spans[0]?.request).toEqual({ method: 'tools/call', params, id: 4 });
    expect(seen).toEqual([spans[0]?.context]);
    expect(spans[0]?.ended).toEqual(['tool_error']);
  });

  it('starts none for a call the relay declines (the full path traces it) nor for other messages', async () => {
    const { spans, tracing } = fakeTracing();
    const channel = tracedRelay(relay({ result: {} }, []), tracing).open(undefined);
    expect(await offer(channel, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } })).toBeUndefined();
    expect(await offer(channel, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toBeUndefined();
    expect(spans).toEqual([]);
  });
});

describe('tracedHandler', () => {
  it('keeps each request’s span context for its RequestContext, and ends the span as the handler ends', async () => {
    const { spans, tracing } = fakeTracing();
    const traces = new WeakMap<object, never>();
    const ctx = { sessionId: 's', mcpReq: { id: 3, envelope: { version: '2026-07-28' } } };
    const handler = tracedHandler(
      tracing,
      'prompts/get',
      (async () => ({ messages: [] })) as (request: never, ctx: never) => unknown,
      traces,
      'version',
    );
    await handler({ params: { name: 'p' } } as never, ctx as never);
    expect(spans[0]?.request).toEqual({
      method: 'prompts/get',
      params: { name: 'p' },
      id: 3,
      sessionId: 's',
      protocolVersion: '2026-07-28',
    });
    expect(traces.get(ctx)).toBe(spans[0]?.context);
    expect(spans[0]?.ended).toEqual([undefined]);
    const failing = tracedHandler(
      tracing,
      'prompts/get',
      (() => Promise.reject(Object.assign(new Error('no'), { code: -32602 }))) as (request: never, ctx: never) => unknown,
      traces,
      'version',
    );
    await expect(failing({} as never, { mcpReq: { id: 4 } } as never)).rejects.toThrow('no');
    expect(spans[1]?.ended).toEqual(['-32602']);
  });

  it('reads error.type from a JSON-RPC response', () => {
    expect(responseErrorType({ error: { code: -32601 } })).toBe('-32601');
    expect(responseErrorType({ result: { isError: true } })).toBe('tool_error');
    expect(responseErrorType({ result: {} })).toBeUndefined();
  });
});
