import { randomUUID } from 'node:crypto';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { SessionRecord } from '@promptyard/core';
import { SharedEventStore } from '../cluster/cluster-event-store.js';
import { ClusterWire } from '../cluster/cluster-wire.js';
import { MemoryEventStore } from './memory-event-store.js';
import { sseRetryMs } from './resumable-streams.js';
import type { LegacySession } from './session-table.js';
import type { SessionsContext } from './session-types.js';

/**
 * Leaves the session out of this node's table and, at the client's DELETE, out of the cluster's store.
 * The DELETE is answered once the store has dropped the record and told the other nodes: a request
 * that follows it gets 404 whichever node the balancer sends it to.
 */
const closedBy = async (context: SessionsContext, id: string | undefined): Promise<void> => {
  if (id === undefined) return;
  context.table.forget(id);
  await context.cluster
    ?.deleteSession(id)
    .catch((error: unknown) =>
      context.logger.warn('a closed session stays in the cluster until it expires', { reason: (error as Error).message }),
    );
};

/**
 * A transport and server for a session: `shared` names a session restored from the cluster's record,
 * else its id is generated at `initialize`. Its SSE streams are resumable: in a cluster what the
 * transport sends goes through the cluster's wire, and its events to the shared store; alone, the
 * events are kept in memory with the session.
 */
export const buildSession = (
  context: SessionsContext,
  subject: string | undefined,
  shared: { readonly id: string; readonly record: SessionRecord } | undefined,
  onOpened: (session: LegacySession) => Promise<void>,
): LegacySession => {
  const { sdk, blueprint, cluster, logger } = context;
  const server = blueprint.create({ live: true, shared: cluster !== undefined });
  const store = cluster === undefined ? new MemoryEventStore() : new SharedEventStore(() => cluster.eventStore(session.id), logger);
  const transport: WebStandardStreamableHTTPServerTransport = new sdk.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => shared?.id ?? randomUUID(),
    onsessioninitialized: async () => onOpened(session),
    onsessionclosed: (id) => closedBy(context, id),
    maxRequestBodySize: context.maxBodyBytes,
    eventStore: store,
    retryInterval: sseRetryMs,
  });
  const base: LegacySession = {
    get id() {
      return transport.sessionId ?? '';
    },
    transport,
    server,
    lastUsed: Date.now(),
    openedAt: Date.now(),
    // A new session's first request is its initialize; a restored one starts counting here.
    requests: shared === undefined ? 1 : 0,
    subject,
    ...(store instanceof MemoryEventStore ? { resumable: { events: store, live: new Map<string, () => void>() } } : {}),
  };
  let session: LegacySession = base;
  if (cluster !== undefined && store instanceof SharedEventStore) {
    const wire = new ClusterWire(cluster, () => base.id, store, transport.send.bind(transport));
    session = Object.assign(base, {
      record: shared?.record ?? { subscriptions: [], ...(subject === undefined ? {} : { subject }), initialize: {} },
      wire,
      touchedAt: Date.now(),
    });
    transport.send = (message, sendOptions) => wire.send(message, sendOptions);
  }
  transport.onclose = () => {
    if (transport.sessionId !== undefined) context.table.forget(transport.sessionId);
  };
  return session;
};
