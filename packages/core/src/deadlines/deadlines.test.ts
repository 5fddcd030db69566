import { describe, expect, it } from 'vitest';
import { createDeadlines } from './deadlines.js';

const timeout = (): Error => new Error('too slow');
/** Work that ends only when its deadline's signal aborts, with the signal's reason. */
const untilAborted =
  (signals: AbortSignal[]) =>
  (deadline: { readonly signal: AbortSignal }): Promise<never> =>
    new Promise((_resolve, reject) => {
      const { signal } = deadline;
      signals.push(signal);
      if (signal.aborted) reject(signal.reason as Error);
      else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });

describe('createDeadlines', () => {
  it('passes on what the work gives or throws', async () => {
    const withDeadline = createDeadlines(1000);
    await expect(withDeadline(timeout, async () => 'done')).resolves.toBe('done');
    await expect(withDeadline(timeout, async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
  });

  it('fails work past its deadline with the timeout error and aborts its signal', async () => {
    const withDeadline = createDeadlines(1000);
    const signals: AbortSignal[] = [];
    await expect(withDeadline(timeout, untilAborted(signals), 20)).rejects.toThrow('too slow');
    expect(signals[0]?.aborted).toBe(true);
    expect((signals[0]?.reason as Error).message).toBe('too slow');
  });

  it('aborts the work when the caller gives up first, or had given up before it read its signal', async () => {
    const withDeadline = createDeadlines(60_000);
    const caller = new AbortController();
    const signals: AbortSignal[] = [];
    const running = withDeadline(timeout, untilAborted(signals), undefined, caller.signal);
    caller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    expect(signals[0]?.aborted).toBe(true);

    // A caller's signal that is already aborted when the work reads its own.
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    await expect(withDeadline(timeout, untilAborted([]), undefined, gone.signal)).rejects.toThrow('gone');
  });

  it('ends a call whose work throws at once, so no timeout of it follows', async () => {
    const withDeadline = createDeadlines(20);
    let timedOut = 0;
    await expect(
      withDeadline(
        () => {
          timedOut += 1;
          return new Error('too slow');
        },
        () => {
          throw new Error('thrown');
        },
      ),
    ).rejects.toThrow('thrown');
    // A later call times out: the watchdog has run past the first call's deadline by then.
    await expect(withDeadline(timeout, untilAborted([]), 40)).rejects.toThrow('too slow');
    expect(timedOut).toBe(0);
  });
});
