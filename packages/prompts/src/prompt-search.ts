import MiniSearch from 'minisearch';
import type { Catalog, PromptEntry, PromptSearch } from '@promptyard/core';

interface Indexed {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly body: string;
}

/** Name words: `claude:git/fix-issue` also reads as `claude git fix issue`. */
const nameWords = (name: string): string => `${name} ${name.replace(/[:/._-]+/g, ' ')}`;

export interface PromptSearchOptions {
  readonly catalog: Catalog<PromptEntry>;
  /** The text searched besides the metadata: by default the prompt's source text and argument names. */
  readonly bodyOf?: (entry: PromptEntry) => string;
}

/**
 * BM25 search (MiniSearch) over prompt name, title, description and body, with prefix and fuzzy
 * matching. The index is rebuilt lazily, on the first search after the catalog changed.
 */
export const createPromptSearch = (options: PromptSearchOptions): PromptSearch => {
  const { catalog } = options;
  const bodyOf = options.bodyOf ?? ((entry: PromptEntry) => `${entry.text ?? ''} ${entry.arguments.map((argument) => argument.name).join(' ')}`);
  let index: MiniSearch<Indexed> | undefined;
  /** Names changed since the index was last brought up to date. */
  const stale = new Set<string>();

  const document = (name: string, entry: PromptEntry): Indexed => ({
    id: name,
    name: nameWords(name),
    title: entry.title ?? '',
    description: entry.description,
    body: bodyOf(entry),
  });

  const build = (): MiniSearch<Indexed> => {
    const search = new MiniSearch<Indexed>({
      fields: ['name', 'title', 'description', 'body'],
      storeFields: [],
      // Fuzzy matching costs most: short words are matched exactly or by prefix only, and at most two edits.
      searchOptions: {
        boost: { name: 3, title: 2, description: 1.5 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        maxFuzzy: 2,
        combineWith: 'OR',
      },
    });
    const documents: Indexed[] = [];
    for (const name of catalog.names()) {
      const entry = catalog.get(name);
      if (entry !== undefined) documents.push(document(name, entry));
    }
    search.addAll(documents);
    return search;
  };

  // The index is built on the first search; after that a hot reload re-indexes only the prompts it
  // changed (rebuilding 10,000 documents would stall the next search by ~300 ms).
  catalog.onChange(({ names }) => {
    if (index !== undefined) for (const name of names) stale.add(name);
  });

  const current = (): MiniSearch<Indexed> => {
    if (index === undefined) {
      stale.clear();
      index = build();
      return index;
    }
    for (const name of stale) {
      if (index.has(name)) index.discard(name);
      const entry = catalog.get(name);
      if (entry !== undefined) index.add(document(name, entry));
    }
    stale.clear();
    return index;
  };

  return {
    search: (query, limit) => {
      const searchIndex = current();
      // Every word first (few hits to rank); any word when that finds too little.
      let hits = searchIndex.search(query, { combineWith: 'AND' });
      if (hits.length < limit) hits = searchIndex.search(query);
      const results: PromptEntry[] = [];
      for (const hit of hits) {
        const entry = catalog.get(String(hit.id));
        if (entry !== undefined) results.push(entry);
        if (results.length >= limit) break;
      }
      return results;
    },
  };
};
