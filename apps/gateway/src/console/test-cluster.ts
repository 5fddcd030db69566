/** What the console's unit tests run a cluster on: time that moves when the test says, and one in-memory store its nodes share. */
import type { SharedMap } from '@promptyard/core';
import type { Clock } from './sources/cluster-view.js';

/** Lets what is due on the event loop run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Time that moves only when the test says, running what falls due in order. */
export const manualClock = () => {
  let now = Date.parse('2026-11-27T12:00:00Z');
  let timers: { at: number; run: () => void }[] = [];
  const clock: Clock & { advance(ms: number): Promise<void> } = {
    now: () => now,
    after: (ms, run) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => void (timers = timers.filter((other) => other !== timer));
    },
    advance: async (ms) => {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers = timers.filter((timer) => timer !== due);
        now = due.at;
        due.run();
        await settle();
      }
      now = end;
      await settle();
    },
  };
  return clock;
};

/** One store shared by the nodes of an in-memory cluster, as core's SharedMap contract reads (changes told to the other nodes only). */
export const memoryStore = () => {
  const data = new Map<string, string>();
  const nodes: { readonly id: string; readonly listeners: Set<(keys: readonly string[]) => void> }[] = [];
  let writes = 0;
  let down = false;
  const mapOf = (nodeId: string): SharedMap => {
    const listeners = new Set<(keys: readonly string[]) => void>();
    nodes.push({ id: nodeId, listeners });
    const announce = (keys: readonly string[]): void => {
      for (const node of nodes) if (node.id !== nodeId) for (const listener of node.listeners) listener(keys);
    };
    const reachable = (): void => {
      if (down) throw new Error('the cluster Redis is unreachable');
    };
    return {
      getAll: async () => (reachable(), new Map(data)),
      set: async (entries) => {
        reachable();
        writes += 1;
        for (const [key, value] of entries) data.set(key, value);
        announce([...entries.keys()]);
        return [...entries.keys()];
      },
      delete: async (keys) => {
        reachable();
        for (const key of keys) data.delete(key);
        announce(keys);
      },
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  };
  return { data, mapOf, writes: () => writes, setDown: (value: boolean) => void (down = value) };
};
