/**
 * What the Changes page reads and does: the definitions the pins hold a pending form of (quarantined
 * under `pinning = "enforce"`, served with a warning under `warn`), each with its diff as `pins diff`
 * shows it; approving one runs `pins approve server/name` (the same `approvePins` on a store at the
 * same place), which the running gateway hears and announces with list_changed; rejecting one keeps
 * it held back and says so. Both write an audit line naming the admin.
 */
import type { AuditTrail, Logger } from '@promptyard/core';
import { approvePins, fieldsSeen, openPinStore, pinState } from '@promptyard/router';
import type { PinAddress, PinBook, PinChange, PinEntry, PinLocation, PinRecord } from '@promptyard/router';
import { pinDiff } from '../pin-diff.js';

export interface PendingDefinition extends PinAddress {
  readonly change: 'changed' | 'new';
  readonly fields: readonly string[];
  /** The pending form's digest: an action names the form it was taken on. */
  readonly digest: string;
  /** Held back now (`enforce`); otherwise served with a warning (`warn`). */
  readonly held: boolean;
  /** As `pins diff` shows it. */
  readonly diff: string;
  readonly rejected?: { readonly subject: string; readonly at: Date } | undefined;
}

/** What an action did: `done`, or why it was not (nothing pending of that form, no pins). */
export type DeskOutcome = 'done' | 'gone' | 'stale' | 'unpinned';

export interface ChangeDesk {
  pending(): readonly PendingDefinition[];
  approve(address: PinAddress, digest: string, subject: string): Promise<DeskOutcome>;
  reject(address: PinAddress, digest: string, subject: string): DeskOutcome;
}

export interface ChangeDeskOptions {
  readonly pins: PinBook | undefined;
  /** Where the book's store is: approving opens a store there, as `pins approve` does. */
  readonly location: PinLocation | undefined;
  readonly quarantined: () => readonly PinChange[];
  readonly trail: AuditTrail;
  readonly logger: Logger;
}

type Pending = PinEntry & { readonly pending: PinRecord };

const keyOf = (address: PinAddress): string => JSON.stringify([address.server, address.kind, address.name]);

export const createChangeDesk = (options: ChangeDeskOptions): ChangeDesk => {
  const { pins, location, quarantined, trail, logger } = options;
  /** Rejections by entry, each for the pending form it was given on. */
  const rejections = new Map<string, { readonly digest: string; readonly subject: string; readonly at: Date }>();
  const pendingEntries = (): Pending[] => (pins?.entries() ?? []).filter((entry): entry is Pending => entry.pending !== undefined);
  const find = (address: PinAddress, digest: string): Pending | DeskOutcome => {
    if (pins === undefined || location === undefined) return 'unpinned';
    const entry = pendingEntries().find((each) => keyOf(each) === keyOf(address));
    if (entry === undefined) return 'gone';
    return entry.pending.digest === digest ? entry : 'stale';
  };
  const audit = (entry: Pending, subject: string, decision: 'approved' | 'declined', reason: string, started: number): void =>
    trail.record({
      identity: subject,
      profile: 'console',
      server: entry.server,
      kind: entry.kind,
      name: entry.name,
      decision,
      reason,
      durationMs: Math.round(performance.now() - started),
    });
  return {
    pending: () => {
      const held = new Set(quarantined().map(keyOf));
      return pendingEntries().map((entry) => {
        const rejected = rejections.get(keyOf(entry));
        return {
          server: entry.server,
          kind: entry.kind,
          name: entry.name,
          change: pinState(entry) === 'new' ? 'new' : 'changed',
          fields: fieldsSeen(entry.pinned, entry.pending),
          digest: entry.pending.digest,
          held: held.has(keyOf(entry)),
          diff: pinDiff(entry),
          rejected: rejected?.digest === entry.pending.digest ? rejected : undefined,
        };
      });
    },
    approve: async (address, digest, subject) => {
      const started = performance.now();
      const entry = find(address, digest);
      if (typeof entry === 'string' || location === undefined) return typeof entry === 'string' ? entry : 'unpinned';
      const store = await openPinStore(location, logger);
      let approved: PinEntry[];
      try {
        // `pins approve server/name`: its tool and its prompt of that name, each audited.
        approved = await approvePins(store, { server: entry.server, name: entry.name });
      } finally {
        await store.close();
      }
      for (const each of approved.filter((one): one is Pending => one.pending !== undefined)) {
        rejections.delete(keyOf(each));
        const fields = fieldsSeen(each.pinned, each.pending).join(', ');
        audit(each, subject, 'approved', `definition approved in the console (${pinState(each)}: ${fields})`, started);
      }
      return approved.some((each) => keyOf(each) === keyOf(entry)) ? 'done' : 'gone';
    },
    reject: (address, digest, subject) => {
      const started = performance.now();
      const entry = find(address, digest);
      if (typeof entry === 'string') return entry;
      rejections.set(keyOf(entry), { digest, subject, at: new Date() });
      audit(entry, subject, 'declined', 'definition rejected in the console: it stays unapproved', started);
      return 'done';
    },
  };
};
