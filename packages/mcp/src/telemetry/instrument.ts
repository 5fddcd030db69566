/**
 * Telemetry of the serving paths: every request handler and the relay timed into `Metrics` and
 * traced through `McpTracing` (OpenTelemetry, loaded by `loadMcpTracing`), each only when it is on:
 * without metrics or traces nothing is wrapped and the paths never call into either.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { Metrics } from '@promptyard/core';
import type { McpRelay } from '../handlers.js';
import { timedHandler, timedRelay } from './request-metrics.js';
import { tracedHandler, tracedRelay } from './request-tracing.js';
import type { McpTracing, TraceContext } from './tracing-types.js';

type AnyHandler = (request: never, ctx: never) => unknown;

/** Wraps every request handler registered on `server` from now on (the handler is the last argument, after the schemas in the custom-method form). */
const wrapHandlers = (server: Server, wrap: (method: string, handler: AnyHandler) => unknown): void => {
  const register = server.setRequestHandler.bind(server) as unknown as (method: string, ...rest: unknown[]) => void;
  (server as { setRequestHandler: unknown }).setRequestHandler = (method: string, ...rest: unknown[]) =>
    register(method, ...rest.slice(0, -1), wrap(method, rest.at(-1) as AnyHandler));
};

export interface ServerTelemetry {
  readonly metrics: Metrics | undefined;
  readonly tracing: McpTracing | undefined;
  /** Each traced request's span context, by the SDK's context object; `undefined` without tracing. */
  readonly traces: WeakMap<object, TraceContext> | undefined;
  /** The `_meta` key of a request's protocol version, for its span. */
  readonly versionKey: string;
}

/** Every handler registered on `server` from now on (the skills' too) is timed, and traced inside the timing. */
export const instrumentServer = (server: Server, telemetry: ServerTelemetry): void => {
  const { metrics, tracing, traces, versionKey } = telemetry;
  if (metrics !== undefined) wrapHandlers(server, (method, handler) => timedHandler(metrics, method, handler));
  if (tracing !== undefined && traces !== undefined) {
    wrapHandlers(server, (method, handler) => tracedHandler(tracing, method, handler, traces, versionKey));
  }
};

/** The relay, timed with metrics and traced with traces (each only when on). */
export const instrumentRelay = (
  relay: McpRelay | undefined,
  metrics: Metrics | undefined,
  tracing: McpTracing | undefined,
): McpRelay | undefined => {
  if (relay === undefined) return undefined;
  const timed = metrics === undefined ? relay : timedRelay(relay, metrics);
  return tracing === undefined ? timed : tracedRelay(timed, tracing);
};
