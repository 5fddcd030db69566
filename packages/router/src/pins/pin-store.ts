import { isTable } from '@promptyard/core';
import type { PinEntry, PinKind, PinRecord, PinRejection } from './pin-types.js';

/**
 * Where pins are kept: one JSON file (`file-pin-store.ts`) or a map shared through the cluster's
 * Redis (`cluster-pin-store.ts`). A store holds entries by server, kind and name; the book reviews
 * against an in-memory copy and writes what it learns here; `pins approve`, `pins reject` and
 * `pins reset` (`pin-admin.ts`) change it from another process, which the book hears through `watch`.
 */
export interface PinStore {
  /** Where the pins live, for messages: the file's path, or the Redis map. */
  readonly where: string;
  /** Every entry; rejects with a message naming the store when what it holds cannot be read. */
  load(): Promise<PinEntry[]>;
  /**
   * Writes `entries`, each replacing the entry of the same server, kind and name; with
   * `onlyIfAbsent`, only those no one wrote yet. Resolves `false` when some were not written.
   */
  write(entries: readonly PinEntry[], options?: { readonly onlyIfAbsent?: boolean }): Promise<boolean>;
  /** Forgets the entries of these servers, kinds and names. */
  remove(entries: readonly PinAddress[]): Promise<void>;
  /** Forgets every entry, even when what the store holds cannot be read (`pins reset` of a broken file). */
  clear(): Promise<void>;
  /** Called when the store changed outside this process; returns an unsubscribe function. */
  watch(listener: () => void): () => void;
  close(): Promise<void>;
}

/** What names one entry. */
export interface PinAddress {
  readonly server: string;
  readonly kind: PinKind;
  readonly name: string;
}

/** One string per entry (server and name may hold any character). */
export const pinKey = (entry: PinAddress): string => JSON.stringify([entry.server, entry.kind, entry.name]);

const checkRecord = (value: unknown, where: string): PinRecord | undefined => {
  if (value === undefined) return undefined;
  if (!isTable(value) || typeof value['digest'] !== 'string' || !isTable(value['definition']) || typeof value['at'] !== 'string')
    throw new Error(`${where} must be an object with "digest" (a string), "definition" (an object) and "at" (a string)`);
  return { digest: value['digest'], definition: value['definition'], at: value['at'] };
};

const checkRejection = (value: unknown, where: string): PinRejection | undefined => {
  if (value === undefined) return undefined;
  if (!isTable(value) || typeof value['digest'] !== 'string' || typeof value['subject'] !== 'string' || typeof value['at'] !== 'string')
    throw new Error(`${where} must be an object with "digest", "subject" and "at" (strings)`);
  return { digest: value['digest'], subject: value['subject'], at: value['at'] };
};

/** `value` as an entry, or an Error saying what of it is wrong (`where` names it). */
export const checkEntry = (value: unknown, where: string): PinEntry => {
  if (!isTable(value)) throw new Error(`${where} must be an object`);
  const { server, kind, name } = value;
  if (typeof server !== 'string' || server === '') throw new Error(`${where}.server must be a server id`);
  if (kind !== 'tool' && kind !== 'prompt') throw new Error(`${where}.kind must be "tool" or "prompt"`);
  if (typeof name !== 'string' || name === '') throw new Error(`${where}.name must be a name`);
  const pinned = checkRecord(value['pinned'], `${where}.pinned`);
  const pending = checkRecord(value['pending'], `${where}.pending`);
  const rejected = checkRejection(value['rejected'], `${where}.rejected`);
  if (pinned === undefined && pending === undefined) throw new Error(`${where} has neither "pinned" nor "pending"`);
  return {
    server,
    kind,
    name,
    ...(pinned === undefined ? {} : { pinned }),
    ...(pending === undefined ? {} : { pending }),
    ...(rejected === undefined ? {} : { rejected }),
  };
};

/** What to do about a store that cannot be read: never trust again silently. */
export const unreadableAdvice =
  "fix it, or forget the pins with `promptyard-gateway pins reset` (every server's definitions are then trusted again on first sight)";
