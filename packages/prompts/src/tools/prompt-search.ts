import type { Catalog, PromptEntry } from '@promptyard/core';
import type { PromptSearch } from './prompt-tools.js';
import { createSearchIndex } from '@promptyard/search-index';
import type { SearchIndex } from '@promptyard/search-index';

export interface PromptSearchOptions {
  readonly catalog: Catalog<PromptEntry>;
  /** The text searched besides the metadata: by default the prompt's source text and argument names. */
  readonly bodyOf?: (entry: PromptEntry) => string;
}

/**
 * `search_prompts` over a prompt catalog. The index is built on the first search; after that a hot
 * reload re-indexes only the prompts it changed (rebuilding a large library would stall the next
 * search).
 */
export const createPromptSearch = (options: PromptSearchOptions): PromptSearch => {
  const { catalog } = options;
  const bodyOf =
    options.bodyOf ?? ((entry: PromptEntry) => `${entry.text ?? ''} ${entry.arguments.map((argument) => argument.name).join(' ')}`);
  let index: SearchIndex<PromptEntry> | undefined;
  /** Names changed since the index was last brought up to date. */
  const stale = new Set<string>();

  catalog.onChange(({ names }) => {
    if (index !== undefined) for (const name of names) stale.add(name);
  });

  const current = (): SearchIndex<PromptEntry> => {
    if (index === undefined) {
      stale.clear();
      index = createSearchIndex<PromptEntry>({
        id: (entry) => entry.name,
        fields: (entry) => ({ name: entry.name, title: entry.title, description: entry.description, text: bodyOf(entry) }),
      });
      index.replace(catalog.names().flatMap((name) => catalog.get(name) ?? []));
      return index;
    }
    for (const name of stale) {
      const entry = catalog.get(name);
      if (entry === undefined) index.delete(name);
      else index.set(entry);
    }
    stale.clear();
    return index;
  };

  return {
    search: (query, limit) =>
      current()
        .search(query, { limit })
        .map((hit) => hit.item),
  };
};
