import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Cluster, SessionEvent, SessionRecord } from '@promptyard/core';
import { isObject } from '../json-shapes.js';
import { deliver } from './session-restore.js';
import type { ClusterSession, SessionsContext } from './session-types.js';

type WithBody = { parsedBody?: unknown; authInfo?: AuthInfo };

const messagesOf = (body: unknown): readonly Record<string, unknown>[] =>
  Array.isArray(body) ? body.filter(isObject) : isObject(body) ? [body] : [];

/** A JSON-RPC response (to a request this side sent), not a request or notification. */
const isAnswer = (message: Record<string, unknown>): boolean =>
  message['method'] === undefined && (typeof message['id'] === 'string' || typeof message['id'] === 'number');

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

/** A message the cluster stored for `session`'s GET stream: sent on it if this node holds that stream. */
const hear = (session: ClusterSession, event: SessionEvent): void => {
  if (session.held !== undefined) session.held.push(event);
  else session.wire.hear(event);
};

/** Answers to this node's requests are delivered here; the others' take the cluster to them. */
const passAnswers = async (
  context: SessionsContext,
  cluster: Cluster,
  session: ClusterSession,
  id: string,
  messages: readonly Record<string, unknown>[],
): Promise<Response> => {
  const others = messages.filter((message) => !session.wire.owns(message));
  const mine = session.wire.take(messages);
  try {
    if (others.length > 0) await cluster.forward(id, others);
    if (mine.length > 0) await deliver(session, mine);
  } catch (error) {
    context.logger.warn('answers to requests of another node were not passed on: the cluster store is unreachable', {
      reason: (error as Error).message,
    });
  }
  return new Response(null, { status: 202 });
};

/** A request to a session in a cluster: its record kept alive and current, answers routed, a resumed stream's events held until it is live. */
export const serveClustered = async (
  context: SessionsContext,
  cluster: Cluster,
  session: ClusterSession,
  id: string,
  request: Request,
  parsedBody: unknown,
  withBody: WithBody,
): Promise<Response> => {
  const { sessionIdleMs, logger } = context;
  const now = Date.now();
  if (now - session.touchedAt > sessionIdleMs / 8) {
    session.touchedAt = now;
    cluster.touchSession(id, sessionIdleMs).catch(() => {});
  }
  const messages = messagesOf(parsedBody);
  if (request.method === 'POST' && messages.length > 0 && messages.every(isAnswer))
    return passAnswers(context, cluster, session, id, messages);
  const next = request.method === 'POST' ? recordAfter(session.record, messages) : undefined;
  if (next !== undefined) {
    session.record = next;
    cluster
      .saveSession(id, next, sessionIdleMs)
      .catch((error: unknown) =>
        logger.warn('the session change stays on this node: the cluster store did not take it', { reason: (error as Error).message }),
      );
  }
  if (request.method === 'GET' && request.headers.get('last-event-id') !== null) {
    // Events that arrive while the stream replays wait until it is live (the replayed ones are not sent twice).
    session.held = [];
    try {
      return await session.transport.handleRequest(request, withBody);
    } finally {
      const held = session.held;
      delete session.held;
      for (const event of held) hear(session, event);
    }
  }
  return session.transport.handleRequest(request, withBody);
};

/** What the other nodes send this one's sessions: stream events, forwarded answers, closes. Returns the stops. */
export const listenToCluster = (context: SessionsContext, cluster: Cluster): (() => void)[] => {
  const { table, logger } = context;
  return [
    cluster.onSessionEvent((event) => {
      const session = table.get(event.sessionId) as ClusterSession | undefined;
      if (session !== undefined) hear(session, event);
    }),
    cluster.onForward((id, messages) => {
      const session = table.get(id) as ClusterSession | undefined;
      if (session === undefined) return;
      const mine = session.wire.take(messages);
      if (mine.length > 0)
        deliver(session, mine).catch((error: unknown) =>
          logger.warn('an answer forwarded by another node was not delivered', { reason: (error as Error).message }),
        );
    }),
    cluster.onSessionClosed((id) => void table.closeLocal(id)),
  ];
};
