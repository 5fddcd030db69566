import type { Context } from '@opentelemetry/api';

/** An OpenTelemetry context (`@opentelemetry/api`'s `Context`): the span a request's work belongs to. */
export type TraceContext = Context;

/** A request handled: what its SERVER span is named and described by. */
export interface TracedRequest {
  readonly method: string;
  /** The request's params: the tool or prompt named, the resource read, and `_meta.traceparent`. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  readonly id?: string | number | undefined;
  readonly sessionId?: string | undefined;
  readonly protocolVersion?: string | undefined;
  /** `pipe` (stdio) or `tcp` (HTTP). */
  readonly transport?: 'pipe' | 'tcp' | undefined;
}

/** A gateway's request to a backend. */
export interface TracedCall {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** The backend's id (`promptyard.backend`). */
  readonly backend: string;
}

export interface RequestSpan {
  /** The span's context: the parent of what the request does (a gateway's calls to its backends). */
  readonly context: TraceContext;
  /** Ends the span; `error` is the failure's `error.type` (a JSON-RPC code, `tool_error`, an error's name). */
  end(error?: string): void;
}

export interface BackendCallSpan extends RequestSpan {
  /** The `_meta` to send: `meta` with this call's `traceparent` (and `tracestate`) in place of the caller's. */
  meta(meta: Readonly<Record<string, unknown>> | undefined): Record<string, unknown>;
}

/**
 * Traces of MCP requests, present only when a binary exports traces: serving paths check for it once
 * per request and otherwise never call into OpenTelemetry.
 */
export interface McpTracing {
  /** Starts the SERVER span of a request, child of the trace context its `_meta` carries. */
  request(request: TracedRequest): RequestSpan;
  /** Starts the CLIENT span of a request to a backend, child of `parent` (the request being served). */
  backendCall(parent: TraceContext | undefined, call: TracedCall): BackendCallSpan;
  /** The trace id of a request's context (for audit lines), when it is in a sampled or remote trace. */
  traceId(context: TraceContext): string | undefined;
}
