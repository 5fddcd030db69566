import type { Catalog } from '@promptyard/core';
import type { JsonObject, ListPage, SerializedListPage } from '../handlers.js';

/**
 * A list page also ends before ~96 KB of JSON: past V8's 128 KB regular-object limit every message
 * string is a large object, and a whole paged listing gets markedly slower (bench/prompts.bench.ts).
 */
const pageBudgetChars = 96 * 1024;

/**
 * Page boundaries found once per catalog version and cursor (weighing every entry as JSON), then
 * shared by every request. A page keeps its entries, not their wire form: mapping a page again is
 * cheap, while the mapped copies of every page would stay in memory (bench/prompts.bench.ts).
 *
 * A page's JSON text, asked for by the stdio fast path, is kept once made (until the catalog
 * changes): serialising a page is most of the server's work for it, and the text is one string a
 * page, where the mapped copies were a dozen objects a prompt for the collector to walk.
 */
export const createPageCache = <E extends { readonly name: string }>(
  catalog: Catalog<E>,
  map: (entry: E) => JsonObject,
  pageSize: number | undefined,
) => {
  const pages = new Map<string, { readonly entries: readonly E[]; readonly nextCursor: string | undefined; json?: string }>();
  let cachedVersion = -1;
  const find = (cursor: string | undefined) => {
    if (cachedVersion !== catalog.version) {
      pages.clear();
      cachedVersion = catalog.version;
    }
    const key = cursor ?? '';
    let page = pages.get(key);
    if (page === undefined) {
      const weigh = (entry: E): number => JSON.stringify(map(entry)).length;
      const listed = catalog.list({ cursor, pageSize, budget: { weigh, maxWeight: pageBudgetChars } });
      page = { entries: listed.items, nextCursor: listed.nextCursor };
      if (pages.size < 1000) pages.set(key, page);
    }
    return page;
  };
  return {
    page: (cursor: string | undefined): ListPage => {
      const page = find(cursor);
      return { items: page.entries.map(map), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    },
    serialized: (cursor: string | undefined): SerializedListPage => {
      const page = find(cursor);
      page.json ??= JSON.stringify(page.entries.map(map));
      return { items: page.json, nextCursor: page.nextCursor };
    },
  };
};
