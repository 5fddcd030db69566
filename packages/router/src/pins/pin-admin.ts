import { isoTime } from '@promptyard/core';
import type { PinStore } from './pin-store.js';
import type { PinEntry, PinKind, PinRecord, PinRejection } from './pin-types.js';

/** What `pins approve`, `pins reject` and `pins reset` change, and what `pins list` shows: what a person does with a store. */

/** Every server (no `server`), one server, or one name on it (its tool and its prompt of that name, or only the one of `kind`). */
export interface PinTarget {
  readonly server?: string | undefined;
  readonly name?: string | undefined;
  readonly kind?: PinKind | undefined;
}

export const matchesTarget = (entry: PinEntry, target: PinTarget): boolean =>
  (target.server === undefined || entry.server === target.server) &&
  (target.name === undefined || entry.name === target.name) &&
  (target.kind === undefined || entry.kind === target.kind);

/** The state `pins list` shows: `pinned` (as approved), `changed` (differs from its pin) or `new` (no pin yet). */
export const pinState = (entry: PinEntry): 'pinned' | 'changed' | 'new' =>
  entry.pending === undefined ? 'pinned' : entry.pinned === undefined ? 'new' : 'changed';

/** The rejection of the entry's pending form, if it has one (a rejection of an older form no longer counts). */
export const rejectionOf = (entry: PinEntry): PinRejection | undefined =>
  entry.pending !== undefined && entry.rejected?.digest === entry.pending.digest ? entry.rejected : undefined;

/** Makes what is pending of the target's entries their pin (which clears any rejection); resolves with the entries as they were. */
export const approvePins = async (store: PinStore, target: PinTarget = {}): Promise<PinEntry[]> => {
  const pending = (await store.load()).filter((entry) => entry.pending !== undefined && matchesTarget(entry, target));
  await store.write(pending.map(({ server, kind, name, pending: seen }) => ({ server, kind, name, pinned: seen })));
  return pending;
};

/** Who rejects, and (from a page that showed one form) which pending form: another one is left as it is. */
export interface PinRejector {
  readonly subject: string;
  readonly digest?: string | undefined;
}

/**
 * Records that `by.subject` rejected what is pending of the target's entries: each stays unapproved
 * (quarantined under `enforce`, served with its warning under `warn`), marked with who and when,
 * until it is approved or a newer form replaces it. Resolves with the entries as they are now.
 */
export const rejectPins = async (store: PinStore, target: PinTarget, by: PinRejector): Promise<PinEntry[]> => {
  const at = isoTime();
  const rejected = (await store.load())
    .filter((entry): entry is PinEntry & { readonly pending: PinRecord } => entry.pending !== undefined && matchesTarget(entry, target))
    .filter((entry) => by.digest === undefined || entry.pending.digest === by.digest)
    .map((entry) => ({ ...entry, rejected: { digest: entry.pending.digest, subject: by.subject, at } }));
  await store.write(rejected);
  return rejected;
};

/** Forgets the pins of every server or of one (first sight trusts them again); resolves with what it forgot. */
export const resetPins = async (store: PinStore, server?: string): Promise<PinEntry[]> => {
  const forgotten = (await store.load()).filter((entry) => matchesTarget(entry, { server }));
  await store.remove(forgotten);
  return forgotten;
};
