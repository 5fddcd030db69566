/**
 * What replicas behind one balancer share through `Cluster`: list-change and resource-update
 * announcements, a 2025-era session's event store, and the wire that routes a session's
 * server→client messages, and the answers to them, between nodes.
 */
import type { Cluster, Logger } from '@promptyard/core';
import type { ListKind } from '../handlers.js';
import type { McpServerBlueprint } from '../server/blueprint.js';

/** The handler's notifier (`createMcpHandler(...).notify`), which publishes on the cluster's bus. */
interface ChangeNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

export interface ClusterChangesOptions {
  readonly cluster: Cluster;
  readonly blueprint: McpServerBlueprint;
  readonly notify: ChangeNotifier;
  /** Sends a notification to this node's own 2025 sessions (while the cluster store is unreachable). */
  readonly local: (message: { readonly method: string; readonly params?: Record<string, unknown> }) => void;
  readonly logger: Logger;
}

/** Tells the handler's `subscriptions/listen` streams that `list` changed. */
const notifyList = (notify: ChangeNotifier, list: ListKind): void => {
  if (list === 'prompts') notify.promptsChanged();
  else if (list === 'tools') notify.toolsChanged();
  else notify.resourcesChanged();
};

/**
 * One node: its changes go to its own `subscriptions/listen` streams (its 2025 sessions' servers
 * send theirs themselves). Returns the stop.
 */
export const announceLocally = (blueprint: McpServerBlueprint, notify: ChangeNotifier): (() => void) => {
  const stops = [
    blueprint.onListChanged((list) => notifyList(notify, list)),
    blueprint.onResourceUpdated?.((uri) => notify.resourceUpdated(uri)),
  ];
  return () => {
    for (const stop of stops) stop?.();
  };
};

const methods: Readonly<Record<ListKind, string>> = {
  prompts: 'notifications/prompts/list_changed',
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
};

/** How long a change's claim lasts: replicas that see the same change (one prompt folder) see it well within this. */
const claimMs = 30_000;
/** Resource updates carry no content to tell them apart: those within this window from any replica are one. */
const updateClaimMs = 250;
/**
 * How long a list must stay unchanged before its change is announced. A replica's watcher may see
 * one save as two changes (the file emptied, then written) where another sees one: each replica
 * announces the state it settles on, so all of them name the same change.
 */
const settleMs = 100;

/**
 * Announces this node's changes to the whole cluster, once. Replicas that serve the same files all
 * see an edit; the first to claim it announces it — to every `subscriptions/listen` stream through
 * the bus, and to every 2025 session's GET stream through the store (`Cluster.broadcast`). A change
 * is named by the list's content digest before and after it, which replicas that load the same files
 * agree on whenever each started. While the store is unreachable, a node announces what it sees to
 * its own clients.
 */
export const announceChanges = (options: ClusterChangesOptions): (() => void) => {
  const { cluster, blueprint, notify, logger } = options;
  const digests = new Map<ListKind, Promise<string>>();
  const digestOf = (list: ListKind): Promise<string> => {
    let digest = digests.get(list);
    if (digest === undefined) {
      digest = blueprint.fingerprint(list);
      digests.set(list, digest);
    }
    return digest;
  };
  // The state before any change: known before the first one comes.
  for (const list of ['prompts', 'tools', 'resources'] as const) digestOf(list).catch(() => {});

  const announce = async (
    message: { readonly method: string; readonly params?: Record<string, unknown> },
    uri: string | undefined,
    bus: () => void,
  ): Promise<void> => {
    bus();
    try {
      await cluster.broadcast({ jsonrpc: '2.0', ...message }, uri === undefined ? undefined : { uri });
    } catch {
      options.local(message);
    }
  };
  const claim = (key: string, ttlMs: number): Promise<boolean> => cluster.claim(key, ttlMs).catch(() => true);

  let queue: Promise<void> = Promise.resolve();
  const settling = new Map<ListKind, NodeJS.Timeout>();
  const settled = (list: ListKind): void => {
    settling.delete(list);
    queue = queue
      .then(async () => {
        const before = await digestOf(list).catch(() => '');
        const after = await blueprint.fingerprint(list);
        digests.set(list, Promise.resolve(after));
        if (after === before) return;
        if (!(await claim(`change:${list}:${before}:${after}`, claimMs))) return;
        await announce({ method: methods[list] }, undefined, () => notifyList(notify, list));
      })
      .catch((error: unknown) => logger.warn('a list change was not announced to the cluster', { list, reason: (error as Error).message }));
  };
  const stopLists = blueprint.onListChanged((list) => {
    clearTimeout(settling.get(list));
    const timer = setTimeout(() => settled(list), settleMs);
    timer.unref();
    settling.set(list, timer);
  });
  const stopUpdates = blueprint.onResourceUpdated?.((uri) => {
    queue = queue
      .then(async () => {
        if (!(await claim(`updated:${uri}`, updateClaimMs))) return;
        await announce({ method: 'notifications/resources/updated', params: { uri } }, uri, () => notify.resourceUpdated(uri));
      })
      .catch((error: unknown) =>
        logger.warn('a resource update was not announced to the cluster', { uri, reason: (error as Error).message }),
      );
  });
  return () => {
    for (const timer of settling.values()) clearTimeout(timer);
    stopLists();
    stopUpdates?.();
  };
};
