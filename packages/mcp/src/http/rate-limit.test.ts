import { describe, expect, it } from 'vitest';
import { clientAddress, createRateLimiter } from './rate-limit.js';

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

describe('clientAddress', () => {
  const proxies = new Set(['127.0.0.1', '10.0.0.5']);
  it('is the connecting address unless it is a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', proxies)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(clientAddress(undefined, undefined, proxies)).toBe('unknown');
  });

  it('behind trusted proxies, is the nearest untrusted hop of X-Forwarded-For, read from the right', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', proxies)).toBe('198.51.100.1');
    // A client cannot choose its bucket by writing on the left.
    expect(clientAddress('127.0.0.1', 'forged, 198.51.100.1', proxies)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', '198.51.100.1, 10.0.0.5', proxies)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', ' , 10.0.0.5', proxies)).toBe('127.0.0.1');
  });
});
