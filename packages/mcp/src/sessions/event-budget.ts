/**
 * The bytes every session's in-memory SSE events may hold together in this process: each session's
 * store is bounded on its own (`EventStoreBounds`), and with many sessions those bounds add up, so
 * past this budget the oldest events of the whole process leave first, whichever session holds them.
 * It keeps the events in one queue, oldest first: O(1) (amortized) an event, no walk over sessions.
 */

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
  /** Every kept event, oldest first from `#head`, among `#dead` that left (compacted as they grow). */
  #queue: BudgetedEvent[] = [];
  #head = 0;
  #dead = 0;

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
    for (let oldest = this.#oldest(); this.#bytes > this.maxBytes && oldest !== undefined; oldest = this.#oldest()) oldest.leave();
    this.#compact();
  }

  /** An event left its store (aged out, over its session's bounds, evicted here, or its session closed). */
  released(event: BudgetedEvent): void {
    this.#bytes -= event.bytes;
    this.#dead++;
  }

  #oldest(): BudgetedEvent | undefined {
    while (this.#head < this.#queue.length && !(this.#queue[this.#head] as BudgetedEvent).kept) {
      this.#head++;
      this.#dead--;
    }
    return this.#queue[this.#head];
  }

  /** Once most of the queue is events that left, it keeps only the others (linear, and rare enough to cost O(1) an event). */
  #compact(): void {
    const gone = this.#head + this.#dead;
    if (gone < 1024 || gone * 2 < this.#queue.length) return;
    this.#queue = this.#queue.slice(this.#head).filter((event) => event.kept);
    this.#head = 0;
    this.#dead = 0;
  }
}

/** The budget every session's store shares unless given another (a test's). */
export const processEventBudget = new EventBudget();
