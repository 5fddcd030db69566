import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

describe('createRateLimiter', () => {
  it('allows a burst, then refills at the sustained rate', () => {
    let now = 0;
    const limiter = createRateLimiter({ requestsPerMinute: 60, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now += 1000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThanOrEqual(1);
  });

  it('forgets the stalest clients beyond its bound', () => {
    const limiter = createRateLimiter({ requestsPerMinute: 1, burst: 1, maxClients: 2, now: () => 0 });
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('b')).toBe(0);
    expect(limiter.take('c')).toBe(0);
    expect(limiter.take('a')).toBe(0);
  });
});
