import type { JsonRpcMessage, Logger, SessionEventStore } from '@promptyard/core';

/**
 * A session transport's event store in a cluster: its SSE events go to the shared store, where any
 * node can replay them to a client that reconnects with `Last-Event-ID`. A change notification the
 * cluster already stored (`adopt`) is sent under the id it was stored with, not stored again. While
 * the store is unreachable an event is sent without an id (the stream cannot be resumed past it)
 * rather than not at all.
 */
export class SharedEventStore implements SessionEventStore {
  #store: SessionEventStore | undefined;
  #adopted: { readonly message: JsonRpcMessage; readonly eventId: string } | undefined;
  #failing = false;
  readonly #open: () => SessionEventStore;
  readonly #logger: Logger;

  /** `open` gives the session's store when first needed (a new session has no id before `initialize`). */
  constructor(open: () => SessionEventStore, logger: Logger) {
    this.#open = open;
    this.#logger = logger;
  }

  private get store(): SessionEventStore {
    return (this.#store ??= this.#open());
  }

  /** The next `storeEvent` of exactly `message` answers `eventId` (the transport's `send` calls it at once). */
  adopt(message: JsonRpcMessage, eventId: string): void {
    this.#adopted = { message, eventId };
  }

  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    const adopted = this.#adopted;
    if (adopted !== undefined) {
      this.#adopted = undefined;
      if (adopted.message === message) return Promise.resolve(adopted.eventId);
    }
    return this.store.storeEvent(streamId, message).then(
      (eventId) => {
        this.#failing = false;
        return eventId;
      },
      (error: unknown) => {
        if (!this.#failing)
          this.#logger.warn('SSE events are sent without an id while the cluster store is unreachable: a stream cut now cannot resume', {
            reason: (error as Error).message,
          });
        this.#failing = true;
        return '';
      },
    );
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.store.getStreamIdForEventId(eventId).catch(() => undefined);
  }

  replayEventsAfter(lastEventId: string, options: { send: (eventId: string, message: JsonRpcMessage) => Promise<void> }): Promise<string> {
    return this.store.replayEventsAfter(lastEventId, options);
  }
}
