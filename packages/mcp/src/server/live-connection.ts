import type { Server } from '@modelcontextprotocol/server';
import type { ClientPeer, JsonObject, ListKind } from '../handlers.js';
import type { Adapter, Instance } from './adapter.js';
import { forwardLogs, type ClientLevel } from './logging.js';

/** A live instance's connection as a client for requests outside any call; capabilities are read when asked. */
export const connectionOf = (server: Server): ClientPeer => ({
  label: 'session',
  session: server,
  sampling: (params) =>
    (server.getClientCapabilities()?.sampling === undefined ? undefined : server.createMessage(params as never)) as Promise<JsonObject>,
  elicitation: (params) =>
    (server.getClientCapabilities()?.elicitation === undefined ? undefined : server.elicitInput(params as never)) as Promise<JsonObject>,
  roots: () => (server.getClientCapabilities()?.roots === undefined ? undefined : server.listRoots()) as Promise<JsonObject>,
});

/** The handlers' list changes, and the skills' as `resources` changes. */
export const onListChanged = (adapter: Adapter, listener: (list: ListKind) => void): (() => void) => {
  const stops = [adapter.handlers.onListChanged(listener), adapter.skills?.onChanged(() => listener('resources'))];
  return () => {
    for (const stop of stops) stop?.();
  };
};

const sendListChanged = (server: Server, list: ListKind): void => {
  const sent =
    list === 'tools'
      ? server.sendToolListChanged()
      : list === 'prompts'
        ? server.sendPromptListChanged()
        : server.sendResourceListChanged();
  sent.catch(() => {});
};

/**
 * What a live instance (stdio, a 2025 session) hears until it closes: roots changes, log records at
 * its level, and — unless `shared` (a cluster's sessions hear those from the cluster, once each) —
 * list changes and updates of the resources it subscribed to. Closing it ends its subscriptions.
 */
export const wireLiveConnection = (
  adapter: Adapter,
  instance: Instance,
  shared: boolean,
  subscribed: Set<string>,
  level: ClientLevel,
): void => {
  const { handlers } = adapter;
  const { server, connection } = instance;
  const subscriptions = handlers.resources?.subscriptions;
  if (handlers.rootsChanged !== undefined) {
    const rootsChanged = handlers.rootsChanged;
    server.setNotificationHandler('notifications/roots/list_changed', () => rootsChanged());
  }
  const stops = [
    shared ? undefined : onListChanged(adapter, (list) => sendListChanged(server, list)),
    forwardLogs(handlers, server, level),
    shared
      ? undefined
      : subscriptions?.onUpdated((uri) => {
          if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
        }),
  ];
  const previousOnClose = server.onclose;
  server.onclose = () => {
    for (const stop of stops) stop?.();
    for (const uri of subscribed) void subscriptions?.unsubscribe(uri).catch(() => {});
    subscribed.clear();
    if (connection !== undefined) handlers.disconnected?.(connection);
    previousOnClose?.();
  };
};
