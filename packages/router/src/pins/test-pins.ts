import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { PinStore } from './pin-store.js';
import type { PinBook, PinEntry } from './pin-types.js';

/** A logger that keeps its lines, and a way to wait for one that matches. */
export const recordingLogger = () => {
  const lines: string[] = [];
  const waiters: { readonly pattern: RegExp; readonly resolve: (line: string) => void }[] = [];
  const logger: Logger = createLogger({
    level: 'debug',
    write: (line) => {
      lines.push(line);
      for (const waiter of waiters.splice(0))
        if (waiter.pattern.test(line)) waiter.resolve(line);
        else waiters.push(waiter);
    },
  });
  const waitFor = (pattern: RegExp): Promise<string> => {
    const found = lines.find((line) => pattern.test(line));
    return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ pattern, resolve }));
  };
  return { logger, lines, waitFor };
};

/** A temporary folder, removed by `remove()` (in afterEach). */
export const temporaryFolder = async (): Promise<{ readonly path: string; remove(): Promise<void> }> => {
  const path = await mkdtemp(join(tmpdir(), 'promptyard-pins-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
};

/** Resolves when `book` next hears of a change from outside. */
export const nextChange = (book: PinBook, timeoutMs = 5000): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`the pin book heard of no change within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = book.onChange(() => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });

/** Resolves with the entries of `store` once they match (checked now and on each change another writer makes). */
export const until = (store: PinStore, match: (entries: PinEntry[]) => boolean, timeoutMs = 5000): Promise<PinEntry[]> =>
  new Promise((resolve, reject) => {
    let last: PinEntry[] = [];
    const timer = setTimeout(() => {
      off();
      reject(new Error(`the pins never matched within ${timeoutMs} ms; last seen ${JSON.stringify(last)}`));
    }, timeoutMs);
    const check = (): void => {
      store.load().then((entries) => {
        last = entries;
        if (!match(entries)) return;
        clearTimeout(timer);
        off();
        resolve(entries);
      }, reject);
    };
    const off = store.watch(check);
    check();
  });

export const tool = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});
