import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@promptyard/core';
import { entryOverheadBytes, MemoryEventStore } from './memory-event-store.js';
import type { EventStoreBounds } from './memory-event-store.js';

const progress = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

/** What a resume after `lastEventId` sends: each event's id and progress (or id). */
const replay = async (store: MemoryEventStore, lastEventId: string): Promise<{ stream: string; sent: [string, unknown][] }> => {
  const sent: [string, unknown][] = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, message) => {
      sent.push([eventId, (message['params'] as { progress?: number } | undefined)?.progress ?? message['id']]);
    },
  });
  return { stream, sent };
};

const bounds = (overrides: Partial<EventStoreBounds> = {}): EventStoreBounds => ({
  maxEventsPerStream: 1000,
  maxBytes: 1024 * 1024,
  maxAgeMs: 60_000,
  ...overrides,
});

describe('MemoryEventStore', () => {
  it('replays a stream after its priming event, or after any of its events, and nothing of another stream', async () => {
    const store = new MemoryEventStore(bounds());
    const primed = await store.storeEvent('a', {});
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      ids.push(await store.storeEvent('a', progress(n)));
      await store.storeEvent('b', progress(100 + n));
    }
    const result = await store.storeEvent('a', { jsonrpc: '2.0', id: 7, result: {} });

    expect(await store.getStreamIdForEventId(primed)).toBe('a');
    expect(await replay(store, primed)).toEqual({
      stream: 'a',
      sent: [
        [ids[0], 1],
        [ids[1], 2],
        [ids[2], 3],
        [result, 7],
      ],
    });
    expect((await replay(store, ids[1] as string)).sent).toEqual([
      [ids[2], 3],
      [result, 7],
    ]);
    expect((await replay(store, result)).sent).toEqual([]);
  });

  it('replays what is stored while a replay is under way, so the stream goes live without a gap', async () => {
    const store = new MemoryEventStore(bounds());
    const primed = await store.storeEvent('a', {});
    await store.storeEvent('a', progress(1));
    const sent: number[] = [];
    await store.replayEventsAfter(primed, {
      send: async (_id, message) => {
        const n = (message['params'] as { progress: number }).progress;
        sent.push(n);
        if (n < 3) await store.storeEvent('a', progress(n + 1));
      },
    });
    expect(sent).toEqual([1, 2, 3]);
  });

  it('refuses ids it never issued or no longer holds, telling the client to reconnect without one', async () => {
    const store = new MemoryEventStore(bounds());
    const primed = await store.storeEvent('a', {});
    for (const id of ['', 'a', 'a|0', 'a|x', '|1', 'b|1', 'a|99', `${primed}0`]) {
      expect(await store.getStreamIdForEventId(id)).toBeUndefined();
      await expect(replay(store, id)).rejects.toThrow(/is not kept .*reconnect without Last-Event-ID/);
    }
  });

  it('keeps a stream’s last maxEventsPerStream events: a resume from before them is refused, one after them is whole', async () => {
    const store = new MemoryEventStore(bounds({ maxEventsPerStream: 3 }));
    const primed = await store.storeEvent('a', {});
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.push(await store.storeEvent('a', progress(n)));
    expect(await store.getStreamIdForEventId(primed)).toBeUndefined();
    await expect(replay(store, ids[0] as string)).rejects.toThrow(/is not kept/);
    // Events 3, 4 and 5 are kept: a client that saw 2 misses nothing.
    expect((await replay(store, ids[1] as string)).sent.map(([, n]) => n)).toEqual([3, 4, 5]);
  });

  it('stays whole through many events that leave early: other streams’ events among them are kept', async () => {
    const store = new MemoryEventStore(bounds({ maxEventsPerStream: 10 }));
    const b = await store.storeEvent('b', {});
    await store.storeEvent('b', progress(-1));
    let last = '';
    for (let n = 1; n <= 5000; n++) {
      last = await store.storeEvent('a', progress(n));
      if (n === 2500) await store.storeEvent('b', progress(-2));
    }
    expect(store.bytes).toBe(
      13 * entryOverheadBytes + 10 * JSON.stringify(progress(5000)).length + 2 * JSON.stringify(progress(-1)).length,
    );
    expect((await replay(store, b)).sent.map(([, n]) => n)).toEqual([-1, -2]);
    expect(await store.getStreamIdForEventId(last)).toBe('a');
  });

  it('keeps at most maxBytes over all streams, the oldest events leaving first; an event over the bound is not kept', async () => {
    const one = JSON.stringify(progress(1)).length + entryOverheadBytes;
    const store = new MemoryEventStore(bounds({ maxBytes: 3 * one }));
    const a1 = await store.storeEvent('a', progress(1));
    const b2 = await store.storeEvent('b', progress(2));
    await store.storeEvent('a', progress(3));
    await store.storeEvent('b', progress(4));
    expect(store.bytes).toBeLessThanOrEqual(3 * one);
    // a1 left, yet a client that saw it misses nothing; b2 is still there.
    expect(await store.getStreamIdForEventId(a1)).toBe('a');
    expect((await replay(store, a1)).sent.map(([, n]) => n)).toEqual([3]);
    expect((await replay(store, b2)).sent.map(([, n]) => n)).toEqual([4]);

    const huge = { jsonrpc: '2.0', id: 9, result: { text: 'x'.repeat(4 * one) } };
    const before = await store.storeEvent('a', progress(5));
    const hugeId = await store.storeEvent('a', huge);
    expect(store.bytes).toBeLessThanOrEqual(3 * one);
    await expect(replay(store, before)).rejects.toThrow(/is not kept/);
    expect((await replay(store, hugeId)).sent).toEqual([]);
  });

  it('drops events older than maxAgeMs, at the next event or at prune (an idle session), streams and all', async () => {
    let now = 1_000_000;
    const store = new MemoryEventStore(bounds({ maxAgeMs: 1000 }), () => now);
    const primed = await store.storeEvent('a', {});
    await store.storeEvent('a', progress(1));
    now += 600;
    const late = await store.storeEvent('a', progress(2));
    now += 600;
    await store.storeEvent('b', progress(3));
    // Progress 1 left with its stream's start: a resume after the start would miss it.
    expect(await store.getStreamIdForEventId(primed)).toBeUndefined();
    expect((await replay(store, late)).sent).toEqual([]);
    now += 2000;
    store.prune();
    expect({ streams: store.streams, bytes: store.bytes }).toEqual({ streams: 0, bytes: 0 });
    expect(await store.getStreamIdForEventId(late)).toBeUndefined();
  });

  it('does not resume a stream that emptied and started again from an id of before', async () => {
    let now = 0;
    const store = new MemoryEventStore(bounds({ maxAgeMs: 100 }), () => now);
    const old = await store.storeEvent('_GET_stream', progress(1));
    now += 200;
    const fresh = await store.storeEvent('_GET_stream', progress(2));
    expect(await store.getStreamIdForEventId(old)).toBeUndefined();
    expect(await store.getStreamIdForEventId(fresh)).toBe('_GET_stream');
  });
});
