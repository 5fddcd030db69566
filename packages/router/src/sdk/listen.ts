/**
 * How the gateway hears of a 2026-07-28 server's list changes: its `subscriptions/listen` stream
 * (probed for at connect, kept open, listened to again when it ends), or — for a server without one
 * — re-listing as each list's `ttlMs` runs out (the polling itself is the backend's, in
 * `backends/list-refresh.ts`). A 2025-era server sends its notifications unasked.
 */
import type {
  Client,
  McpSubscription as Subscription,
  ServerCapabilities,
  SubscriptionFilter as Filter,
} from '@modelcontextprotocol/client';
import type { ListChanges, ListName } from './upstream-types.js';

/** How long connecting waits for a listen stream's acknowledgement: past it the server is polled (a late one still counts). */
const LISTEN_PROBE_MS = 150;

const filterKeys = { tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged' } as const;
const listNames = ['tools', 'prompts', 'resources'] as const;

interface ListenWatch {
  /** Whether the connection is still in use (closing it ends the stream too, and that is no loss). */
  readonly isOpen: () => boolean;
  /** A list whose changes the stream carried: re-list it, a change may have fallen in the gap. */
  readonly missed: (list: ListName) => void;
  /** The server would not listen again: the connection is as good as lost. */
  readonly lost: (error: Error) => void;
}

/** The lists a server has, each covered by what `honored` announces or polled. */
const changesOf = (capabilities: ServerCapabilities, honored: Filter | undefined, reason?: string): ListChanges => {
  const polled = listNames.filter((list) => capabilities[list] !== undefined && honored?.[filterKeys[list]] !== true);
  return { via: honored === undefined ? 'polling' : 'stream', polled, reason };
};

/** The 2025-era way: the server sends list_changed notifications unasked. */
export const notificationChanges: ListChanges = { via: 'notifications', polled: [] };

/**
 * A 2026-07-28 `subscriptions/listen` stream that ends while the connection is up (a proxy's idle
 * timeout, a server restart) would leave the gateway deaf to list changes: listen again with the
 * filter the server honoured, and have the lists fetched again; when that fails, report the loss.
 */
const keepListening = (client: Client, subscription: Subscription, watch: ListenWatch): void => {
  void subscription.closed.then(async (cause) => {
    if (!watch.isOpen() || cause === 'local') return;
    const filter = subscription.honoredFilter;
    let next: Subscription;
    try {
      next = await client.listen(filter);
    } catch (error) {
      if (watch.isOpen()) {
        watch.lost(
          new Error(
            `the server ended its subscriptions/listen stream (${cause}) and did not open it again: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }
      return;
    }
    if (!watch.isOpen()) {
      await next.close();
      return;
    }
    for (const list of listNames) if (filter[filterKeys[list]] === true) watch.missed(list);
    keepListening(client, next, watch);
  });
};

/**
 * Opens the listen stream for the lists whose changes the server announces, waiting for its
 * acknowledgement at most `LISTEN_PROBE_MS`: a server that refuses (method not found), never
 * acknowledges or frames the stream in a way nobody reads is polled instead, and readiness waits no
 * longer. `changed` hears what was found before this returns; an acknowledgement that comes later
 * (within `ackTimeoutMs`) still switches to the stream: `changed` hears it again, and the lists are
 * fetched again for what changed in between.
 */
export const probeListen = async (
  client: Client,
  capabilities: ServerCapabilities,
  ackTimeoutMs: number,
  watch: ListenWatch & { readonly changed: (changes: ListChanges) => void },
): Promise<void> => {
  const filter: Filter = {};
  for (const list of listNames) if (capabilities[list]?.listChanged === true) filter[filterKeys[list]] = true;
  if (Object.keys(filter).length === 0) {
    watch.changed(changesOf(capabilities, undefined, 'it announces no list changes'));
    return;
  }
  const started = Date.now();
  const opening = client.listen(filter, { timeout: Math.max(ackTimeoutMs, LISTEN_PROBE_MS) });
  let timer: NodeJS.Timeout | undefined;
  const early = await Promise.race([
    opening.then(
      (subscription) => ({ subscription }),
      (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
    ),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LISTEN_PROBE_MS))),
  ]);
  clearTimeout(timer);
  const probeMs = Date.now() - started;
  if (early !== undefined && 'subscription' in early) {
    watch.changed({ ...changesOf(capabilities, early.subscription.honoredFilter), probeMs });
    keepListening(client, early.subscription, watch);
    return;
  }
  watch.changed({
    ...changesOf(capabilities, undefined, early?.error ?? `no acknowledgement of subscriptions/listen within ${LISTEN_PROBE_MS} ms`),
    probeMs,
  });
  if (early !== undefined) return;
  void opening.then(
    async (late) => {
      if (!watch.isOpen()) return late.close();
      watch.changed(changesOf(capabilities, late.honoredFilter));
      keepListening(client, late, watch);
      for (const list of listNames) if (late.honoredFilter[filterKeys[list]] === true) watch.missed(list);
    },
    () => {},
  );
};
