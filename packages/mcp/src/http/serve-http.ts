/**
 * Serving over Streamable HTTP: `serveHttp`, the front every request passes in order (rate limit, body
 * size, Host and Origin, `/health`, `/metrics`, OAuth metadata, authentication, body parsing, trace
 * headers), the `tools/call` relay, and the routing to the SDK's 2026-07-28 handler or to 2025-era sessions.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { PromptyardError } from '@promptyard/core';
import type { Authenticator, Cluster, Metrics } from '@promptyard/core';
import { announceChanges, announceLocally } from '../cluster/cluster-changes.js';
import { createHttpAuthGate } from './auth-gate.js';
import { identityOfAuthInfo } from './auth-identity.js';
import { createHttpRelay } from './tool-relay.js';
import { createLegacySessions } from '../sessions/legacy-sessions.js';
import { adoptTraceHeaders } from './trace-headers.js';
import { createStreamCounter } from './stream-counter.js';
import { clientAddress, createRateLimiter } from './rate-limit.js';
import { loadServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';

export interface HttpServeOptions {
  readonly host: string;
  /** 0 picks a free port; the handle reports the one bound. */
  readonly port: number;
  readonly path?: string;
  /** Host header names accepted (DNS-rebinding protection); loopback names by default on a loopback bind. */
  readonly allowedHosts?: readonly string[];
  /** Origin host names accepted from browsers; loopback names by default. Requests without Origin pass. */
  readonly allowedOrigins?: readonly string[];
  /** When set, every MCP request needs `Authorization: Bearer <token>`. */
  readonly authToken?: string | undefined;
  /**
   * OAuth resource-server mode: every MCP request needs an access token this authenticator accepts;
   * RFC 9728 metadata is served under `/.well-known/oauth-protected-resource`. The static token, when
   * also set, is still accepted.
   */
  readonly auth?: Authenticator | undefined;
  /** The URL clients reach the endpoint at (behind a proxy): the OAuth resource. Default: the URL bound. */
  readonly publicUrl?: string | undefined;
  readonly maxBodyBytes: number;
  /**
   * A token bucket per client. Behind proxies listed in `trustedProxies` (addresses), the client is
   * the one their `X-Forwarded-For` names; else the connecting address.
   */
  readonly rateLimit?:
    { readonly requestsPerMinute: number; readonly burst: number; readonly trustedProxies?: readonly string[] | undefined } | undefined;
  /** 2025-era sessions kept at most; the least recently used is closed beyond it. */
  readonly maxSessions?: number;
  /** A 2025-era session unused for this long is closed. */
  readonly sessionIdleMs?: number;
  /** Extra fields for `GET /health`. */
  readonly health?: () => Readonly<Record<string, unknown>>;
  /** Where the endpoint's sessions and streams are counted. */
  readonly metrics?: Metrics | undefined;
  /** Serve `metrics` at `GET /metrics`, behind the same token or OAuth as the endpoint (unless they have a listener of their own). */
  readonly serveMetrics?: boolean | undefined;
  /**
   * Replicas behind one load balancer (`[cluster] redis_url`): 2025 sessions, resumable SSE, change
   * notifications, answers to server→client requests and the rate limit are shared through it.
   */
  readonly cluster?: Cluster | undefined;
}

export interface HttpHandle {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);
export const isLoopbackHost = (host: string): boolean => loopbackHosts.has(host) || host.startsWith('127.');

/** The same answer written straight to Node's response, for the checks made before any `Request` exists. */
const sendJsonError = (res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
};

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The request body; `undefined` once it passes `limit` bytes (the rest is not kept), `null` if the client went away first. */
const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined | null> =>
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
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('close', () => resolve(null));
    req.once('error', reject);
  });

/**
 * Streamable HTTP on one endpoint for both protocol eras: 2026-07-28 requests are served statelessly
 * by the SDK's per-request handler; 2025-era clients get sessions (`Mcp-Session-Id`) with a standalone
 * SSE stream for notifications. In front of both: Host/Origin checks, an optional bearer token, a
 * per-client token bucket, a body cap and `/health`.
 */
export const serveHttp = async (blueprint: McpServerBlueprint, options: HttpServeOptions): Promise<HttpHandle> => {
  const sdk = await loadServerSdk();
  const {
    createMcpHandler,
    isInitializeRequest,
    isLegacyRequest,
    legacyStatelessFallback,
    localhostAllowedHostnames,
    localhostAllowedOrigins,
    validateHostHeader,
    validateOriginHeader,
  } = sdk;
  const { logger } = blueprint;
  const path = options.path ?? '/mcp';
  const loopback = isLoopbackHost(options.host);
  const allowedHosts = [...(options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : [options.host]))];
  const allowedOrigins = [...(options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : [options.host]))];
  let boundUrl = '';
  const gate = createHttpAuthGate({
    sdk,
    authToken: options.authToken,
    authenticator: options.auth,
    resource: () => options.publicUrl ?? boundUrl,
    path,
    logger,
  });
  const { cluster } = options;
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const trustedProxies = new Set(options.rateLimit?.trustedProxies ?? []);
  const startedAt = Date.now();

  const modern = createMcpHandler(blueprint.factory(false), {
    legacy: 'reject',
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => logger.debug('http request rejected', { reason: error.message }),
    // In a cluster, `subscriptions/listen` streams on every node hear the changes any node announces.
    ...(cluster === undefined ? {} : { bus: cluster.bus }),
  });
  const sessions = createLegacySessions({
    sdk,
    blueprint,
    logger,
    maxSessions: options.maxSessions ?? 1000,
    sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxBodyBytes: options.maxBodyBytes,
    cluster,
  });
  const stopNotifications =
    cluster === undefined
      ? announceLocally(blueprint, modern.notify)
      : announceChanges({
          cluster,
          blueprint,
          notify: modern.notify,
          logger,
          local: (message) => {
            for (const session of sessions.local()) session.server.notification(message as never).catch(() => {});
          },
        });
  const statelessLegacy = legacyStatelessFallback(
    blueprint.factory(false),
    (error) => logger.debug('legacy request failed', { reason: error.message }),
    {
      maxRequestBodySize: options.maxBodyBytes,
    },
  );

  /** The endpoint's open SSE streams, counted only with metrics. */
  const streams = options.metrics === undefined ? undefined : createStreamCounter();
  if (streams !== undefined) options.metrics?.http({ sessions: () => sessions.size, streams: () => streams.size });
  if (cluster !== undefined) options.metrics?.cluster(() => cluster.status());

  const serveLegacy = async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const subject = identityOfAuthInfo(authInfo)?.subject;
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return sessions.serve(sessionId, request, parsedBody, authInfo, subject);
    if (request.method === 'POST' && isInitializeRequest(parsedBody)) return sessions.open(request, parsedBody, authInfo, subject);
    // A 2025-era request outside any session: answer it statelessly.
    const withBody = { ...(parsedBody === undefined ? {} : { parsedBody }), ...(authInfo === undefined ? {} : { authInfo }) };
    return statelessLegacy(request, withBody);
  };

  // The HTTP front relays `tools/call` alone (`createHttpRelay`); a relay of other requests serves stdio only.
  const mcpRelay = blueprint.governed || blueprint.relay?.methods.includes('tools/call') !== true ? undefined : blueprint.relay;
  const relay =
    mcpRelay === undefined
      ? undefined
      : createHttpRelay({
          sdk,
          relay: mcpRelay,
          serverInfo: blueprint.serverInfo,
          sessionChannel: (id, req) => {
            const session = sessions.use(id);
            if (session === undefined || session.subject !== identityOfAuthInfo((req as NodeIncomingMessageLike).auth)?.subject)
              return undefined;
            return (session.channel ??= mcpRelay.open(blueprint.clientOf(session.server)));
          },
        });

  /** The SDK's path: 2025-era requests to sessions or the stateless fallback, 2026-07-28 ones to the modern handler. */
  const route = async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: options.maxBodyBytes }))
      return serveLegacy(request, parsedBody, authInfo);
    return modern.fetch(request, { ...(parsedBody === undefined ? {} : { parsedBody }), ...(authInfo === undefined ? {} : { authInfo }) });
  };

  // Loaded here, not at import: a stdio server never pays for the HTTP adapter.
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const nodeHandler = toNodeHandler(
    { fetch: (request, requestOptions) => route(request, requestOptions?.parsedBody, requestOptions?.authInfo) },
    {
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => logger.error('http handler failed', { reason: error.message }),
    },
  );

  /** `GET /metrics`, behind the endpoint's token or OAuth like any MCP request. */
  const serveMetrics = async (req: IncomingMessage, res: ServerResponse, metrics: Metrics): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    if ((await gate.check(req, res)) === undefined) return;
    const { contentType, body } = await metrics.scrape();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
  };

  /**
   * Every check happens here, once, on Node's request: rate, declared size, Host and Origin, `/health`,
   * the endpoint path, the token; then the body is read and parsed once. The relay answers what it can
   * from the parsed body; everything else goes on, body already parsed, to the SDK's path.
   */
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (limiter !== undefined && options.rateLimit !== undefined) {
      const client = clientAddress(req.socket.remoteAddress, headerOf(req, 'x-forwarded-for'), trustedProxies);
      // In a cluster the bucket is shared; while the store is unreachable each node counts on its own.
      const wait =
        cluster === undefined ? limiter.take(client) : await cluster.takeToken(client, options.rateLimit).catch(() => limiter.take(client));
      if (wait > 0) {
        sendJsonError(res, 429, -32000, `Too many requests: retry after ${wait} s.`, { 'retry-after': String(wait) });
        return;
      }
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      sendJsonError(
        res,
        413,
        -32600,
        `Request body of ${declared} bytes is over the ${options.maxBodyBytes}-byte limit ([transport] max_body_bytes).`,
        { connection: 'close' },
      );
      req.resume();
      return;
    }
    const host = validateHostHeader(headerOf(req, 'host'), allowedHosts);
    const origin = host.ok ? validateOriginHeader(headerOf(req, 'origin'), allowedOrigins) : undefined;
    if (!host.ok || origin?.ok === false) {
      logger.warn('rejected request from a host or origin that is not allowed', {
        host: headerOf(req, 'host'),
        origin: headerOf(req, 'origin'),
      });
      sendJsonError(res, 403, -32000, host.ok ? (origin?.ok === false ? origin.message : '') : host.message);
      return;
    }
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    if (pathname === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
        return;
      }
      // With a token or OAuth configured, the details (server names, errors) are for callers who may use the server;
      // an orchestrator's unauthenticated probe still learns that the process is up.
      const detailed = !gate.required || (await gate.accepts(req));
      // A node whose cluster store is unreachable still serves: `degraded`, with 200 so that the balancer keeps it.
      const shared = cluster?.status();
      const body = {
        status: shared === undefined || shared === 'ready' ? 'ok' : 'degraded',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        ...(detailed
          ? {
              sessions: sessions.size,
              ...(cluster === undefined ? {} : { cluster: { node: cluster.nodeId, store: shared } }),
              ...options.health?.(),
            }
          : {}),
      };
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
      return;
    }
    if (pathname === '/metrics' && options.serveMetrics === true && options.metrics !== undefined) {
      await serveMetrics(req, res, options.metrics);
      return;
    }
    if (gate.metadata(req, res, pathname)) return;
    if (pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: the MCP endpoint is ${path}`);
      return;
    }
    const authInfo = await gate.check(req, res);
    if (authInfo === undefined) return;
    // The SDK's Node adapter hands `req.auth` on to handlers as `authInfo`.
    if (gate.required) (req as NodeIncomingMessageLike).auth = authInfo;
    streams?.track(res);
    let parsedBody: unknown;
    if (req.method === 'POST' && (headerOf(req, 'content-type') ?? '').includes('json')) {
      const text = await readBody(req, options.maxBodyBytes);
      if (text === null) return;
      if (text === undefined) {
        sendJsonError(res, 413, -32600, `Request body is over the ${options.maxBodyBytes}-byte limit ([transport] max_body_bytes).`);
        return;
      }
      try {
        parsedBody = JSON.parse(text);
      } catch {
        sendJsonError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
        return;
      }
      if (blueprint.tracing !== undefined) adoptTraceHeaders(req, parsedBody);
      if (relay?.(req, res, parsedBody) === true) return;
    }
    // IncomingMessage always has a method on a server request; the SDK type says so strictly.
    await nodeHandler(req as NodeIncomingMessageLike, res, parsedBody);
  };

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('http request failed', { reason: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      stopNotifications();
      void sessions.close();
      reject(
        error.code === 'EADDRINUSE'
          ? new PromptyardError('CONFIG_INVALID', `port ${options.port} is in use — choose another with --port or [transport] port`, {
              cause: error,
            })
          : error,
      );
    };
    httpServer.once('error', failed);
    httpServer.listen(options.port, options.host, () => {
      httpServer.off('error', failed);
      resolve();
    });
  });
  httpServer.on('error', (error) => logger.error('http server error', { reason: error.message }));
  const address = httpServer.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}${path}`;
  boundUrl = url;

  return {
    url,
    port: address.port,
    host: address.address,
    close: async () => {
      stopNotifications();
      await sessions.close();
      await modern.close().catch(() => {});
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
};
