import { describe, expect, it } from 'vitest';
import { OldestFirst } from './oldest-first.js';

interface Item {
  readonly n: number;
  kept: boolean;
}

const filled = (count: number): { queue: OldestFirst<Item>; items: Item[] } => {
  const queue = new OldestFirst<Item>();
  const items = Array.from({ length: count }, (_, n) => ({ n, kept: true }));
  for (const item of items) queue.push(item);
  return { queue, items };
};

const leave = (queue: OldestFirst<Item>, item: Item): void => {
  item.kept = false;
  queue.left();
};

describe('OldestFirst', () => {
  it('gives the oldest item still kept, whichever left before it', () => {
    const { queue, items } = filled(4);
    leave(queue, items[1] as Item);
    leave(queue, items[0] as Item);
    expect(queue.oldest()?.n).toBe(2);
    leave(queue, items[3] as Item);
    leave(queue, items[2] as Item);
    expect(queue.oldest()).toBeUndefined();
  });

  it('keeps the order and the kept items through a compaction', () => {
    const { queue, items } = filled(5000);
    for (const item of items) if (item.n % 3 !== 0) leave(queue, item);
    queue.compact();
    const seen: number[] = [];
    for (let item = queue.oldest(); item !== undefined; item = queue.oldest()) {
      seen.push(item.n);
      leave(queue, item);
    }
    expect(seen).toEqual(items.filter((item) => item.n % 3 === 0).map((item) => item.n));
  });

  it('holds nothing after clear', () => {
    const { queue } = filled(3);
    queue.clear();
    expect(queue.oldest()).toBeUndefined();
  });
});
