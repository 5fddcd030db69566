import type { AuditDecision } from './audit.js';
import type { ClusterStatus } from './cluster.js';
import type { SectionSpec } from '../config/config-fields.js';

/**
 * The metrics contract: what the serving layers (`@promptyard/mcp`, the gateway's router, the apps)
 * report, free of any metrics library. `@promptyard/telemetry` implements it with Prometheus
 * instruments; without it nothing is measured and the serving paths take no timing at all.
 */

/** How a request ended: `ok`, `tool_error` (an `isError` tool result), or its JSON-RPC error's class. */
export type RequestOutcome =
  | 'ok'
  | 'tool_error'
  | 'parse_error'
  | 'invalid_request'
  | 'method_not_found'
  | 'invalid_params'
  | 'internal_error'
  | 'resource_not_found'
  | 'server_error'
  | 'error';

/** Ends a timed operation. */
export type RequestDone = (outcome: RequestOutcome) => void;

/** One gateway backend as a scrape sees it. */
export interface BackendSample {
  readonly id: string;
  readonly state: string;
  readonly restarts: number;
  readonly inFlight: number;
}

/** A Prometheus text exposition. */
export interface MetricsScrape {
  readonly contentType: string;
  readonly body: string;
}

export interface Metrics {
  /** An MCP request started; call the result once, when it is answered. */
  request(method: string): RequestDone;
  /** A gateway call to `backend` started; call the result when it ends. */
  backendCall(backend: string): () => void;
  /** A gateway backend sent a message over `[limits] max_message_bytes`, which was dropped. */
  oversizedMessage(backend: string): void;
  /** The gateway's backends, read at each scrape. */
  backends(read: () => readonly BackendSample[]): void;
  /** The HTTP endpoint's open 2025 sessions and SSE streams, read at each scrape. */
  http(read: { sessions(): number; streams(): number }): void;
  /** The shared store's status (`[cluster] redis_url`), read at each scrape. */
  cluster(read: () => ClusterStatus): void;
  /** The number of prompts served, read at each scrape. */
  catalog(read: () => number): void;
  /** A hot reload applied a batch of changes; `failures` files in it did not load. */
  reloaded(failures: number): void;
  /** The gateway decided on a call (the audit trail's `decision`), through `profile`. */
  decided(decision: AuditDecision, profile: string): void;
  scrape(): Promise<MetricsScrape>;
}

/** JSON-RPC error code → outcome label: a bounded set, whatever codes backends send. */
export const outcomeOfCode = (code: unknown): RequestOutcome => {
  switch (code) {
    case -32700:
      return 'parse_error';
    case -32600:
      return 'invalid_request';
    case -32601:
      return 'method_not_found';
    case -32602:
      return 'invalid_params';
    case -32603:
      return 'internal_error';
    case -32002:
      return 'resource_not_found';
    default:
      return typeof code === 'number' && code <= -32000 && code >= -32099 ? 'server_error' : 'error';
  }
};

/** `[telemetry]` of both binaries. */
export const telemetrySection = {
  metrics: {
    type: 'boolean',
    default: true,
    doc: 'Serve Prometheus metrics at /metrics on the HTTP endpoint, behind its token or [auth] (PROMPTYARD_TELEMETRY_METRICS).',
  },
  metrics_bind: {
    type: 'string',
    doc: 'host:port of a listener of its own for /metrics, without auth, on any transport (stdio too), e.g. 127.0.0.1:9464; the HTTP endpoint then serves no /metrics (PROMPTYARD_TELEMETRY_METRICS_BIND).',
  },
  otlp_endpoint: {
    type: 'string',
    doc: 'Base URL of an OTLP/HTTP receiver (a collector), e.g. http://127.0.0.1:4318: a span per request is exported to <url>/v1/traces (a URL ending in /v1/traces is used as is); unset: no traces (PROMPTYARD_TELEMETRY_OTLP_ENDPOINT).',
  },
  service_name: {
    type: 'string',
    doc: "The traces' service.name (default: promptyard-server, or promptyard-gateway) (PROMPTYARD_TELEMETRY_SERVICE_NAME).",
  },
} as const satisfies SectionSpec;
