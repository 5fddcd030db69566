import { describe, expect, it } from 'vitest';
import { runNow, runSliced, SLICE_MS } from './slices.js';
import type { Sliced } from './slices.js';

/** Sums `count` numbers, yielding after each; `busyMs` of work per item. */
function* summing(count: number, busyMs = 0): Sliced<number> {
  let sum = 0;
  for (let index = 0; index < count; index++) {
    const until = performance.now() + busyMs;
    while (performance.now() < until);
    sum += index;
    yield;
  }
  return sum;
}

describe('runSliced', () => {
  it('does work that fits in one slice at once, synchronously', () => {
    expect(runSliced(summing(1000))).toBe(499_500);
  });

  it('gives the event loop back between slices of long work, and ends with its result', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const started = performance.now();
    const result = runSliced(summing(400, 0.25));
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(79_800);
    clearInterval(ticking);
    // ~100 ms of work in slices of SLICE_MS: timers ran between them.
    expect(turns).toBeGreaterThan(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLICE_MS);
  });
});

describe('runNow', () => {
  it('runs long work to its end at once', () => {
    expect(runNow(summing(400, 0.01))).toBe(79_800);
  });
});
