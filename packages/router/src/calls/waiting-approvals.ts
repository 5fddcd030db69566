import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';

/**
 * The tool calls waiting now for a person's answer (`[[policy]] approve = true`), for the operator's
 * console: who called, through which profile, which server's tool, under which rule and since when —
 * never the arguments. Its listeners hear each call start and stop waiting.
 */

export interface PendingApproval {
  /** Unique in this process, for the page's rows. */
  readonly id: number;
  /** The caller's subject; absent when the call came with no identity (stdio, the static token without `[auth]`). */
  readonly identity?: string | undefined;
  readonly profile: string;
  readonly server: string;
  /** The tool as the caller named it. */
  readonly tool: string;
  /** The `[[policy]]` rule that asks, as messages name it. */
  readonly rule: string;
  readonly since: Date;
}

export class WaitingApprovals {
  readonly #logger: Logger;
  readonly #waiting = new Map<number, PendingApproval>();
  readonly #listeners = new Set<() => void>();
  #next = 0;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The calls waiting now, the longest waiting first. */
  list(): readonly PendingApproval[] {
    return [...this.#waiting.values()];
  }

  /** Adds a call waiting from now; returns the function that removes it (once). */
  add(call: Omit<PendingApproval, 'id' | 'since'>): () => void {
    const id = ++this.#next;
    this.#waiting.set(id, { ...call, id, since: new Date() });
    this.#tell();
    return () => {
      if (this.#waiting.delete(id)) this.#tell();
    };
  }

  /** Called after a call started or stopped waiting; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    const entry = (): void => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  #tell(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#logger.error('a listener of the calls waiting for approval failed', { error: describeError(error) });
      }
    }
  }
}
