/**
 * Catalogs: the named entries a server serves (prompts, resources, tools), contributed by owners
 * that take precedence in registration order, looked up by name with a "did you mean" on a miss, and
 * listed in keyset pages (`catalog-pages.ts`: cursors that stay valid across changes).
 */
import { PromptyardError } from '../errors/errors.js';
import type { PromptyardErrorCode } from '../errors/errors.js';
import { closestNames, didYouMean } from '../text/suggest.js';
import { listPage } from './catalog-pages.js';
import type { CatalogListOptions, CatalogPage } from './catalog-pages.js';

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

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface OwnerState<T extends Named> {
  readonly id: string;
  readonly items: Map<string, T>;
}

/** What a catalog holds: its owners in precedence order, the entries they serve, and who listens. */
interface CatalogState<T extends Named> {
  readonly owners: OwnerState<T>[];
  readonly effective: Map<string, T>;
  /** The effective names in code point order; dropped when a name comes or goes. */
  sorted: string[] | undefined;
  version: number;
  readonly changeListeners: Set<(change: CatalogChange) => void>;
  readonly conflictListeners: Set<(conflict: CatalogConflict) => void>;
}

const notify = <E>(listeners: Set<(event: E) => void>, event: E): void => {
  for (const listener of listeners) listener(event);
};

const subscribe = <E>(listeners: Set<(event: E) => void>, listener: (event: E) => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Recomputes which owner serves `name`; returns whether the served entry changed. */
const resolve = <T extends Named>(state: CatalogState<T>, name: string): boolean => {
  let served: T | undefined;
  let servedBy: string | undefined;
  for (const owner of state.owners) {
    const item = owner.items.get(name);
    if (item === undefined) continue;
    if (served === undefined) {
      served = item;
      servedBy = owner.id;
    } else {
      notify(state.conflictListeners, { name, kept: servedBy as string, shadowed: owner.id });
    }
  }
  const previous = state.effective.get(name);
  if (previous === served) return false;
  if (served === undefined) state.effective.delete(name);
  else state.effective.set(name, served);
  if ((previous === undefined) !== (served === undefined)) state.sorted = undefined;
  return true;
};

const commit = <T extends Named>(state: CatalogState<T>, touched: Iterable<string>): void => {
  const changed: string[] = [];
  for (const name of new Set(touched)) if (resolve(state, name)) changed.push(name);
  if (changed.length === 0) return;
  state.version += 1;
  notify(state.changeListeners, { version: state.version, names: changed });
};

const sortedNames = <T extends Named>(state: CatalogState<T>): readonly string[] => {
  state.sorted ??= [...state.effective.keys()].sort(byCodePoint);
  return state.sorted;
};

const addOwner = <T extends Named>(state: CatalogState<T>, id: string): CatalogOwner<T> => {
  if (state.owners.some((owner) => owner.id === id)) throw new Error(`catalog owner "${id}" is already registered`);
  const owner: OwnerState<T> = { id, items: new Map<string, T>() };
  state.owners.push(owner);
  return {
    id,
    replace: (items) => {
      const touched = [...owner.items.keys()];
      owner.items.clear();
      for (const item of items) {
        owner.items.set(item.name, item);
        touched.push(item.name);
      }
      commit(state, touched);
    },
    update: ({ upserted = [], removed = [] }) => {
      const touched: string[] = [];
      for (const name of removed) if (owner.items.delete(name)) touched.push(name);
      for (const item of upserted) {
        owner.items.set(item.name, item);
        touched.push(item.name);
      }
      commit(state, touched);
    },
  };
};

export const createCatalog = <T extends Named>(options: CatalogOptions): Catalog<T> => {
  const { kind } = options;
  const pageSizes = { defaultPageSize: options.defaultPageSize ?? 500, maxPageSize: options.maxPageSize ?? 5000 };
  const state: CatalogState<T> = {
    owners: [],
    effective: new Map<string, T>(),
    sorted: undefined,
    version: 0,
    changeListeners: new Set(),
    conflictListeners: new Set(),
  };
  const { effective } = state;
  const names = (): readonly string[] => sortedNames(state);
  return {
    kind,
    get size() {
      return effective.size;
    },
    get version() {
      return state.version;
    },
    get: (name) => effective.get(name),
    names,
    list: (listOptions = {}) => listPage(kind, names(), effective, listOptions, pageSizes),
    owner: (id) => addOwner(state, id),
    onChange: (listener) => subscribe(state.changeListeners, listener),
    onConflict: (listener) => subscribe(state.conflictListeners, listener),
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
