export interface RateLimitOptions {
  readonly requestsPerMinute: number;
  readonly burst: number;
  /** Clock, for tests. */
  readonly now?: () => number;
  /** Buckets kept at most; the stalest are dropped first. */
  readonly maxClients?: number;
}

export interface RateLimiter {
  /** Takes one token for `client`: 0 when allowed, else the seconds to wait before retrying. */
  take(client: string): number;
}

/** A token bucket per client: `burst` requests at once, refilled at `requestsPerMinute`. */
export const createRateLimiter = (options: RateLimitOptions): RateLimiter => {
  const now = options.now ?? Date.now;
  const perMs = options.requestsPerMinute / 60_000;
  const maxClients = options.maxClients ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take: (client) => {
      const time = now();
      let bucket = buckets.get(client);
      if (bucket === undefined) {
        if (buckets.size >= maxClients) {
          const oldest = buckets.keys().next().value;
          if (oldest !== undefined) buckets.delete(oldest);
        }
        bucket = { tokens: options.burst, at: time };
      } else {
        buckets.delete(client);
        bucket.tokens = Math.min(options.burst, bucket.tokens + (time - bucket.at) * perMs);
        bucket.at = time;
      }
      buckets.set(client, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    },
  };
};
