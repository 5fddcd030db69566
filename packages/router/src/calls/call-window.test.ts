import { describe, expect, it } from 'vitest';
import { CallWindow } from './call-window.js';

/** A window on a clock the test moves; `call(ms)`: a call that started `ms` ago ends now. */
const windowAt = (start = 1_000_000): { window: CallWindow; clock: { now: number }; call(ms: number, errorType?: string): void } => {
  const clock = { now: start };
  const window = new CallWindow(() => clock.now);
  return {
    window,
    clock,
    call: (ms, errorType) => window.end(clock.now - ms, errorType),
  };
};

/** Within the histogram's stated precision: a bin's middle is at most 2^(1/8) − 1 ≈ 9.05 % from any value in it. */
const near = (actual: number | undefined, expected: number): void => {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected) / expected).toBeLessThanOrEqual(0.0906);
};

describe('CallWindow', () => {
  it('has no summary before the first call', () => {
    expect(windowAt().window.summary()).toBeUndefined();
  });

  it('times a call from start to end on its clock', () => {
    const { window, clock } = windowAt();
    const started = window.start();
    clock.now += 40;
    window.end(started, undefined);
    near(window.summary()?.p50Ms, 40);
  });

  it('estimates p50 and p95 of known distributions within 9 %', () => {
    const uniform = windowAt();
    for (let ms = 1; ms <= 1000; ms++) uniform.call(ms);
    const summary = uniform.window.summary();
    expect(summary).toMatchObject({ count: 1000, failed: 0, toolErrors: 0, windowSeconds: 300 });
    near(summary?.p50Ms, 500);
    near(summary?.p95Ms, 950);

    // Mostly fast, a slow tail: the median stays with the fast calls, p95 lands in the tail.
    const tailed = windowAt();
    for (let i = 0; i < 90; i++) tailed.call(2);
    for (let i = 0; i < 10; i++) tailed.call(800);
    near(tailed.window.summary()?.p50Ms, 2);
    near(tailed.window.summary()?.p95Ms, 800);
  });

  it('reads sub-0.1 ms calls as 0.05 ms and caps the longest at the last bin', () => {
    const fast = windowAt();
    fast.call(0);
    fast.call(0.01);
    expect(fast.window.summary()).toMatchObject({ p50Ms: 0.05, p95Ms: 0.05 });
    const slow = windowAt();
    slow.call(24 * 3600_000);
    near(slow.window.summary()?.p95Ms, 2 ** 24 * 0.1);
  });

  it('counts failures, tool errors apart, and leaves cancelled calls out', () => {
    const { window, call } = windowAt();
    for (let i = 0; i < 6; i++) call(5);
    call(5, 'timeout');
    call(5, '-32603');
    call(5, 'connection_closed');
    call(5, 'tool_error');
    call(5_000, 'cancelled');
    expect(window.summary()).toMatchObject({ count: 10, failed: 3, toolErrors: 1 });
    near(window.summary()?.p95Ms, 5);
  });

  it('forgets calls older than five minutes, bucket by bucket', () => {
    const { window, clock, call } = windowAt(0);
    call(10, 'timeout'); // the bucket [0, 10 s)
    clock.now = 150_000;
    call(20); // bucket [150 s, 160 s)
    expect(window.summary()).toMatchObject({ count: 2, failed: 1 });
    clock.now = 299_999; // the first bucket is still one of the last 30
    expect(window.summary()?.count).toBe(2);
    clock.now = 300_000; // a 31st bucket begins: the first drops out
    expect(window.summary()).toMatchObject({ count: 1, failed: 0 });
    near(window.summary()?.p50Ms, 20);
    clock.now = 460_000;
    expect(window.summary()).toBeUndefined();
  });

  it('reuses a slot for a new period instead of adding to its old counts', () => {
    const { window, clock, call } = windowAt(0);
    call(1000); // slot 0, period 0
    clock.now = 300_000; // slot 0 again, period 30
    call(1);
    expect(window.summary()).toMatchObject({ count: 1 });
    near(window.summary()?.p95Ms, 1);
  });

  it('keeps the same memory however many calls it sees', () => {
    const { window, clock, call } = windowAt();
    const before = window.bytes;
    expect(before).toBeLessThan(16 * 1024);
    for (let i = 0; i < 100_000; i++) {
      call((i % 997) + 0.5, i % 50 === 0 ? 'timeout' : undefined);
      clock.now += 37; // an hour of calls: the ring wraps many times
    }
    expect(window.bytes).toBe(before);
    // Only the last 290–300 s are counted: one call every 37 ms.
    const count = window.summary()?.count ?? 0;
    expect(count).toBeGreaterThanOrEqual(Math.floor(290_000 / 37));
    expect(count).toBeLessThanOrEqual(Math.ceil(300_000 / 37));
  });
});
