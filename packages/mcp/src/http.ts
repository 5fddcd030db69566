import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { createRateLimiter } from './rate-limit.js';
import { loadServerSdk } from './sdk.js';
import type { McpServerBlueprint } from './server.js';

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
  readonly maxBodyBytes: number;
  readonly rateLimit?: { readonly requestsPerMinute: number; readonly burst: number } | undefined;
  /** 2025-era sessions kept at most; the least recently used is closed beyond it. */
  readonly maxSessions?: number;
  /** A 2025-era session unused for this long is closed. */
  readonly sessionIdleMs?: number;
  /** Extra fields for `GET /health`. */
  readonly health?: () => Readonly<Record<string, unknown>>;
}

export interface HttpHandle {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);
export const isLoopbackHost = (host: string): boolean => loopbackHosts.has(host) || host.startsWith('127.');

const jsonError = (status: number, code: number, message: string, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

interface LegacySession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  lastUsed: number;
}

/**
 * Streamable HTTP on one endpoint for both protocol eras: 2026-07-28 requests are served statelessly
 * by the SDK's per-request handler; 2025-era clients get sessions (`Mcp-Session-Id`) with a standalone
 * SSE stream for notifications. In front of both: Host/Origin checks, an optional bearer token, a
 * per-client token bucket, a body cap and `/health`.
 */
export const serveHttp = async (blueprint: McpServerBlueprint, options: HttpServeOptions): Promise<HttpHandle> => {
  const {
    createMcpHandler,
    hostHeaderValidationResponse,
    isInitializeRequest,
    isLegacyRequest,
    legacyStatelessFallback,
    localhostAllowedHostnames,
    localhostAllowedOrigins,
    originValidationResponse,
    WebStandardStreamableHTTPServerTransport: Transport,
  } = await loadServerSdk();
  const { logger } = blueprint;
  const path = options.path ?? '/mcp';
  const loopback = isLoopbackHost(options.host);
  const allowedHosts = [...(options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : [options.host]))];
  const allowedOrigins = [...(options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : [options.host]))];
  const expectedToken = options.authToken === undefined || options.authToken === '' ? undefined : digest(options.authToken);
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const maxSessions = options.maxSessions ?? 1000;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const startedAt = Date.now();

  const modern = createMcpHandler(blueprint.factory(false), {
    legacy: 'reject',
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => logger.debug('http request rejected', { reason: error.message }),
  });
  const stopModernNotifications = blueprint.onListChanged((list) => {
    if (list === 'prompts') modern.notify.promptsChanged();
    else if (list === 'tools') modern.notify.toolsChanged();
    else modern.notify.resourcesChanged();
  });
  const stopResourceUpdates = blueprint.onResourceUpdated?.((uri) => modern.notify.resourceUpdated(uri));
  const statelessLegacy = legacyStatelessFallback(blueprint.factory(false), (error) => logger.debug('legacy request failed', { reason: error.message }), {
    maxRequestBodySize: options.maxBodyBytes,
  });

  const sessions = new Map<string, LegacySession>();
  const closeSession = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  };
  const sweep = setInterval(() => {
    const cutoff = Date.now() - sessionIdleMs;
    for (const [id, session] of sessions) if (session.lastUsed < cutoff) void closeSession(id);
  }, Math.min(60_000, sessionIdleMs));
  sweep.unref();

  const serveLegacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const withBody = parsedBody === undefined ? undefined : { parsedBody };
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined) return jsonError(404, -32001, 'Session not found: it expired or the server restarted. Start a new session with initialize.');
      session.lastUsed = Date.now();
      // Keep the map in least-recently-used order.
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      return session.transport.handleRequest(request, withBody);
    }
    if (request.method === 'POST') {
      const body = parsedBody;
      if (isInitializeRequest(body)) {
        if (sessions.size >= maxSessions) {
          const oldest = sessions.keys().next().value;
          if (oldest !== undefined) await closeSession(oldest);
        }
        const server = blueprint.create({ live: true });
        const transport = new Transport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, { transport, server, lastUsed: Date.now() });
          },
          onsessionclosed: (id) => {
            sessions.delete(id);
          },
          maxRequestBodySize: options.maxBodyBytes,
        });
        transport.onclose = () => {
          if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        return transport.handleRequest(request, { parsedBody: body });
      }
    }
    // A 2025-era request outside any session: answer it statelessly.
    return statelessLegacy(request, withBody);
  };

  const authorized = (request: Request): boolean => {
    if (expectedToken === undefined) return true;
    const match = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '');
    return match !== null && timingSafeEqual(digest((match[1] as string).trim()), expectedToken);
  };

  const route = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const rejected = hostHeaderValidationResponse(request, allowedHosts) ?? originValidationResponse(request, allowedOrigins);
    if (rejected !== undefined && rejected !== null) {
      logger.warn('rejected request from a host or origin that is not allowed', {
        host: request.headers.get('host') ?? undefined,
        origin: request.headers.get('origin') ?? undefined,
      });
      return rejected;
    }
    if (url.pathname === '/health') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
      // With a token configured, the details (server names, errors) are for token holders only;
      // an orchestrator's unauthenticated probe still learns that the process is up.
      const detailed = expectedToken === undefined || authorized(request);
      const body = { status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), ...(detailed ? { sessions: sessions.size, ...options.health?.() } : {}) };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
    }
    if (url.pathname !== path) return new Response(`Not found: the MCP endpoint is ${path}`, { status: 404, headers: { 'content-type': 'text/plain' } });
    if (expectedToken !== undefined) {
      if (!authorized(request)) {
        return jsonError(401, -32001, 'Unauthorized: send the server token as "Authorization: Bearer <token>".', {
          'www-authenticate': 'Bearer realm="promptyard"',
        });
      }
    }
    // The body is read and parsed once here, then handed to whichever handler serves the request.
    let parsedBody: unknown;
    if (request.method === 'POST' && (request.headers.get('content-type') ?? '').includes('json')) {
      const text = await request.text();
      if (Buffer.byteLength(text) > options.maxBodyBytes) return jsonError(413, -32600, `Request body is over the ${options.maxBodyBytes}-byte limit ([transport] max_body_bytes).`);
      try {
        parsedBody = JSON.parse(text);
      } catch {
        return jsonError(400, -32700, 'Parse error: the request body is not valid JSON.');
      }
    }
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: options.maxBodyBytes })) return serveLegacy(request, parsedBody);
    return modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
  };

  // Loaded here, not at import: a stdio server never pays for the HTTP adapter.
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const nodeHandler = toNodeHandler(
    { fetch: route },
    {
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => logger.error('http handler failed', { reason: error.message }),
    },
  );

  const httpServer = createServer((req, res) => {
    if (limiter !== undefined) {
      const wait = limiter.take(req.socket.remoteAddress ?? 'unknown');
      if (wait > 0) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(wait) });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Too many requests: retry after ${wait} s.` }, id: null }));
        return;
      }
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Request body of ${declared} bytes is over the ${options.maxBodyBytes}-byte limit ([transport] max_body_bytes).` }, id: null }));
      req.resume();
      return;
    }
    // IncomingMessage always has a method on a server request; the SDK type says so strictly.
    nodeHandler(req as NodeIncomingMessageLike, res).catch((error: unknown) => {
      logger.error('http request failed', { reason: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  httpServer.on('error', (error) => logger.error('http server error', { reason: error.message }));
  const address = httpServer.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}${path}`;

  return {
    url,
    port: address.port,
    host: address.address,
    close: async () => {
      clearInterval(sweep);
      stopModernNotifications();
      stopResourceUpdates?.();
      await Promise.all([...sessions.keys()].map((id) => closeSession(id)));
      await modern.close().catch(() => {});
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
};
