import type { PinStore } from './pin-store.js';
import type { PinEntry } from './pin-types.js';

/** What `pins approve` and `pins reset` change, and what `pins list` shows: what a person does with a store. */

/** Every server (no `server`), one server, or one name on it (its tool and its prompt of that name). */
export interface PinTarget {
  readonly server?: string | undefined;
  readonly name?: string | undefined;
}

export const matchesTarget = (entry: PinEntry, target: PinTarget): boolean =>
  (target.server === undefined || entry.server === target.server) && (target.name === undefined || entry.name === target.name);

/** The state `pins list` shows: `pinned` (as approved), `changed` (differs from its pin) or `new` (no pin yet). */
export const pinState = (entry: PinEntry): 'pinned' | 'changed' | 'new' =>
  entry.pending === undefined ? 'pinned' : entry.pinned === undefined ? 'new' : 'changed';

/** Makes what is pending of the target's entries their pin; resolves with the entries as they were. */
export const approvePins = async (store: PinStore, target: PinTarget = {}): Promise<PinEntry[]> => {
  const pending = (await store.load()).filter((entry) => entry.pending !== undefined && matchesTarget(entry, target));
  await store.write(pending.map(({ server, kind, name, pending: seen }) => ({ server, kind, name, pinned: seen })));
  return pending;
};

/** Forgets the pins of every server or of one (first sight trusts them again); resolves with what it forgot. */
export const resetPins = async (store: PinStore, server?: string): Promise<PinEntry[]> => {
  const forgotten = (await store.load()).filter((entry) => matchesTarget(entry, { server }));
  await store.remove(forgotten);
  return forgotten;
};
