/**
 * The bytes every session's in-memory SSE events may hold together in this process: each session's
 * store is bounded on its own (`EventStoreBounds`), and with many sessions those bounds add up, so
 * past this budget the oldest events of the whole process leave first, whichever session holds them.
 * It keeps the events in one queue, oldest first: O(1) (amortized) an event, no walk over sessions.
 */
import { OldestFirst } from './oldest-first.js';

/** An event a session's store keeps, as the budget sees it. */
export interface BudgetedEvent {
  readonly bytes: number;
  /** False once it left its store (for any reason): the budget skips it. */
  readonly kept: boolean;
  /** Drops it from its store, which then tells the budget (`released`). */
  leave(): void;
}

/** 64 MiB for all sessions' events together, whatever `max_sessions` is. */
const defaultEventBudgetBytes = 64 * 1024 * 1024;

export class EventBudget {
  readonly maxBytes: number;
  #bytes = 0;
  /** Every kept event, oldest first. */
  readonly #queue = new OldestFirst<BudgetedEvent>();

  constructor(maxBytes: number = defaultEventBudgetBytes) {
    this.maxBytes = maxBytes;
  }

  /** Bytes all stores sharing this budget hold now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Counts a newly kept event; past the budget, the process's oldest events leave (possibly this one). */
  added(event: BudgetedEvent): void {
    this.#queue.push(event);
    this.#bytes += event.bytes;
    for (let oldest = this.#queue.oldest(); this.#bytes > this.maxBytes && oldest !== undefined; oldest = this.#queue.oldest())
      oldest.leave();
    this.#queue.compact();
  }

  /** An event left its store (aged out, over its session's bounds, evicted here, or its session closed). */
  released(event: BudgetedEvent): void {
    this.#bytes -= event.bytes;
    this.#queue.left();
  }
}

/** The budget every session's store shares unless given another (a test's). */
export const processEventBudget = new EventBudget();
