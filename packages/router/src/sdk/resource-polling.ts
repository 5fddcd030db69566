/**
 * A resource subscription on a 2026-07-28 server that cannot announce updates (no listen stream,
 * or no `resources.subscribe` capability): the resource is read again as its `ttlMs` runs out (the bounds of `polling.ts`, backing
 * off while reads fail), and an update reported when its contents changed.
 */
import type { Client } from '@modelcontextprotocol/client';
import { fresh, nextPollMs, pollIntervalMs, ttlOf } from './polling.js';

export interface ResourceWatch {
  close(): Promise<void>;
}

export const pollResource = (client: Client, uri: string, timeoutMs: number, updated: (uri: string) => void): ResourceWatch => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last: string | undefined;
  let failures = 0;
  const read = async (): Promise<void> => {
    let ttlMs: number | undefined;
    try {
      const result = await client.readResource({ uri }, fresh(timeoutMs));
      const contents = JSON.stringify(result.contents);
      if (last !== undefined && contents !== last && !stopped) updated(uri);
      last = contents;
      failures = 0;
      ttlMs = ttlOf(result);
    } catch {
      failures++;
    }
    if (stopped) return;
    timer = setTimeout(() => void read(), nextPollMs(pollIntervalMs(ttlMs), failures));
    timer.unref();
  };
  void read();
  return {
    close: async () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
};
