/**
 * The gate a source's swap passes: renders and reads run `shared`, many at once, each on the version
 * served when it started; a swap runs `exclusive`, after the shared tasks in flight (or `drainMs`, then
 * logged), while shared tasks that start meanwhile wait for it — so a request is answered wholly from
 * one version. Swaps run one at a time, in the order asked. No polling: waiters are promises.
 */
import type { Logger } from '@promptyard/core';
import type { SwapGate } from '../types.js';

export interface SwapGateOptions {
  /** How long a swap waits for the shared tasks in flight before it goes ahead anyway (default 10 s). */
  readonly drainMs?: number | undefined;
  readonly logger: Logger;
  /** Names the gate in logs (the source). */
  readonly name: string;
}

export const createSwapGate = ({ drainMs = 10_000, logger, name }: SwapGateOptions): SwapGate => {
  let running = 0;
  /** Swaps asked and not finished: while any, shared tasks wait. */
  let swaps = 0;
  /** Resolves the swap waiting for the shared tasks in flight, when they are done. */
  let drained: (() => void) | undefined;
  /** Shared tasks waiting for the swaps to finish. */
  let held: (() => void)[] = [];
  /** The last swap asked: the next runs after it, whatever it did. */
  let tail: Promise<void> = Promise.resolve();

  const drain = (): Promise<void> => {
    if (running === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        drained = undefined;
        logger.warn('swap went ahead before requests in flight finished', { source: name, running, drainMs });
        resolve();
      }, drainMs);
      drained = () => {
        clearTimeout(timer);
        drained = undefined;
        resolve();
      };
    });
  };

  const shared = async <T>(task: () => Promise<T>): Promise<T> => {
    while (swaps > 0) await new Promise<void>((resolve) => held.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      if (running === 0) drained?.();
    }
  };

  const exclusive = <T>(swap: () => Promise<T>): Promise<T> => {
    swaps += 1;
    const result = tail.then(async () => {
      await drain();
      return swap();
    });
    const finished = result.then(
      () => undefined,
      () => undefined,
    );
    tail = finished.then(() => {
      swaps -= 1;
      if (swaps === 0) {
        const waiting = held;
        held = [];
        for (const resolve of waiting) resolve();
      }
    });
    return result;
  };

  return { shared, exclusive };
};
