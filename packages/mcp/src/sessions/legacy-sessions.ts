/**
 * 2025-era Streamable HTTP sessions (`Mcp-Session-Id`): held in memory per node (least recently used
 * out, idle ones closed) and, with a cluster, recorded in the shared store so that any node can
 * restore a session it does not hold.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { isObject } from '../json-shapes.js';
import { listenToCluster, serveClustered } from './cluster-sessions.js';
import { serveResumable } from './resumable-streams.js';
import { buildSession } from './session-build.js';
import { createRestorer } from './session-restore.js';
import { SessionTable } from './session-table.js';
import type { LegacySession } from './session-table.js';
import type { ClusterSession, LegacySessionsOptions, SessionsContext } from './session-types.js';

export interface LegacySessions {
  readonly size: number;
  /** The session `id` if this node holds it, marked used. */
  use(id: string): LegacySession | undefined;
  /** A request to session `id`: served by the session here, or by one restored from the cluster's record. */
  serve(id: string, request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined, subject: string | undefined): Promise<Response>;
  /** An `initialize` request outside any session: opens one. */
  open(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined, subject: string | undefined): Promise<Response>;
  /** Every session this node holds. */
  local(): IterableIterator<LegacySession>;
  close(): Promise<void>;
}

const notFound = (): Response =>
  Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found: it expired or the server restarted. Start a new session with initialize.' },
      id: null,
    },
    { status: 404 },
  );

const storeDown = (): Response =>
  Response.json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'The session store (the cluster Redis) is unreachable and this node does not hold the session: retry shortly.',
      },
      id: null,
    },
    { status: 503, headers: { 'retry-after': '1' } },
  );

/** An `initialize` outside any session: a new session, saved to the cluster before the client hears its id. */
const openSession = async (
  context: SessionsContext,
  request: Request,
  parsedBody: unknown,
  authInfo: AuthInfo | undefined,
  subject: string | undefined,
): Promise<Response> => {
  const { cluster, table, logger, sessionIdleMs } = context;
  await table.makeRoom();
  const initialize = isObject(parsedBody) && isObject(parsedBody['params']) ? parsedBody['params'] : {};
  const session = buildSession(context, subject, undefined, async (opened) => {
    table.set(opened.id, opened);
    if (cluster === undefined) return;
    const clustered = opened as ClusterSession;
    clustered.record = { ...clustered.record, initialize };
    // Saved before the client hears its session id, so that its next request may reach any node.
    await cluster.saveSession(opened.id, clustered.record, sessionIdleMs).catch((error: unknown) => {
      logger.warn('the session lives on this node only: the cluster store did not take it', { reason: (error as Error).message });
    });
  });
  await session.server.connect(session.transport);
  return session.transport.handleRequest(request, { parsedBody, ...(authInfo === undefined ? {} : { authInfo }) });
};

/**
 * The endpoint's 2025-11-25 sessions. Alone, a node keeps them in memory (least recently used first
 * out, idle ones closed). With a cluster, a session's record (its `initialize`, log level and
 * subscriptions) lives in the shared store: a node that does not hold a session rebuilds it by
 * replaying that record to a fresh transport, its SSE events are stored where every node can replay
 * them, and a client's answer to a server→client request reaches the node that asked, wherever the
 * balancer sends it.
 */
export const createLegacySessions = (options: LegacySessionsOptions): LegacySessions => {
  const { cluster, logger } = options;
  const table = new SessionTable(options.maxSessions, options.sessionIdleMs, options.onChange);
  const context: SessionsContext = { ...options, table };
  const restored = createRestorer(context);

  const serve = async (
    id: string,
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    subject: string | undefined,
  ): Promise<Response> => {
    let session = table.use(id);
    if (session === undefined && cluster !== undefined) {
      try {
        session = await restored(id, subject);
      } catch (error) {
        logger.warn('a session this node does not hold could not be restored', { reason: (error as Error).message });
        return storeDown();
      }
    }
    if (session === undefined || session.subject !== subject) return notFound();
    const withBody = { ...(parsedBody === undefined ? {} : { parsedBody }), ...(authInfo === undefined ? {} : { authInfo }) };
    const held = session;
    return serveResumable(held.resumable, request, () =>
      cluster === undefined
        ? held.transport.handleRequest(request, withBody)
        : serveClustered(context, cluster, held as ClusterSession, id, request, parsedBody, withBody),
    );
  };

  const stops = cluster === undefined ? [] : listenToCluster(context, cluster);
  return {
    get size() {
      return table.size;
    },
    use: (id) => table.use(id),
    serve,
    open: (request, parsedBody, authInfo, subject) => openSession(context, request, parsedBody, authInfo, subject),
    local: () => table.values(),
    close: async () => {
      for (const stop of stops) stop();
      await table.close();
    },
  };
};
