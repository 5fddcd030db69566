/**
 * What the Changes page reads and does: the definitions the pins hold a pending form of (quarantined
 * under `pinning = "enforce"`, served with a warning under `warn`), each with its diff as `pins diff`
 * shows it; approving one runs `pins approve server/name` (the same `approvePins` on a store at the
 * same place), which the running gateway hears and announces with list_changed; rejecting one runs
 * `pins reject server/name` the same way: it stays held back, and the pins keep who rejected it (so a
 * restart or another replica shows it too). Both write an audit line naming the admin, and answer
 * once this gateway's pins show what was done (the page drawn next shows it).
 */
import type { AuditTrail, Logger } from '@promptyard/core';
import { approvePins, fieldsSeen, openPinStore, pinState, rejectionOf, rejectPins } from '@promptyard/router';
import type { PinAddress, PinBook, PinChange, PinEntry, PinLocation, PinRecord, PinStore } from '@promptyard/router';
import { pinDiff } from '../../pin-diff.js';

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
  reject(address: PinAddress, digest: string, subject: string): Promise<DeskOutcome>;
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

/** How long an action waits for this gateway's book to hear what it wrote to the store. */
const settleMs = 2000;

/** Resolves once `done()` holds of the book (checked now and on each change it hears), or after `settleMs` anyway. */
const settled = (pins: PinBook, done: () => boolean): Promise<void> =>
  new Promise((resolve) => {
    if (done()) return resolve();
    const finish = (): void => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(finish, settleMs);
    const off = pins.onChange(() => {
      if (done()) finish();
    });
  });

/** Runs `work` on a store opened where the book's store is, as the `pins` command does. */
const withStore = async <T>(location: PinLocation, logger: Logger, work: (store: PinStore) => Promise<T>): Promise<T> => {
  const store = await openPinStore(location, logger);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};

export const createChangeDesk = (options: ChangeDeskOptions): ChangeDesk => {
  const { pins, location, quarantined, trail, logger } = options;
  const pendingEntries = (): Pending[] => (pins?.entries() ?? []).filter((entry): entry is Pending => entry.pending !== undefined);
  const entryOf = (address: PinAddress): PinEntry | undefined => pins?.entries().find((each) => keyOf(each) === keyOf(address));
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
        const rejected = rejectionOf(entry);
        return {
          server: entry.server,
          kind: entry.kind,
          name: entry.name,
          change: pinState(entry) === 'new' ? 'new' : 'changed',
          fields: fieldsSeen(entry.pinned, entry.pending),
          digest: entry.pending.digest,
          held: held.has(keyOf(entry)),
          diff: pinDiff(entry),
          rejected: rejected === undefined ? undefined : { subject: rejected.subject, at: new Date(rejected.at) },
        };
      });
    },
    approve: async (address, digest, subject) => {
      const started = performance.now();
      const entry = find(address, digest);
      if (typeof entry === 'string' || location === undefined || pins === undefined) return typeof entry === 'string' ? entry : 'unpinned';
      // `pins approve server/name`: its tool and its prompt of that name, each audited.
      const approved = await withStore(location, logger, (store) => approvePins(store, { server: entry.server, name: entry.name }));
      for (const each of approved.filter((one): one is Pending => one.pending !== undefined)) {
        const fields = fieldsSeen(each.pinned, each.pending).join(', ');
        audit(each, subject, 'approved', `definition approved in the console (${pinState(each)}: ${fields})`, started);
      }
      if (!approved.some((each) => keyOf(each) === keyOf(entry))) return 'gone';
      await settled(pins, () => entryOf(entry)?.pending?.digest !== digest);
      return 'done';
    },
    reject: async (address, digest, subject) => {
      const started = performance.now();
      const entry = find(address, digest);
      if (typeof entry === 'string' || location === undefined || pins === undefined) return typeof entry === 'string' ? entry : 'unpinned';
      // `pins reject server/name`, of this kind and of the form the page showed only.
      const target = { server: entry.server, kind: entry.kind, name: entry.name };
      const rejected = await withStore(location, logger, (store) => rejectPins(store, target, { subject, digest }));
      if (rejected.length === 0) return 'stale';
      audit(entry, subject, 'declined', 'definition rejected in the console: it stays unapproved', started);
      await settled(pins, () => {
        const now = entryOf(entry);
        return now === undefined || rejectionOf(now)?.subject === subject || now.pending?.digest !== digest;
      });
      return 'done';
    },
  };
};
