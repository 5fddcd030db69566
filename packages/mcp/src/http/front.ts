import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Cluster, Identity, Logger, Metrics } from '@promptyard/core';
import type { ClientRosterFeed } from './client-roster.js';
import type { ServerSdk } from '../sdk.js';
import type { HttpAuthGate } from './auth-gate.js';
import type { HostCheck } from './host-check.js';
import { identityOfAuthInfo } from './auth-identity.js';
import { headerOf, sendJsonError } from './messages.js';
import { serveHealth, serveMetrics, type HealthSource } from './probes.js';
import { clientAddress, type RateLimiter } from './rate-limit.js';
import type { HttpMount, HttpRoute } from './options.js';
import type { HttpRelay } from './tool-relay.js';
import { adoptTraceHeaders } from './trace-headers.js';

/** What the front's steps read: made once per endpoint. */
export interface HttpFront {
  readonly sdk: typeof ServerSdk;
  readonly logger: Logger;
  /** The MCP endpoint's path (the first of `endpoints`). */
  readonly path: string;
  /** Every MCP endpoint by its path: what serves its requests. */
  readonly endpoints: ReadonlyMap<string, FrontEndpoint>;
  readonly maxBodyBytes: number;
  /** The Host and Origin check, which tells the operator once per refused name how to accept it. */
  readonly hostCheck: HostCheck;
  readonly rateLimit: RateLimitStep | undefined;
  readonly cluster: Cluster | undefined;
  readonly gate: HttpAuthGate;
  readonly health: HealthSource;
  /** Served at `GET /metrics`: present only when asked to. */
  readonly servedMetrics: Metrics | undefined;
  /** The endpoint's open SSE streams, counted only with metrics. */
  readonly streams: { track(res: ServerResponse): void } | undefined;
  /** Traces are exported: a request's `traceparent` header joins its trace. */
  readonly traced: boolean;
  /** Requests that are not MCP, by path, each checking its own credentials. */
  readonly routes: ReadonlyMap<string, HttpRoute>;
  /** Applications under a path prefix (`/console`), each authenticating itself. */
  readonly mounts: readonly HttpMount[];
  /** Who is connected: each 2026-07-28 request is noted there (a 2025-era session counts its own). */
  readonly clients: Pick<ClientRosterFeed, 'note'>;
}

/** One MCP endpoint behind the front: its `tools/call` relay and the SDK's path for everything else. */
export interface FrontEndpoint {
  /** Who may use it (after authentication): a refusal's reason, or `undefined`. */
  readonly admit: ((caller: Identity | undefined) => string | undefined) | undefined;
  readonly relay: HttpRelay | undefined;
  /** The SDK's path, for everything the relay does not answer. */
  readonly sdkPath: (req: NodeIncomingMessageLike, res: ServerResponse, parsedBody?: unknown) => Promise<void>;
}

interface RateLimitStep {
  readonly limiter: RateLimiter;
  readonly options: { readonly requestsPerMinute: number; readonly burst: number };
  readonly trustedProxies: ReadonlySet<string>;
}

/** The seconds the client must wait; in a cluster the bucket is shared, and while the store is unreachable each node counts on its own. */
const rateWait = (front: HttpFront, step: RateLimitStep, req: IncomingMessage): number | Promise<number> => {
  const client = clientAddress(req.socket.remoteAddress, headerOf(req, 'x-forwarded-for'), step.trustedProxies);
  const { cluster } = front;
  if (cluster === undefined) return step.limiter.take(client);
  return cluster.takeToken(client, step.options).catch(() => step.limiter.take(client));
};

const refuseRate = (res: ServerResponse, wait: number): boolean => {
  if (wait <= 0) return false;
  sendJsonError(res, 429, -32000, `Too many requests: retry after ${wait} s.`, { 'retry-after': String(wait) });
  return true;
};

/** A body declared over the limit is refused before it is read. */
const refuseDeclaredSize = (front: HttpFront, req: IncomingMessage, res: ServerResponse): boolean => {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (!Number.isFinite(declared) || declared <= front.maxBodyBytes) return false;
  const message = `Request body of ${declared} bytes is over the ${front.maxBodyBytes}-byte limit ([transport] max_body_bytes).`;
  sendJsonError(res, 413, -32600, message, { connection: 'close' });
  req.resume();
  return true;
};

const pathnameOf = (req: IncomingMessage): string => {
  const target = req.url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
};

/** A body the front already answered (over the limit, or not JSON): the request goes no further. */
const refusedBody: unique symbol = Symbol('refused body');

/** Only a JSON POST has a body the front reads: anything else goes to the SDK as it came. */
const hasJsonBody = (req: IncomingMessage): boolean => req.method === 'POST' && (headerOf(req, 'content-type') ?? '').includes('json');

/** The request body's bytes; `undefined` once it passes `limit` bytes (the rest is not kept), `null` if the client went away first. */
const readRawBody = (req: IncomingMessage, limit: number): Promise<Buffer | undefined | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('close', () => resolve(null));
    req.once('error', reject);
  });

/** The request body as text, as `readRawBody` reads it. */
const readBody = async (req: IncomingMessage, limit: number): Promise<string | undefined | null> => {
  const bytes = await readRawBody(req, limit);
  return bytes == null ? bytes : bytes.toString('utf8');
};

/** A request to one of the `routes` (a signed webhook): its own credentials, its own answer. */
const serveRoute = async (front: HttpFront, route: HttpRoute, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const body = await readRawBody(req, front.maxBodyBytes);
  if (body === null) return;
  if (body === undefined) {
    sendJsonError(res, 413, -32600, `Request body is over the ${front.maxBodyBytes}-byte limit ([transport] max_body_bytes).`);
    return;
  }
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );
  const answer = await route.handle(headers, body);
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
};

/** The body parsed once, for the relay and the SDK alike; `refusedBody` once the refusal is written. */
const parseBody = (res: ServerResponse, text: string | undefined, maxBodyBytes: number): unknown => {
  if (text === undefined) {
    sendJsonError(res, 413, -32600, `Request body is over the ${maxBodyBytes}-byte limit ([transport] max_body_bytes).`);
    return refusedBody;
  }
  try {
    return JSON.parse(text);
  } catch {
    sendJsonError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    return refusedBody;
  }
};

/** An authenticated MCP request: the SDK's Node adapter hands `req.auth` on to handlers as `authInfo`. */
const admit = (front: HttpFront, req: IncomingMessage, res: ServerResponse, authInfo: AuthInfo): void => {
  if (front.gate.required) (req as NodeIncomingMessageLike).auth = authInfo;
  front.streams?.track(res);
};

/**
 * Every request passes these steps, once, on Node's request, each answering it or passing it on: rate,
 * declared size, Host and Origin, the webhook routes and mounted applications (`/console`, which authenticate
 * themselves), `/health`, `/metrics`, OAuth metadata, the endpoint path, the token;
 * then the body is read and parsed once, trace headers are adopted, and the relay answers what it can.
 * Everything else goes on, body already parsed, to the SDK's path.
 */
const handleRequest = async (front: HttpFront, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const { rateLimit } = front;
  if (rateLimit !== undefined) {
    const wait = rateWait(front, rateLimit, req);
    if (refuseRate(res, typeof wait === 'number' ? wait : await wait)) return;
  }
  if (refuseDeclaredSize(front, req, res) || front.hostCheck.refuse(req, res)) return;
  const pathname = pathnameOf(req);
  const route = front.routes.get(pathname);
  if (route !== undefined && req.method === route.method) return serveRoute(front, route, req, res);
  const mount = front.mounts.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  if (mount !== undefined) return mount.handle(req, res);
  if (pathname === '/health') return serveHealth(front.health, front.gate, req, res);
  if (pathname === '/metrics' && front.servedMetrics !== undefined) return serveMetrics(front.gate, req, res, front.servedMetrics);
  if (front.gate.metadata(req, res, pathname)) return;
  const endpoint = front.endpoints.get(pathname);
  if (endpoint === undefined) {
    const paths = [...front.endpoints.keys()];
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(paths.length === 1 ? `Not found: the MCP endpoint is ${front.path}` : `Not found: the MCP endpoints are ${paths.join(', ')}`);
    return;
  }
  const authInfo = await front.gate.check(req, res);
  if (authInfo === undefined) return;
  const identity = identityOfAuthInfo(authInfo);
  const refusal = endpoint.admit?.(identity);
  if (refusal !== undefined) {
    sendJsonError(res, 403, -32000, refusal);
    return;
  }
  admit(front, req, res, authInfo);
  let parsedBody: unknown;
  if (hasJsonBody(req)) {
    const text = await readBody(req, front.maxBodyBytes);
    if (text === null) return;
    parsedBody = parseBody(res, text, front.maxBodyBytes);
    if (parsedBody === refusedBody) return;
    front.clients.note(pathname, identity?.subject, parsedBody);
    if (front.traced) adoptTraceHeaders(req, parsedBody);
    if (endpoint.relay?.(req, res, parsedBody) === true) return;
  }
  // IncomingMessage always has a method on a server request; the SDK type says so strictly.
  await endpoint.sdkPath(req as NodeIncomingMessageLike, res, parsedBody);
};

/** Node's request listener for the endpoint: every request through the steps above; a step that throws is logged and answered 500. */
export const frontListener =
  (front: HttpFront) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    handleRequest(front, req, res).catch((error: unknown) => {
      front.logger.error('http request failed', { reason: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
