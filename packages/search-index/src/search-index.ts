import MiniSearch from 'minisearch';

/**
 * The one search index of Promptyard: `search_prompts` of the server, the gateway's `search_tools`
 * and `search_prompts` meta tools and its terminal UI all rank with it. MiniSearch BM25 over a
 * name (×3), a title (×2), a description (×1.5) and a text, with prefix and typo-tolerant matching;
 * names are split into words, so `create issue` finds `github_create_issue` and `createIssue`.
 */

/** What is searched of an item. */
export interface SearchFields {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** Body text, argument names: matched like the rest, weighed least. */
  readonly text?: string | undefined;
}

export interface SearchOptions<T> {
  /** Most results; 20 by default. */
  readonly limit?: number;
  /** Only items it accepts (applied before the limit). */
  readonly filter?: (item: T) => boolean;
}

export interface SearchHit<T> {
  readonly item: T;
  readonly score: number;
}

export interface SearchIndex<T> {
  readonly size: number;
  /** Adds an item, or replaces the one with its id. */
  set(item: T): void;
  delete(id: string): void;
  /** Replaces every item (cheaper than one by one for a whole list). */
  replace(items: Iterable<T>): void;
  /**
   * Best first: items matching every word when there are enough of them, else any word. An empty
   * or blank query finds nothing.
   */
  search(query: string, options?: SearchOptions<T>): readonly SearchHit<T>[];
}

export interface SearchIndexOptions<T> {
  readonly id: (item: T) => string;
  readonly fields: (item: T) => SearchFields;
}

interface Document {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly text: string;
}

const defaultLimit = 20;
const separators = /[^\p{L}\p{N}]+/u;
const upper = /\p{Lu}/u;
// camelCase and PascalCase, acronyms (`HTTPServer` → HTTP Server); letters and digits stay together.
const caseChange = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** Splits names like `github_create_issue`, `createIssue`, `fs.read-file`, `HTTPServer` (and prose) into lowercase words. */
export const tokenizeIdentifier = (text: string): string[] => {
  const words: string[] = [];
  for (const part of text.split(separators)) {
    if (part === '') continue;
    if (!upper.test(part)) words.push(part);
    else for (const word of part.split(caseChange)) words.push(word.toLowerCase());
  }
  return words;
};

const identity = (term: string): string => term;

export const createSearchIndex = <T>(options: SearchIndexOptions<T>): SearchIndex<T> => {
  const items = new Map<string, T>();
  const toDocument = (id: string, item: T): Document => {
    const fields = options.fields(item);
    return { id, name: fields.name, title: fields.title ?? '', description: fields.description ?? '', text: fields.text ?? '' };
  };
  const create = (): MiniSearch<Document> =>
    new MiniSearch<Document>({
      fields: ['name', 'title', 'description', 'text'],
      storeFields: [],
      tokenize: tokenizeIdentifier,
      processTerm: identity,
      // Fuzzy matching costs most: short words match exactly or by prefix only, with at most two edits.
      searchOptions: {
        boost: { name: 3, title: 2, description: 1.5 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        maxFuzzy: 2,
        combineWith: 'OR',
        tokenize: tokenizeIdentifier,
        processTerm: identity,
      },
    });
  let index = create();

  return {
    get size() {
      return items.size;
    },
    set: (item) => {
      const id = options.id(item);
      if (items.has(id)) index.discard(id);
      items.set(id, item);
      index.add(toDocument(id, item));
    },
    delete: (id) => {
      if (!items.delete(id)) return;
      index.discard(id);
    },
    replace: (next) => {
      items.clear();
      for (const item of next) items.set(options.id(item), item);
      index = create();
      index.addAll([...items].map(([id, item]) => toDocument(id, item)));
    },
    search: (query, searchOptions = {}) => {
      const limit = searchOptions.limit ?? defaultLimit;
      if (limit <= 0 || items.size === 0 || query.trim() === '') return [];
      const { filter } = searchOptions;
      const accept = filter === undefined ? undefined : (hit: { id: unknown }) => filter(items.get(hit.id as string) as T);
      const run = (combineWith: 'AND' | 'OR') =>
        index.search(query, accept === undefined ? { combineWith } : { combineWith, filter: accept });
      let hits = run('AND');
      if (hits.length < limit) hits = run('OR');
      const results: SearchHit<T>[] = [];
      for (const hit of hits) {
        const item = items.get(hit.id as string);
        if (item === undefined) continue;
        results.push({ item, score: hit.score });
        if (results.length >= limit) break;
      }
      return results;
    },
  };
};
