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
  let version = -1;
  let index: MiniSearch<Indexed> | undefined;

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
      if (entry === undefined) continue;
      documents.push({ id: name, name: nameWords(name), title: entry.title ?? '', description: entry.description, body: bodyOf(entry) });
    }
    search.addAll(documents);
    return search;
  };

  return {
    search: (query, limit) => {
      if (index === undefined || version !== catalog.version) {
        index = build();
        version = catalog.version;
      }
      // Every word first (few hits to rank); any word when that finds too little.
      let hits = index.search(query, { combineWith: 'AND' });
      if (hits.length < limit) hits = index.search(query);
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
