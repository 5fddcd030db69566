/**
 * Keeping one connection's lists fresh: fetched again after a list_changed (bursts coalesce into one
 * fetch per list), re-listed as their `ttlMs` runs out when nothing announces their changes (a
 * 2026-07-28 server without a listen stream), and at once — at most once a second — when a call
 * names something the gateway does not know.
 */
import { isDeepStrictEqual } from 'node:util';
import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { nextPollMs, POLL_DEFAULT_MS, POLL_FLOOR_MS, pollIntervalMs } from '../sdk/polling.js';
import type { ListName, UpstreamConnection } from '../sdk/upstream-types.js';
import { fetchLists } from './backend-lists.js';
import type { BackendLists, Cuts, Fetched, Freshness, ListRequest } from './backend-lists.js';

/** Lists due this close together are fetched in one go. */
const BATCH_MS = 250;

/** What the refresh reads and updates of its backend. */
export interface RefreshHost {
  readonly id: string;
  readonly logger: Logger;
  /** The lists as they stand, and what was cut of them. */
  lists(): { readonly lists: BackendLists; readonly cuts: Cuts };
  /** How `lists` are read again (timeout, cap). */
  request(lists: readonly ListName[]): ListRequest;
  /** Whether `connection` is still the backend's, and ready. */
  serving(connection: UpstreamConnection): boolean;
  update(fetched: Fetched): void;
}

const sameLists = (a: BackendLists, b: BackendLists): boolean =>
  (Object.keys(a) as (keyof BackendLists)[]).every((list) => a[list] === b[list] || isDeepStrictEqual(a[list], b[list]));

export class ListRefresh {
  private readonly connection: UpstreamConnection;
  private readonly host: RefreshHost;
  private readonly wanted = new Set<ListName>();
  private running: Promise<void> | undefined;
  /** When each polled list is due again, and how many polls of it failed in a row (the backoff). */
  private readonly due = new Map<ListName, number>();
  private readonly failures = new Map<ListName, number>();
  private readonly intervals = new Map<ListName, number>();
  private timer: NodeJS.Timeout | undefined;
  private relistedAt = 0;
  /** Grows with each fetch that changed a list: `relist` tells by it whether its fetch found anything. */
  private updates = 0;
  private stopped = false;

  constructor(connection: UpstreamConnection, host: RefreshHost, freshness: Freshness) {
    this.connection = connection;
    this.host = host;
    this.schedule(freshness, []);
  }

  /** Seconds between polls of the list polled most often; undefined when nothing is polled. */
  get pollSeconds(): number | undefined {
    const polled = this.connection.listChanges.polled.map((list) => this.intervals.get(list) ?? POLL_DEFAULT_MS);
    return polled.length === 0 ? undefined : Math.round(Math.min(...polled) / 1000);
  }

  /** Fetches `lists` again (after a list_changed, a poll, a lost stream): bursts coalesce into one fetch per list. */
  refresh(lists: readonly ListName[]): Promise<void> {
    for (const list of lists) this.wanted.add(list);
    // A fetch under way takes the new lists on its next round, unless it was just ending: then anew.
    if (this.running !== undefined) return this.running.then(() => (this.wanted.size > 0 ? this.refresh([]) : undefined));
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** A call named something unknown: the polled lists fetched now (at most once a second); true when one changed. */
  async relist(): Promise<boolean> {
    const polled = this.connection.listChanges.polled;
    if (polled.length === 0 || this.stopped || Date.now() - this.relistedAt < POLL_FLOOR_MS) return false;
    this.relistedAt = Date.now();
    const before = this.updates;
    await this.refresh(polled);
    return this.updates !== before;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    while (this.wanted.size > 0 && !this.stopped) {
      const lists = [...this.wanted];
      this.wanted.clear();
      if (!this.host.serving(this.connection)) return;
      try {
        const fetched = await fetchLists(this.connection, this.host.lists(), this.host.request(lists));
        if (!this.host.serving(this.connection)) return;
        // A poll that finds the lists as they were leaves the routes (and the search indexes) alone.
        const current = this.host.lists();
        if (!sameLists(current.lists, fetched.lists) || !isDeepStrictEqual(current.cuts, fetched.cuts)) {
          this.updates++;
          this.host.update(fetched);
        }
        this.schedule(fetched.freshness, []);
      } catch (error) {
        this.host.logger.warn('could not fetch a list again', {
          server: this.host.id,
          lists: lists.join(','),
          reason: describeError(error),
        });
        this.schedule({}, lists);
      }
    }
  }

  /**
   * The next poll of each list nothing announces changes of: fetched lists at their `ttlMs` (a
   * little before, with jitter), failed ones backed off (doubling, up to the ceiling).
   */
  private schedule(freshness: Freshness, failed: readonly ListName[]): void {
    if (this.stopped) return;
    const polled = new Set(this.connection.listChanges.polled);
    const now = Date.now();
    for (const [list, ttlMs] of Object.entries(freshness) as [ListName, number | undefined][]) {
      if (!polled.has(list)) continue;
      const interval = pollIntervalMs(ttlMs);
      this.intervals.set(list, interval);
      this.failures.delete(list);
      this.due.set(list, now + nextPollMs(interval, 0));
    }
    for (const list of failed) {
      if (!polled.has(list)) continue;
      const failures = (this.failures.get(list) ?? 0) + 1;
      this.failures.set(list, failures);
      this.due.set(list, now + nextPollMs(this.intervals.get(list) ?? POLL_DEFAULT_MS, failures));
    }
    clearTimeout(this.timer);
    const next = Math.min(...[...this.due].filter(([list]) => polled.has(list)).map(([, at]) => at));
    if (!Number.isFinite(next)) return;
    this.timer = setTimeout(() => this.poll(), Math.max(0, next - now));
    this.timer.unref();
  }

  private poll(): void {
    const polled = new Set(this.connection.listChanges.polled);
    const cutoff = Date.now() + BATCH_MS;
    const due = [...this.due].filter(([list, at]) => polled.has(list) && at <= cutoff).map(([list]) => list);
    for (const list of due) this.due.delete(list);
    // A stream that opened late covers the lists now: nothing left to poll.
    if (due.length > 0) void this.refresh(due);
    else this.schedule({}, []);
  }
}
