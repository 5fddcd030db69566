import { PromptyardError } from './errors.js';
import type { PromptyardErrorCode } from './errors.js';
import { closestNames, didYouMean } from './suggest.js';

export interface Named {
  readonly name: string;
}

export interface CatalogChange {
  /** Increases by one with every change. */
  readonly version: number;
  /** Names whose effective entry was added, replaced or removed. */
  readonly names: readonly string[];
}

export interface CatalogConflict {
  readonly name: string;
  /** The owner whose entry is served. */
  readonly kept: string;
  /** The owner whose entry is hidden by it. */
  readonly shadowed: string;
}

export interface CatalogPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

export interface CatalogListOptions<T = unknown> {
  readonly cursor?: string | undefined;
  readonly pageSize?: number | undefined;
  /**
   * A page also ends before its weight (`weigh` summed, e.g. serialised bytes) would pass
   * `maxWeight`; it always holds at least one entry.
   */
  readonly budget?: { readonly weigh: (item: T) => number; readonly maxWeight: number } | undefined;
}

export interface CatalogDelta<T> {
  readonly upserted?: readonly T[];
  readonly removed?: readonly string[];
}

/** A source's handle on the catalog: owners registered earlier take precedence on name collisions. */
export interface CatalogOwner<T extends Named> {
  readonly id: string;
  /** Replaces everything this owner contributed. */
  replace(items: readonly T[]): void;
  update(delta: CatalogDelta<T>): void;
}

export interface Catalog<T extends Named> {
  /** What the entries are, for messages ("prompt", "resource", "tool"). */
  readonly kind: string;
  readonly size: number;
  readonly version: number;
  get(name: string): T | undefined;
  /** Every name, in the catalog's stable (code point) order. */
  names(): readonly string[];
  /** One page, ordered by name. Cursors are opaque and stay valid across changes (keyset paging). */
  list(options?: CatalogListOptions<T>): CatalogPage<T>;
  owner(id: string): CatalogOwner<T>;
  onChange(listener: (change: CatalogChange) => void): () => void;
  onConflict(listener: (conflict: CatalogConflict) => void): () => void;
}

export interface CatalogOptions {
  readonly kind: string;
  readonly defaultPageSize?: number;
  readonly maxPageSize?: number;
}

const cursorPrefix = 'k1:';

const encodeCursor = (lastName: string): string => Buffer.from(cursorPrefix + lastName, 'utf8').toString('base64url');

const decodeCursor = (cursor: string, kind: string): string => {
  const decoded = /^[A-Za-z0-9_-]*$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!decoded.startsWith(cursorPrefix)) {
    throw new PromptyardError(
      'INVALID_CURSOR',
      `Invalid cursor for ${kind}s/list: pass the nextCursor of a previous page unchanged, or omit it to start over.`,
    );
  }
  return decoded.slice(cursorPrefix.length);
};

/** First index in sorted `names` whose name is greater than `after`. */
const upperBound = (names: readonly string[], after: string): number => {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((names[mid] as string) <= after) low = mid + 1;
    else high = mid;
  }
  return low;
};

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const createCatalog = <T extends Named>(options: CatalogOptions): Catalog<T> => {
  const { kind } = options;
  const defaultPageSize = options.defaultPageSize ?? 500;
  const maxPageSize = options.maxPageSize ?? 5000;
  const owners: { readonly id: string; readonly items: Map<string, T> }[] = [];
  const effective = new Map<string, T>();
  let sorted: string[] | undefined;
  let version = 0;
  const changeListeners = new Set<(change: CatalogChange) => void>();
  const conflictListeners = new Set<(conflict: CatalogConflict) => void>();

  const notify = <E>(listeners: Set<(event: E) => void>, event: E): void => {
    for (const listener of listeners) listener(event);
  };

  /** Recomputes which owner serves `name`; returns whether the served entry changed. */
  const resolve = (name: string): boolean => {
    let served: T | undefined;
    let servedBy: string | undefined;
    for (const owner of owners) {
      const item = owner.items.get(name);
      if (item === undefined) continue;
      if (served === undefined) {
        served = item;
        servedBy = owner.id;
      } else {
        notify(conflictListeners, { name, kept: servedBy as string, shadowed: owner.id });
      }
    }
    const previous = effective.get(name);
    if (previous === served) return false;
    if (served === undefined) effective.delete(name);
    else effective.set(name, served);
    if ((previous === undefined) !== (served === undefined)) sorted = undefined;
    return true;
  };

  const commit = (touched: Iterable<string>): void => {
    const changed: string[] = [];
    for (const name of new Set(touched)) if (resolve(name)) changed.push(name);
    if (changed.length === 0) return;
    version += 1;
    notify(changeListeners, { version, names: changed });
  };

  const names = (): readonly string[] => {
    sorted ??= [...effective.keys()].sort(byCodePoint);
    return sorted;
  };

  return {
    kind,
    get size() {
      return effective.size;
    },
    get version() {
      return version;
    },
    get: (name) => effective.get(name),
    names,
    list: ({ cursor, pageSize, budget } = {}) => {
      const size = Math.max(1, Math.min(pageSize ?? defaultPageSize, maxPageSize));
      const all = names();
      const start = cursor === undefined ? 0 : upperBound(all, decodeCursor(cursor, kind));
      let end = Math.min(start + size, all.length);
      const items: T[] = [];
      let weight = 0;
      for (let index = start; index < end; index++) {
        const item = effective.get(all[index] as string) as T;
        if (budget !== undefined) {
          weight += budget.weigh(item);
          if (weight > budget.maxWeight && items.length > 0) {
            end = index;
            break;
          }
        }
        items.push(item);
      }
      return end < all.length ? { items, nextCursor: encodeCursor(all[end - 1] as string) } : { items };
    },
    owner: (id) => {
      if (owners.some((owner) => owner.id === id)) throw new Error(`catalog owner "${id}" is already registered`);
      const state = { id, items: new Map<string, T>() };
      owners.push(state);
      return {
        id,
        replace: (items) => {
          const touched = [...state.items.keys()];
          state.items.clear();
          for (const item of items) {
            state.items.set(item.name, item);
            touched.push(item.name);
          }
          commit(touched);
        },
        update: ({ upserted = [], removed = [] }) => {
          const touched: string[] = [];
          for (const name of removed) if (state.items.delete(name)) touched.push(name);
          for (const item of upserted) {
            state.items.set(item.name, item);
            touched.push(item.name);
          }
          commit(touched);
        },
      };
    },
    onChange: (listener) => {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    onConflict: (listener) => {
      conflictListeners.add(listener);
      return () => conflictListeners.delete(listener);
    },
  };
};

/**
 * The entry named `name`, or an error of `code` naming the closest known names and the list method
 * to call (`Unknown prompt "reviw". Did you mean "review"?`).
 */
export const findOrSuggest = <T extends Named>(catalog: Catalog<T>, name: string, code: PromptyardErrorCode): T => {
  const entry = catalog.get(name);
  if (entry !== undefined) return entry;
  const suggestions = closestNames(name, catalog.names());
  const hint = didYouMean(suggestions);
  throw new PromptyardError(
    code,
    `Unknown ${catalog.kind} "${name}".${hint} Use ${catalog.kind}s/list to see the ${catalog.size} available ${catalog.kind}s.`,
    {
      data: { name, suggestions },
    },
  );
};
