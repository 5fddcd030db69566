import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@promptyard/core';
import { EventBudget } from './event-budget.js';
import { entryOverheadBytes, MemoryEventStore } from './memory-event-store.js';

const progress = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n, message: 'x'.repeat(200) },
});

const replayed = async (store: MemoryEventStore, lastEventId: string): Promise<number[]> => {
  const sent: number[] = [];
  await store.replayEventsAfter(lastEventId, {
    send: async (_id, message) => {
      sent.push((message['params'] as { progress: number }).progress);
    },
  });
  return sent;
};

/** Each session may keep 64 KiB on its own: 500 of them could hold 32 MiB without the shared budget. */
const sessionBounds = { maxEventsPerStream: 1000, maxBytes: 64 * 1024, maxAgeMs: 60_000 };

describe('EventBudget', () => {
  it('keeps all sessions’ events under the budget together, the oldest leaving first, a recent event still resumable', async () => {
    const budget = new EventBudget(1024 * 1024);
    const stores = Array.from({ length: 500 }, () => new MemoryEventStore(sessionBounds, Date.now, budget));
    const first = await (stores[0] as MemoryEventStore).storeEvent('s', progress(0));
    let peak = 0;
    for (let round = 1; round <= 40; round++) {
      for (const store of stores) await store.storeEvent('s', progress(round));
      peak = Math.max(peak, budget.bytes);
    }
    const held = stores.reduce((sum, store) => sum + store.bytes, 0);
    expect({ peak: peak <= budget.maxBytes, held }).toEqual({ peak: true, held: budget.bytes });
    // The budget let the oldest go: a resume from the first event would miss some, so it is refused.
    await expect(replayed(stores[0] as MemoryEventStore, first)).rejects.toThrow(/is not kept/);
    // The last round is whole in every session: a client that saw round 38 gets 39 and 40.
    const last = stores[499] as MemoryEventStore;
    const ids: string[] = [];
    for (const n of [41, 42]) ids.push(await last.storeEvent('s', progress(n)));
    expect(await last.getStreamIdForEventId(ids[0] as string)).toBe('s');
    expect(await replayed(last, ids[0] as string)).toEqual([42]);
  });

  it('has a closed session’s room back at once', async () => {
    const budget = new EventBudget(1024 * 1024);
    const closing = new MemoryEventStore(sessionBounds, Date.now, budget);
    const staying = new MemoryEventStore(sessionBounds, Date.now, budget);
    for (let n = 0; n < 10; n++) await closing.storeEvent('s', progress(n));
    const kept = await staying.storeEvent('s', progress(100));
    await staying.storeEvent('s', progress(101));
    closing.clear();
    expect({ closing: closing.bytes, budget: budget.bytes }).toEqual({ closing: 0, budget: staying.bytes });
    expect(budget.bytes).toBe(2 * (JSON.stringify(progress(100)).length + entryOverheadBytes));
    expect(await replayed(staying, kept)).toEqual([101]);
  });

  it('does not keep an event larger than the whole budget', async () => {
    const budget = new EventBudget(1024);
    const store = new MemoryEventStore(sessionBounds, Date.now, budget);
    await store.storeEvent('s', progress(1));
    const big = await store.storeEvent('s', { jsonrpc: '2.0', id: 1, result: { text: 'y'.repeat(2000) } });
    expect({ store: store.bytes, budget: budget.bytes }).toEqual({ store: 0, budget: 0 });
    expect(await store.getStreamIdForEventId(big)).toBeUndefined();
  });
});
