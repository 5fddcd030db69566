import { PromptyardError } from '../errors/errors.js';

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

/**
 * One page of a catalog's entries after the cursor's name (keyset paging over the sorted names),
 * ended by the page size or the weight budget.
 */
export const listPage = <T>(
  kind: string,
  all: readonly string[],
  entries: ReadonlyMap<string, T>,
  { cursor, pageSize, budget }: CatalogListOptions<T>,
  limits: { readonly defaultPageSize: number; readonly maxPageSize: number },
): CatalogPage<T> => {
  const size = Math.max(1, Math.min(pageSize ?? limits.defaultPageSize, limits.maxPageSize));
  const start = cursor === undefined ? 0 : upperBound(all, decodeCursor(cursor, kind));
  let end = Math.min(start + size, all.length);
  const items: T[] = [];
  let weight = 0;
  for (let index = start; index < end; index++) {
    const item = entries.get(all[index] as string) as T;
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
};
