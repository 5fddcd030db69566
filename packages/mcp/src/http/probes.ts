import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Cluster, Metrics } from '@promptyard/core';
import type { HttpAuthGate } from './auth-gate.js';
import { methodNotAllowed } from './messages.js';

/** What `GET /health` reports. */
export interface HealthSource {
  readonly startedAt: number;
  readonly sessions: { readonly size: number };
  readonly cluster: Cluster | undefined;
  /** Extra fields, for callers who may use the server. */
  readonly extra: (() => Readonly<Record<string, unknown>>) | undefined;
}

/** `GET /health`: that the process is up, and details for callers who may use the server. */
export const serveHealth = async (health: HealthSource, gate: HttpAuthGate, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
  // With a token or OAuth configured, the details (server names, errors) are for callers who may use the server;
  // an orchestrator's unauthenticated probe still learns that the process is up.
  const detailed = !gate.required || (await gate.accepts(req));
  const { cluster } = health;
  // A node whose cluster store is unreachable still serves: `degraded`, with 200 so that the balancer keeps it.
  const shared = cluster?.status();
  const body = {
    status: shared === undefined || shared === 'ready' ? 'ok' : 'degraded',
    uptimeSeconds: Math.round((Date.now() - health.startedAt) / 1000),
    ...(detailed
      ? {
          sessions: health.sessions.size,
          ...(cluster === undefined ? {} : { cluster: { node: cluster.nodeId, store: shared } }),
          ...health.extra?.(),
        }
      : {}),
  };
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
};

/** `GET /metrics`, behind the endpoint's token or OAuth like any MCP request. */
export const serveMetrics = async (gate: HttpAuthGate, req: IncomingMessage, res: ServerResponse, metrics: Metrics): Promise<void> => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
  if ((await gate.check(req, res)) === undefined) return;
  const { contentType, body } = await metrics.scrape();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
};
