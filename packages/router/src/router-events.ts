import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { BackendStatus } from './backends/backend-status.js';
import type { RoutedList } from './routes/route-table.js';
import type { LoggingLevel } from './sdk/upstream-types.js';

export interface RouterLogRecord {
  readonly server: string;
  readonly level: LoggingLevel;
  readonly logger?: string | undefined;
  readonly data: unknown;
}

export interface RouterEvents {
  /** A surface's list changed: `default` (everything) or a profile's. */
  listChanged: { readonly list: RoutedList; readonly profile: string };
  log: RouterLogRecord;
  resourceUpdated: string;
  status: BackendStatus;
  /** A backend's stderr line, with the level it states (`info` when none). */
  stderr: { readonly server: string; readonly line: string; readonly level: LoggingLevel };
}

export type Listener<T> = (value: T) => void;

/** The router's events: a listener that throws is logged and does not keep the others from hearing. */
export class RouterEmitter {
  private readonly listeners: { [K in keyof RouterEvents]: Set<Listener<RouterEvents[K]>> } = {
    listChanged: new Set(),
    log: new Set(),
    resourceUpdated: new Set(),
    status: new Set(),
    stderr: new Set(),
  };
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  on<K extends keyof RouterEvents>(event: K, listener: Listener<RouterEvents[K]>): () => void {
    const set = this.listeners[event] as Set<Listener<RouterEvents[K]>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof RouterEvents>(event: K, value: RouterEvents[K]): void {
    for (const listener of this.listeners[event] as Set<Listener<RouterEvents[K]>>) {
      try {
        listener(value);
      } catch (error) {
        this.logger.error('event listener failed', { event, reason: describeError(error) });
      }
    }
  }
}
