/**
 * Items oldest first, where an item may leave from anywhere (it says so by `kept` turning false and the
 * owner calling `left()`): items that left are skipped once they reach the front, and dropped in a
 * compaction once they are most of the queue, so a push, a leave and a look at the oldest each cost O(1)
 * amortized. The in-memory event stores and their shared budget each keep their events in one.
 */
export class OldestFirst<T extends { readonly kept: boolean }> {
  #items: T[] = [];
  #head = 0;
  /** Items past `#head` that left. */
  #left = 0;

  push(item: T): void {
    this.#items.push(item);
  }

  /** One of the items left (its `kept` is false now). */
  left(): void {
    this.#left++;
  }

  /** The oldest item still kept. */
  oldest(): T | undefined {
    while (this.#head < this.#items.length && !(this.#items[this.#head] as T).kept) {
      this.#head++;
      this.#left--;
    }
    return this.#items[this.#head];
  }

  /** Once most of the queue is items that left, keeps only the others (linear, and rare enough to cost O(1) an item). */
  compact(): void {
    const gone = this.#head + this.#left;
    if (gone < 1024 || gone * 2 < this.#items.length) return;
    this.#items = this.#items.slice(this.#head).filter((item) => item.kept);
    this.#head = 0;
    this.#left = 0;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
    this.#left = 0;
  }
}
