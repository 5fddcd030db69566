/**
 * 2025-era Streamable HTTP sessions (`Mcp-Session-Id`): held in memory per node (least recently used
 * out, idle ones closed) and, with a cluster, recorded in the shared store so that any node can
 * restore a session it does not hold.
 */
import { randomUUID } from 'node:crypto';
import type { AuthInfo, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Cluster, JsonRpcMessage, Logger, SessionEvent, SessionRecord } from '@promptyard/core';
import { SharedEventStore } from '../cluster/cluster-event-store.js';
import { ClusterWire } from '../cluster/cluster-wire.js';
import type { RelayChannel } from '../handlers.js';
import type { ServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';
import { isObject } from '../json-shapes.js';

/** A 2025-era session this node holds: opened here, or restored from the cluster's record. */
interface LegacySession {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  lastUsed: number;
  /** Who opened it: another caller presenting its id is told it does not exist. */
  readonly subject: string | undefined;
  /** The relay's channel for this session, opened on its first relayed message. */
  channel?: RelayChannel;
}

interface ClusterSession extends LegacySession {
  record: SessionRecord;
  /** What the transport sends, routed through the cluster. */
  readonly wire: ClusterWire;
  touchedAt: number;
  /** Session events held while a resumed GET stream replays (delivered when it is live). */
  held?: SessionEvent[];
}

export interface LegacySessionsOptions {
  readonly sdk: typeof ServerSdk;
  readonly blueprint: McpServerBlueprint;
  readonly logger: Logger;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly maxBodyBytes: number;
  /** Shared with the other replicas: records, event streams, answers routed to the node that asked. */
  readonly cluster?: Cluster | undefined;
}

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

const messagesOf = (body: unknown): readonly Record<string, unknown>[] =>
  Array.isArray(body) ? body.filter(isObject) : isObject(body) ? [body] : [];
/** A JSON-RPC response (to a request this side sent), not a request or notification. */
const isAnswer = (message: Record<string, unknown>): boolean =>
  message['method'] === undefined && (typeof message['id'] === 'string' || typeof message['id'] === 'number');

/** A request made inside this process to a session's transport, as its client would send it. */
const internalRequest = (sessionId: string | undefined, body: unknown): Request =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    },
    body: JSON.stringify(body),
  });

/** The record after a request that changes what a restored session must know, or `undefined`. */
const recordAfter = (record: SessionRecord, messages: readonly Record<string, unknown>[]): SessionRecord | undefined => {
  let next: SessionRecord | undefined;
  for (const message of messages) {
    const params = isObject(message['params']) ? message['params'] : {};
    const current = next ?? record;
    if (message['method'] === 'logging/setLevel' && typeof params['level'] === 'string') next = { ...current, logLevel: params['level'] };
    else if (
      message['method'] === 'resources/subscribe' &&
      typeof params['uri'] === 'string' &&
      !current.subscriptions.includes(params['uri'])
    )
      next = { ...current, subscriptions: [...current.subscriptions, params['uri']] };
    else if (
      message['method'] === 'resources/unsubscribe' &&
      typeof params['uri'] === 'string' &&
      current.subscriptions.includes(params['uri'])
    )
      next = { ...current, subscriptions: current.subscriptions.filter((uri) => uri !== params['uri']) };
  }
  return next;
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
  const { sdk, blueprint, logger, cluster, maxSessions, sessionIdleMs } = options;
  const sessions = new Map<string, LegacySession>();
  const restoring = new Map<string, Promise<LegacySession | undefined>>();

  const forget = (id: string): LegacySession | undefined => {
    const session = sessions.get(id);
    if (session === undefined) return undefined;
    sessions.delete(id);
    session.channel?.close();
    return session;
  };
  /** Closes this node's copy; the cluster's record stays for the other nodes. */
  const closeLocal = async (id: string): Promise<void> => {
    const session = forget(id);
    if (session === undefined) return;
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  };
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - sessionIdleMs;
      for (const [id, session] of sessions) if (session.lastUsed < cutoff) void closeLocal(id);
    },
    Math.min(60_000, sessionIdleMs),
  );
  sweep.unref();

  const use = (id: string): LegacySession | undefined => {
    const session = sessions.get(id);
    if (session === undefined) return undefined;
    session.lastUsed = Date.now();
    sessions.delete(id);
    sessions.set(id, session);
    return session;
  };
  const makeRoom = async (): Promise<void> => {
    if (sessions.size < maxSessions) return;
    const oldest = sessions.keys().next().value;
    if (oldest !== undefined) await closeLocal(oldest);
  };

  /** A transport and server for session `id` (generated at `initialize` when absent). */
  const build = (
    subject: string | undefined,
    shared: { readonly id: string; readonly record: SessionRecord } | undefined,
    onOpened: (session: LegacySession) => Promise<void>,
  ): LegacySession => {
    const server = blueprint.create({ live: true, shared: cluster !== undefined });
    const store = cluster === undefined ? undefined : new SharedEventStore(() => cluster.eventStore(session.id), logger);
    const transport: WebStandardStreamableHTTPServerTransport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => shared?.id ?? randomUUID(),
      onsessioninitialized: async () => onOpened(session),
      onsessionclosed: (id) => {
        if (id === undefined) return;
        forget(id);
        void cluster
          ?.deleteSession(id)
          .catch((error: unknown) =>
            logger.warn('a closed session stays in the cluster until it expires', { reason: (error as Error).message }),
          );
      },
      maxRequestBodySize: options.maxBodyBytes,
      ...(store === undefined ? {} : { eventStore: store }),
    });
    const base: LegacySession = {
      get id() {
        return transport.sessionId ?? '';
      },
      transport,
      server,
      lastUsed: Date.now(),
      subject,
    };
    let session: LegacySession = base;
    if (cluster !== undefined && store !== undefined) {
      const wire = new ClusterWire(cluster, () => base.id, store, transport.send.bind(transport));
      session = Object.assign(base, {
        record: shared?.record ?? { subscriptions: [], ...(subject === undefined ? {} : { subject }), initialize: {} },
        wire,
        touchedAt: Date.now(),
      });
      transport.send = (message, sendOptions) => wire.send(message, sendOptions);
    }
    transport.onclose = () => {
      if (transport.sessionId !== undefined) forget(transport.sessionId);
    };
    return session;
  };

  const open = async (
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    subject: string | undefined,
  ): Promise<Response> => {
    await makeRoom();
    const initialize = isObject(parsedBody) && isObject(parsedBody['params']) ? parsedBody['params'] : {};
    const session = build(subject, undefined, async (opened) => {
      sessions.set(opened.id, opened);
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

  /** Rebuilds session `id` from the cluster's record: its initialize, log level and subscriptions replayed. */
  const restore = async (id: string, subject: string | undefined): Promise<LegacySession | undefined> => {
    if (cluster === undefined) return undefined;
    const record = await cluster.loadSession(id);
    if (record === undefined || record.subject !== subject) return undefined;
    await makeRoom();
    const session = build(subject, { id, record }, async (opened) => {
      sessions.set(opened.id, opened);
    });
    await session.server.connect(session.transport);
    const replay = async (body: Record<string, unknown>, withSession: boolean): Promise<void> => {
      const response = await session.transport.handleRequest(internalRequest(withSession ? id : undefined, body), { parsedBody: body });
      await response.text();
    };
    await replay({ jsonrpc: '2.0', id: `restore-${randomUUID()}`, method: 'initialize', params: record.initialize }, false);
    await replay({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
    if (record.logLevel !== undefined)
      await replay({ jsonrpc: '2.0', id: `restore-${randomUUID()}`, method: 'logging/setLevel', params: { level: record.logLevel } }, true);
    for (const uri of record.subscriptions)
      await replay({ jsonrpc: '2.0', id: `restore-${randomUUID()}`, method: 'resources/subscribe', params: { uri } }, true);
    logger.debug('session restored from the cluster', { session: id });
    return session;
  };

  const restored = (id: string, subject: string | undefined): Promise<LegacySession | undefined> => {
    let pending = restoring.get(id);
    if (pending === undefined) {
      pending = restore(id, subject).finally(() => restoring.delete(id));
      restoring.set(id, pending);
    }
    return pending;
  };

  /** Hands answers to this node's requests to the session's server. */
  const deliver = async (session: ClusterSession, messages: readonly JsonRpcMessage[]): Promise<void> => {
    const response = await session.transport.handleRequest(internalRequest(session.id, messages), { parsedBody: messages });
    await response.text();
  };

  const serve = async (
    id: string,
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    subject: string | undefined,
  ): Promise<Response> => {
    let session = use(id);
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
    if (cluster === undefined) return session.transport.handleRequest(request, withBody);

    const clustered = session as ClusterSession;
    const now = Date.now();
    if (now - clustered.touchedAt > sessionIdleMs / 8) {
      clustered.touchedAt = now;
      cluster.touchSession(id, sessionIdleMs).catch(() => {});
    }
    const messages = messagesOf(parsedBody);
    if (request.method === 'POST' && messages.length > 0 && messages.every(isAnswer)) {
      // Answers to this node's requests are delivered here; the others' take the cluster to them.
      const others = messages.filter((message) => !clustered.wire.owns(message));
      const mine = clustered.wire.take(messages);
      try {
        if (others.length > 0) await cluster.forward(id, others);
        if (mine.length > 0) await deliver(clustered, mine);
      } catch (error) {
        logger.warn('answers to requests of another node were not passed on: the cluster store is unreachable', {
          reason: (error as Error).message,
        });
      }
      return new Response(null, { status: 202 });
    }
    const next = request.method === 'POST' ? recordAfter(clustered.record, messages) : undefined;
    if (next !== undefined) {
      clustered.record = next;
      cluster
        .saveSession(id, next, sessionIdleMs)
        .catch((error: unknown) =>
          logger.warn('the session change stays on this node: the cluster store did not take it', { reason: (error as Error).message }),
        );
    }
    if (request.method === 'GET' && request.headers.get('last-event-id') !== null) {
      // Events that arrive while the stream replays wait until it is live (the replayed ones are not sent twice).
      clustered.held = [];
      try {
        return await session.transport.handleRequest(request, withBody);
      } finally {
        const held = clustered.held;
        delete clustered.held;
        for (const event of held) hear(clustered, event);
      }
    }
    return session.transport.handleRequest(request, withBody);
  };

  /** A message the cluster stored for `session`'s GET stream: sent on it if this node holds that stream. */
  const hear = (session: ClusterSession, event: SessionEvent): void => {
    if (session.held !== undefined) session.held.push(event);
    else session.wire.hear(event);
  };

  const stops =
    cluster === undefined
      ? []
      : [
          cluster.onSessionEvent((event) => {
            const session = sessions.get(event.sessionId) as ClusterSession | undefined;
            if (session !== undefined) hear(session, event);
          }),
          cluster.onForward((id, messages) => {
            const session = sessions.get(id) as ClusterSession | undefined;
            if (session === undefined) return;
            const mine = session.wire.take(messages);
            if (mine.length > 0)
              deliver(session, mine).catch((error: unknown) =>
                logger.warn('an answer forwarded by another node was not delivered', { reason: (error as Error).message }),
              );
          }),
          cluster.onSessionClosed((id) => void closeLocal(id)),
        ];

  return {
    get size() {
      return sessions.size;
    },
    use,
    serve,
    open,
    local: () => sessions.values(),
    close: async () => {
      clearInterval(sweep);
      for (const stop of stops) stop();
      await Promise.all([...sessions.keys()].map((id) => closeLocal(id)));
    },
  };
};
