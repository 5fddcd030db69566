import { randomUUID } from 'node:crypto';
import type { JsonRpcMessage } from '@promptyard/core';
import { buildSession } from './session-build.js';
import type { LegacySession } from './session-table.js';
import { internalRequest, type ClusterSession, type SessionsContext } from './session-types.js';

/** Rebuilds session `id` from the cluster's record: its initialize, log level and subscriptions replayed. */
const restore = async (context: SessionsContext, id: string, subject: string | undefined): Promise<LegacySession | undefined> => {
  const { cluster, table } = context;
  if (cluster === undefined) return undefined;
  const record = await cluster.loadSession(id);
  if (record === undefined || record.subject !== subject) return undefined;
  await table.makeRoom();
  const session = buildSession(context, subject, { id, record }, async (opened) => {
    table.set(opened.id, opened);
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
  context.logger.debug('session restored from the cluster', { session: id });
  return session;
};

/** Session `id` restored once however many requests ask for it at the same time. */
export const createRestorer = (
  context: SessionsContext,
): ((id: string, subject: string | undefined) => Promise<LegacySession | undefined>) => {
  const restoring = new Map<string, Promise<LegacySession | undefined>>();
  return (id, subject) => {
    let pending = restoring.get(id);
    if (pending === undefined) {
      pending = restore(context, id, subject).finally(() => restoring.delete(id));
      restoring.set(id, pending);
    }
    return pending;
  };
};

/** Hands answers to this node's requests to the session's server. */
export const deliver = async (session: ClusterSession, messages: readonly JsonRpcMessage[]): Promise<void> => {
  const response = await session.transport.handleRequest(internalRequest(session.id, messages), { parsedBody: messages });
  await response.text();
};
