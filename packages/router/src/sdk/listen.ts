import type { Client } from '@modelcontextprotocol/client';

type Subscription = NonNullable<Client['autoOpenedSubscription']>;

export interface ListenWatch {
  /** Whether the connection is still in use (closing it ends the stream too, and that is no loss). */
  readonly isOpen: () => boolean;
  /** A list whose changes the stream carried: re-list it, a change may have fallen in the gap. */
  readonly missed: (list: 'tools' | 'prompts' | 'resources') => void;
  /** The server would not listen again: the connection is as good as lost. */
  readonly lost: (error: Error) => void;
}

/**
 * A 2026-07-28 `subscriptions/listen` stream that ends while the connection is up (a proxy's idle
 * timeout, a server restart) would leave the gateway deaf to list changes: listen again with the
 * filter the server honoured, and have the lists fetched again; when that fails, report the loss.
 */
export const keepListening = (client: Client, subscription: Subscription, watch: ListenWatch): void => {
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
    if (filter.toolsListChanged === true) watch.missed('tools');
    if (filter.promptsListChanged === true) watch.missed('prompts');
    if (filter.resourcesListChanged === true) watch.missed('resources');
    keepListening(client, next, watch);
  });
};
