import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollResource } from './resource-polling.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client whose one resource says `text`, fresh for `ttlMs`; `fails` makes reads fail. */
const fakeClient = (ttlMs: number) => {
  const state = { text: 'one', reads: 0, fails: false };
  const client = {
    readResource: async ({ uri }: { uri: string }) => {
      state.reads++;
      if (state.fails) throw new Error('connection refused');
      return { contents: [{ uri, text: state.text }], ttlMs };
    },
  } as unknown as Client;
  return { state, client };
};

describe('pollResource', () => {
  it('reads a subscribed resource again as its ttlMs runs out and reports each change once', async () => {
    const { state, client } = fakeClient(2000);
    const updates: string[] = [];
    const watch = pollResource(client, 'test://r', 1000, (uri) => updates.push(uri));
    await vi.advanceTimersByTimeAsync(0);
    expect(state.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(state.reads).toBe(2);
    expect(updates).toEqual([]);
    state.text = 'two';
    await vi.advanceTimersByTimeAsync(2000);
    expect(updates).toEqual(['test://r']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(updates).toEqual(['test://r']);
    await watch.close();
    const reads = state.reads;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.reads).toBe(reads);
  });

  it('backs off while reads fail', async () => {
    const { state, client } = fakeClient(1000);
    state.fails = true;
    const watch = pollResource(client, 'test://r', 1000, () => {});
    await vi.advanceTimersByTimeAsync(0);
    // One failure: twice the default interval (no ttlMs known), 48 to 57 s.
    await vi.advanceTimersByTimeAsync(47_000);
    expect(state.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.reads).toBe(2);
    await watch.close();
  });
});
