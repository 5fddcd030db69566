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

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) → `127.0.0.1`. */
const plainAddress = (address: string): string => (address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address);

/**
 * The client a request counts against. Behind proxies listed in `trusted` (nginx in front of the
 * replicas), it is the address the nearest untrusted hop gave in `X-Forwarded-For` — read from the
 * right, since a client can put anything on the left. Otherwise, or without the header, it is the
 * connecting address.
 */
export const clientAddress = (remote: string | undefined, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string => {
  const peer = remote === undefined ? 'unknown' : plainAddress(remote);
  if (forwardedFor === undefined || !trusted.has(peer)) return peer;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = plainAddress((hops[index] as string).trim());
    if (hop !== '' && !trusted.has(hop)) return hop;
  }
  return peer;
};
