/**
 * The Streamable HTTP serving the test backends share (test-server.mjs, the conformance
 * everything-server): on 127.0.0.1 at /mcp, 2025-era clients get a session each (a server instance
 * of their own), every other request goes to `modern` (the SDK's per-request 2026-07-28 handler).
 * Prints `listening on http://127.0.0.1:<port>/mcp` through `log`; SIGTERM and SIGINT close it.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

export const jsonRpcError = (status, code, message, id = null) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * @param {object} options
 * @param {number} options.port 0: any free port.
 * @param {(line: string) => void} options.log
 * @param {() => import('@modelcontextprotocol/server').Server} options.sessionInstance a server for one 2025-era session
 * @param {{ fetch(request: Request): Promise<Response> } | undefined} options.modern undefined: 2025-era sessions only
 * @param {(body: unknown, request: Request) => Response} options.outsideSession the answer to a request that is neither in a session nor an initialize
 * @param {(request: Request) => Promise<Response | undefined> | Response | undefined} [options.before] answers a request first when it returns a response
 */
export const serveBothEras = async ({ port, log, sessionInstance, modern, outsideSession, before }) => {
  const sessions = new Map();

  const serveSession = async (request) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return jsonRpcError(404, -32001, 'Session not found');
      return transport.handleRequest(request);
    }
    const body =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
    if (!isInitializeRequest(body)) return outsideSession(body, request);
    const server = sessionInstance();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
      onsessionclosed: (id) => sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };

  const route = async (request) => {
    if (new URL(request.url).pathname !== '/mcp') return new Response('Not found: the MCP endpoint is /mcp', { status: 404 });
    // Tests check what reaches a backend: whether a request carried a token (never its value).
    if (request.headers.has('authorization')) log('request with an Authorization header');
    const early = await before?.(request);
    if (early !== undefined) return early;
    if (modern === undefined || (await isLegacyRequest(request))) return serveSession(request);
    return modern.fetch(request);
  };

  const nodeHandler = toNodeHandler({ fetch: route }, { onerror: (error) => log(`http handler failed: ${error.message}`) });
  const httpServer = createServer((req, res) => {
    nodeHandler(req, res).catch((error) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, '127.0.0.1', resolve);
  });
  log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);

  const shutdown = () => {
    for (const transport of sessions.values()) transport.close().catch(() => {});
    httpServer.closeAllConnections();
    httpServer.close(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return httpServer;
};
