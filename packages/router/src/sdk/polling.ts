/**
 * How often the gateway fetches again what a 2026-07-28 server without a listen stream cannot
 * announce (its lists, a subscribed resource): at the result's `ttlMs`, within bounds, with jitter.
 */

/** A server's `ttlMs` is obeyed within these bounds: no poll storm from a tiny one, no deaf gateway from a huge one. */
export const POLL_FLOOR_MS = 1000;
const POLL_CEILING_MS = 5 * 60_000;
/** `ttlMs` 0 or absent says nothing about how often the result changes: the gateway's own guess. */
export const POLL_DEFAULT_MS = 30_000;

/** How often a result with this `ttlMs` is fetched again (before jitter). */
export const pollIntervalMs = (ttlMs: number | undefined): number =>
  ttlMs === undefined || ttlMs <= 0 ? POLL_DEFAULT_MS : Math.min(POLL_CEILING_MS, Math.max(POLL_FLOOR_MS, ttlMs));

/** Polls come a little before the result goes stale, spread out so that many servers' polls do not line up. */
const jitter = (): number => 0.8 + 0.15 * Math.random();

/** When to fetch again after `failures` failures in a row (0 after a success), given the usual interval. */
export const nextPollMs = (intervalMs: number, failures: number): number =>
  Math.min(POLL_CEILING_MS, intervalMs * 2 ** failures) * jitter();

/** Request options of a fetch that must reach the server (not the SDK's cache), within `timeoutMs`. */
export const fresh = (timeoutMs: number): { timeout: number; cacheMode: 'bypass' } => ({ timeout: timeoutMs, cacheMode: 'bypass' });

/** The `ttlMs` of a 2026-07-28 result (the SDK's loose result schemas carry it without a type). */
export const ttlOf = (result: object): number | undefined => {
  const ttlMs = (result as { ttlMs?: unknown }).ttlMs;
  return typeof ttlMs === 'number' && Number.isFinite(ttlMs) ? ttlMs : undefined;
};
