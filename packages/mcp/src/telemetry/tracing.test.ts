import { trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createMcpTracing, extractTraceContext } from './tracing.js';

const propagator = new W3CTraceContextPropagator();
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';
const traceparent = `00-${traceId}-${spanId}-01`;

const recording = () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracing: createMcpTracing(provider.getTracer('test'), propagator) };
};

describe('extractTraceContext', () => {
  it('reads traceparent and tracestate from _meta', () => {
    const context = extractTraceContext({ traceparent, tracestate: 'vendor=1', progressToken: 3 }, propagator);
    const parent = trace.getSpanContext(context);
    expect(parent).toMatchObject({ traceId, spanId, traceFlags: 1, isRemote: true });
    expect(parent?.traceState?.get('vendor')).toBe('1');
  });

  it('gives the root context for no _meta, no traceparent, or one that is not W3C', () => {
    for (const meta of [
      undefined,
      null,
      'text',
      {},
      { traceparent: 42 },
      { traceparent: 'not-a-traceparent' },
      { traceparent: `00-${'0'.repeat(32)}-${spanId}-01` },
    ]) {
      expect(trace.getSpanContext(extractTraceContext(meta, propagator))).toBeUndefined();
    }
  });
});

describe('createMcpTracing', () => {
  it('makes a SERVER span per request, child of the client’s, named and described after the MCP conventions', () => {
    const { exporter, tracing } = recording();
    tracing
      .request({
        method: 'tools/call',
        params: { name: 'search', _meta: { traceparent } },
        id: 7,
        sessionId: 's-1',
        protocolVersion: '2026-07-28',
      })
      .end();
    tracing.request({ method: 'prompts/get', params: { name: 'review' }, id: 'a' }).end('-32602');
    tracing.request({ method: 'resources/read', params: { uri: 'file:///x' }, id: 8 }).end();
    const [call, get, read] = exporter.getFinishedSpans();
    expect(call?.name).toBe('tools/call search');
    expect(call?.kind).toBe(1); // SpanKind.SERVER
    expect(call?.spanContext().traceId).toBe(traceId);
    expect(call?.parentSpanContext?.spanId).toBe(spanId);
    expect(call?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'search',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '7',
      'mcp.session.id': 's-1',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(get?.name).toBe('prompts/get review');
    expect(get?.parentSpanContext).toBeUndefined();
    expect(get?.attributes).toMatchObject({ 'gen_ai.prompt.name': 'review', 'error.type': '-32602' });
    expect(get?.status.code).toBe(2); // SpanStatusCode.ERROR
    // A resource URI is an attribute, not part of the name (high cardinality).
    expect(read?.name).toBe('resources/read');
    expect(read?.attributes['mcp.resource.uri']).toBe('file:///x');
  });

  it('makes a CLIENT span per backend call, child of the request’s, whose context replaces the caller’s in _meta', () => {
    const { exporter, tracing } = recording();
    const served = tracing.request({
      method: 'tools/call',
      params: { name: 'docs_search', _meta: { traceparent, tracestate: 'vendor=1' } },
      id: 1,
    });
    const call = tracing.backendCall(served.context, { method: 'tools/call', params: { name: 'search' }, backend: 'docs' });
    const meta = call.meta({ traceparent, tracestate: 'vendor=1', 'example.com/key': 'kept' });
    call.end();
    served.end();
    const [client, server] = exporter.getFinishedSpans();
    expect(client?.kind).toBe(2); // SpanKind.CLIENT
    expect(client?.name).toBe('tools/call search');
    expect(client?.attributes).toMatchObject({ 'gen_ai.tool.name': 'search', 'promptyard.backend': 'docs' });
    expect(client?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(meta).toEqual({
      traceparent: `00-${traceId}-${client?.spanContext().spanId}-01`,
      tracestate: 'vendor=1',
      'example.com/key': 'kept',
    });
    // What the backend reads back is the CLIENT span.
    expect(trace.getSpanContext(extractTraceContext(meta, propagator))?.spanId).toBe(client?.spanContext().spanId);
  });

  it('starts a new trace for a backend call outside any traced request', () => {
    const { exporter, tracing } = recording();
    const call = tracing.backendCall(undefined, { method: 'completion/complete', params: undefined, backend: 'docs' });
    expect(call.meta(undefined)['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    call.end('timeout');
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('completion/complete');
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.attributes['error.type']).toBe('timeout');
  });
});
