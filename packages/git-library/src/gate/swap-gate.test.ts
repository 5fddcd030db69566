import { createLogger } from '@promptyard/core';
import type { LogRecord } from '@promptyard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSwapGate } from './swap-gate.js';

/** A promise resolved by hand. */
const deferred = <T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const recordingLogger = (): { logger: ReturnType<typeof createLogger>; records: LogRecord[] } => {
  const logger = createLogger({ level: 'debug', write: () => undefined });
  const records: LogRecord[] = [];
  logger.subscribe((record) => records.push(record));
  return { logger, records };
};

/** Lets every pending promise callback run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
};

afterEach(() => {
  vi.useRealTimers();
});

describe('createSwapGate', () => {
  it('runs an exclusive only after the shared task in flight finished', async () => {
    const { logger } = recordingLogger();
    const gate = createSwapGate({ logger, name: 'prompts' });
    const order: string[] = [];
    const read = deferred();
    const shared = gate.shared(async () => {
      order.push('read start');
      await read.promise;
      order.push('read end');
    });
    const swap = gate.exclusive(async () => {
      order.push('swap');
    });
    await settle();
    expect(order).toEqual(['read start']);
    read.resolve();
    await Promise.all([shared, swap]);
    expect(order).toEqual(['read start', 'read end', 'swap']);
  });

  it('holds a shared task that arrives during an exclusive until it finished, then it sees the new state', async () => {
    const { logger } = recordingLogger();
    const gate = createSwapGate({ logger, name: 'prompts' });
    let version = 'v1';
    const swapping = deferred();
    const swap = gate.exclusive(async () => {
      await swapping.promise;
      version = 'v2';
    });
    await settle();
    const seen = gate.shared(async () => version);
    await settle();
    swapping.resolve();
    await swap;
    expect(await seen).toBe('v2');
  });

  it('goes ahead after drainMs when a shared task does not finish, and logs it', async () => {
    vi.useFakeTimers();
    const { logger, records } = recordingLogger();
    const gate = createSwapGate({ logger, name: 'prompts', drainMs: 500 });
    const stuck = deferred();
    void gate.shared(() => stuck.promise);
    let swapped = false;
    const swap = gate.exclusive(async () => {
      swapped = true;
    });
    await settle();
    expect(swapped).toBe(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(swapped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await swap;
    expect(swapped).toBe(true);
    expect(records.filter((record) => record.level === 'warning').map((record) => record.message)).toEqual([
      'swap went ahead before requests in flight finished',
    ]);
    stuck.resolve();
  });

  it('runs exclusives one at a time in order, and a rejected one does not wedge the gate', async () => {
    const { logger } = recordingLogger();
    const gate = createSwapGate({ logger, name: 'prompts' });
    const order: string[] = [];
    const first = deferred();
    const a = gate.exclusive(async () => {
      order.push('a start');
      await first.promise;
      order.push('a end');
      throw new Error('a failed');
    });
    const b = gate.exclusive(async () => {
      order.push('b');
      return 'b done';
    });
    const read = gate.shared(async () => {
      order.push('read');
    });
    await settle();
    expect(order).toEqual(['a start']);
    first.resolve();
    await expect(a).rejects.toThrow('a failed');
    expect(await b).toBe('b done');
    await read;
    expect(order).toEqual(['a start', 'a end', 'b', 'read']);
    await expect(gate.shared(async () => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(await gate.exclusive(async () => 'after')).toBe('after');
  });

  it('runs shared tasks together when no swap is asked', async () => {
    const { logger } = recordingLogger();
    const gate = createSwapGate({ logger, name: 'prompts' });
    const one = deferred();
    const started: string[] = [];
    const a = gate.shared(async () => {
      started.push('a');
      await one.promise;
    });
    const b = gate.shared(async () => {
      started.push('b');
    });
    await b;
    expect(started).toEqual(['a', 'b']);
    one.resolve();
    await a;
  });
});
