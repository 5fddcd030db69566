/**
 * The console's view of the audit trail: a trail that passes every entry on to the gateway's own
 * (`[audit]`, when configured) and keeps the last few hundred in memory for the Activity page, which
 * it tells of each new one. What it keeps never holds arguments: not even their digest.
 */
import type { AuditEntry, AuditTrail } from '@promptyard/core';

/** One kept entry: the audit line without the arguments' digest, numbered and timed. */
export type ActivityEntry = Omit<AuditEntry, 'argumentsDigest'> & { readonly seq: number; readonly time: Date };

export interface ActivityFeed {
  /** The trail to give the router and the console's actions: records here and in the gateway's trail. */
  readonly trail: AuditTrail;
  /** The kept entries, oldest first. */
  entries(): readonly ActivityEntry[];
  /** Called (bursts coalesced) after new entries arrived; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const defaultKept = 500;
const coalesceMs = 50;

export const createActivityFeed = (next: AuditTrail | undefined, kept = defaultKept): ActivityFeed => {
  const entries: ActivityEntry[] = [];
  const listeners = new Set<() => void>();
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  const notify = (): void => {
    timer = undefined;
    for (const listener of listeners) listener();
  };
  const record = (entry: AuditEntry): void => {
    next?.record(entry);
    const { argumentsDigest: _digest, ...rest } = entry;
    entries.push({ ...rest, seq: ++seq, time: new Date() });
    if (entries.length > kept) entries.splice(0, entries.length - kept);
    if (timer === undefined && listeners.size > 0) {
      timer = setTimeout(notify, coalesceMs);
      timer.unref();
    }
  };
  return {
    trail: { record, close: async () => next?.close() },
    entries: () => entries,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
