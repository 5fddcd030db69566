import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, TextMapGetter, TextMapPropagator, TextMapSetter, Tracer } from '@opentelemetry/api';
import type { McpTracing, RequestSpan, BackendCallSpan, TracedCall, TracedRequest } from './tracing-types.js';
import { isObject } from '../json-shapes.js';

/** W3C trace context travels in a request's `params._meta` (the MCP semantic conventions' carrier). */
const metaGetter: TextMapGetter<Readonly<Record<string, unknown>> | undefined> = {
  keys: (carrier) => (carrier === undefined ? [] : Object.keys(carrier)),
  get: (carrier, key) => {
    const value = carrier?.[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const metaSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** `{mcp.method.name} {target}`: the tool or prompt name; a resource URI is left out (high cardinality). */
const targetOf = (method: string, params: Readonly<Record<string, unknown>> | undefined): string | undefined => {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  const name = params?.['name'];
  return typeof name === 'string' ? name : undefined;
};

/** The MCP semantic conventions' attributes of a request (`gen_ai.*` for what names a tool or prompt). */
const attributesOf = (method: string, params: Readonly<Record<string, unknown>> | undefined, target: string | undefined): Attributes => {
  const attributes: Attributes = { 'mcp.method.name': method };
  if (method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
  const uri = params?.['uri'];
  if (method === 'resources/read' && typeof uri === 'string') attributes['mcp.resource.uri'] = uri;
  return attributes;
};

const ended = (span: Span, error: string | undefined): void => {
  if (error !== undefined) {
    span.setAttribute('error.type', error);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
};

class StartedSpan implements BackendCallSpan {
  readonly context: Context;
  private readonly span: Span;
  private readonly propagator: TextMapPropagator;

  constructor(span: Span, parent: Context, propagator: TextMapPropagator) {
    this.span = span;
    this.context = trace.setSpan(parent, span);
    this.propagator = propagator;
  }

  end(error?: string): void {
    ended(this.span, error);
  }

  meta(meta: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
    const carrier: Record<string, unknown> = { ...meta };
    // The caller's own trace context is replaced by this call's, not merged with it.
    delete carrier['traceparent'];
    delete carrier['tracestate'];
    this.propagator.inject(this.context, carrier, metaSetter);
    return carrier;
  }
}

/** The W3C trace context of a request's `_meta` (`traceparent`, `tracestate`); the root context when it has none. */
export const extractTraceContext = (meta: unknown, propagator: TextMapPropagator = propagation): Context =>
  isObject(meta) && typeof meta['traceparent'] === 'string' ? propagator.extract(ROOT_CONTEXT, meta, metaGetter) : ROOT_CONTEXT;

/**
 * Spans for MCP requests after the OpenTelemetry MCP semantic conventions: a SERVER span per request
 * handled, its parent read from the request's `_meta`, and a CLIENT span per request a gateway sends
 * to a backend, whose context the backend's request carries in its `_meta`. Only `@opentelemetry/api`:
 * whoever starts the process chooses the SDK (the propagator is the global one unless given).
 */
export const createMcpTracing = (tracer: Tracer, propagator: TextMapPropagator = propagation): McpTracing => ({
  request: (request: TracedRequest): RequestSpan => {
    const { method, params } = request;
    const parent = extractTraceContext(isObject(params) ? params['_meta'] : undefined, propagator);
    const target = targetOf(method, params);
    const attributes = attributesOf(method, params, target);
    if (request.id !== undefined) attributes['jsonrpc.request.id'] = String(request.id);
    if (request.sessionId !== undefined) attributes['mcp.session.id'] = request.sessionId;
    if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
    if (request.transport !== undefined) attributes['network.transport'] = request.transport;
    const span = tracer.startSpan(target === undefined ? method : `${method} ${target}`, { kind: SpanKind.SERVER, attributes }, parent);
    return new StartedSpan(span, parent, propagator);
  },
  backendCall: (parent: Context | undefined, call: TracedCall): BackendCallSpan => {
    const { method, params } = call;
    const target = targetOf(method, params);
    const attributes = attributesOf(method, params, target);
    attributes['promptyard.backend'] = call.backend;
    const context = parent ?? ROOT_CONTEXT;
    const span = tracer.startSpan(target === undefined ? method : `${method} ${target}`, { kind: SpanKind.CLIENT, attributes }, context);
    return new StartedSpan(span, context, propagator);
  },
  traceId: (context: Context): string | undefined => trace.getSpanContext(context)?.traceId,
});
