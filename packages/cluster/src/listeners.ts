import type { Logger } from '@promptyard/core';
import { describeError } from '@promptyard/core';

/** A set of listeners; one that throws is logged and never keeps the others from hearing. */
export class Listeners<A extends unknown[]> {
  readonly #listeners = new Set<(...args: A) => void>();
  readonly #logger: Logger;
  readonly #what: string;

  constructor(logger: Logger, what: string) {
    this.#logger = logger;
    this.#what = what;
  }

  add(listener: (...args: A) => void): () => void {
    // A wrapper per subscription, so the same function added twice is two subscriptions.
    const entry = (...args: A): void => listener(...args);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  emit(...args: A): void {
    for (const listener of this.#listeners) {
      try {
        listener(...args);
      } catch (error) {
        this.#logger.error(`a ${this.#what} listener failed`, { error: describeError(error) });
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
