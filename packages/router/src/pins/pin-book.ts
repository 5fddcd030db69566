import { describeError, isoTime } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { PinningMode } from '../surface/surface-types.js';
import { fieldsSeen, pinnedForm } from './pin-definition.js';
import type { PinnedForm } from './pin-definition.js';
import { pinKey } from './pin-store.js';
import type { PinStore } from './pin-store.js';
import type { PinBook, PinChange, PinEntry, PinKind, PinRecord, PinReview } from './pin-types.js';
import { runNow } from '../slices.js';
import type { Sliced } from '../slices.js';

/**
 * The `PinBook` over a `PinStore`: reviews lists against an in-memory copy of the store
 * (synchronously, one cached digest and one map lookup per item), writes what it learns in the
 * background, one write at a time, and reloads when the store changes outside this process.
 *
 * First sight is per server and kind: a server with no entries is trusted (its definitions pinned);
 * so is each other kind this book reviews of a server it trusted first, the first time it reviews it
 * (a server's tools and prompts arrive in two lists). Anything later that has no pin is `new`.
 */

const nothing: ReadonlyMap<string, PinChange> = new Map();

const noun = (kind: PinKind): string => (kind === 'tool' ? 'Tool' : 'Prompt');

/** The sentence a refused call or a warning shows: what changed, and the commands that approve it. */
const pinChangeMessage = (change: Omit<PinChange, 'message'>, mode: 'warn' | 'enforce'): string => {
  const address = `${change.server}/${change.name}`;
  const what =
    change.change === 'changed'
      ? `changed since it was approved (${change.fields.join(', ')})`
      : "is new since its server's definitions were approved";
  const held = mode === 'enforce' ? 'it is quarantined' : 'it is served, with this warning,';
  return `${noun(change.kind)} "${change.name}" of server "${change.server}" ${what}; ${held} until an operator reviews it: promptyard-gateway pins diff ${address}, then promptyard-gateway pins approve ${address}.`;
};

class StoredPinBook implements PinBook {
  readonly #store: PinStore;
  readonly #logger: Logger;
  #entries = new Map<string, PinEntry>();
  /** Servers with at least one entry. */
  #servers = new Set<string>();
  /** Servers this book pinned on first sight, and the server/kind pairs it reviewed. */
  readonly #trusted = new Set<string>();
  readonly #reviewed = new Set<string>();
  readonly #listeners = new Set<() => void>();
  #queue: Promise<void> = Promise.resolve();
  readonly #unwatch: () => void;

  constructor(store: PinStore, logger: Logger, entries: readonly PinEntry[]) {
    this.#store = store;
    this.#logger = logger;
    this.#replace(entries);
    this.#unwatch = store.watch(() => this.#enqueue(() => this.#reload()));
  }

  review<T extends { readonly name: string }>(server: string, mode: PinningMode, kind: PinKind, items: readonly T[]): PinReview<T> {
    return runNow(this.reviewing(server, mode, kind, items));
  }

  *reviewing<T extends { readonly name: string }>(
    server: string,
    mode: PinningMode,
    kind: PinKind,
    items: readonly T[],
  ): Sliced<PinReview<T>> {
    if (mode === 'off') return { served: items, quarantined: nothing, warned: nothing };
    const pair = JSON.stringify([server, kind]);
    const trusting = !this.#servers.has(server) || (this.#trusted.has(server) && !this.#reviewed.has(pair));
    this.#reviewed.add(pair);
    if (trusting) this.#trusted.add(server);
    const at = isoTime();
    const record = (form: PinnedForm): PinRecord => ({ digest: form.digest, definition: form.definition, at });
    const absent: PinEntry[] = [];
    const replaced: PinEntry[] = [];
    const served: T[] = [];
    const quarantined = new Map<string, PinChange>();
    const warned = new Map<string, PinChange>();
    for (const item of items) {
      yield;
      const { name } = item;
      const form = pinnedForm(kind, item);
      const entry = this.#entries.get(pinKey({ server, kind, name }));
      const pinned = entry?.pinned;
      if (entry === undefined && trusting) {
        absent.push(this.#set({ server, kind, name, pinned: record(form) }));
      } else if (pinned?.digest === form.digest) {
        // Back to its approved form: what was pending is moot.
        if (entry?.pending !== undefined) replaced.push(this.#set({ server, kind, name, pinned }));
      } else {
        if (entry?.pending?.digest !== form.digest) {
          const seen = this.#set({ server, kind, name, ...(pinned === undefined ? {} : { pinned }), pending: record(form) });
          (entry === undefined ? absent : replaced).push(seen);
        }
        const fields = fieldsSeen(pinned, form);
        const change = { server, kind, name, change: pinned === undefined ? 'new' : 'changed', fields } as const;
        (mode === 'enforce' ? quarantined : warned).set(name, { ...change, message: pinChangeMessage(change, mode) });
        if (mode === 'enforce') continue;
      }
      served.push(item);
    }
    this.#save(absent, true);
    this.#save(replaced, false);
    return { served: quarantined.size === 0 ? items : served, quarantined, warned };
  }

  entries(): readonly PinEntry[] {
    return [...this.#entries.values()];
  }

  onChange(listener: () => void): () => void {
    const entry = (): void => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    this.#unwatch();
    this.#listeners.clear();
    await this.#queue;
    await this.#store.close();
  }

  #set(entry: PinEntry): PinEntry {
    this.#entries.set(pinKey(entry), entry);
    this.#servers.add(entry.server);
    return entry;
  }

  #replace(entries: readonly PinEntry[]): void {
    this.#entries = new Map(entries.map((entry) => [pinKey(entry), entry]));
    this.#servers = new Set(entries.map((entry) => entry.server));
    // A server whose pins were forgotten (`pins reset`) is seen for the first time again: all its kinds.
    for (const server of this.#trusted) if (!this.#servers.has(server)) this.#trusted.delete(server);
    for (const pair of this.#reviewed) if (!this.#servers.has((JSON.parse(pair) as [string, PinKind])[0])) this.#reviewed.delete(pair);
  }

  #enqueue(work: () => Promise<void>): void {
    this.#queue = this.#queue.then(work);
  }

  /** Writes in the background; an entry another process wrote first means the copy is stale: reload it. */
  #save(entries: readonly PinEntry[], onlyIfAbsent: boolean): void {
    if (entries.length === 0) return;
    this.#enqueue(async () => {
      try {
        if (!(await this.#store.write(entries, { onlyIfAbsent }))) await this.#reload();
      } catch (error) {
        this.#logger.error(
          `could not record definition pins in ${this.#store.where}; this process reviews against them, but they are lost when it stops`,
          {
            error: describeError(error),
          },
        );
      }
    });
  }

  async #reload(): Promise<void> {
    try {
      const had = this.#entries.size;
      this.#replace(await this.#store.load());
      if (had > 0 && this.#entries.size === 0)
        this.#logger.warn(
          `every definition pin is gone from ${this.#store.where} (pins reset, or the store lost its data): each server's definitions are pinned again as the gateway next sees them`,
        );
    } catch (error) {
      this.#logger.error(`the pins changed but cannot be read; the gateway keeps reviewing against the last pins it read`, {
        error: describeError(error),
      });
      return;
    }
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#logger.error('a pin change listener failed', { error: describeError(error) });
      }
    }
  }
}

/** The book of the pins in `store`, read once now (rejecting when they cannot be read). */
export const createPinBook = async (store: PinStore, logger: Logger): Promise<PinBook> =>
  new StoredPinBook(store, logger, await store.load());
