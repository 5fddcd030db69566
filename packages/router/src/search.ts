import MiniSearch from 'minisearch';

/** What the meta tools search: one tool, prompt or resource of one backend. */
export interface CatalogCard {
  readonly name: string;
  readonly server: string;
  readonly title?: string;
  readonly description?: string;
  /** Argument / property names. */
  readonly keywords?: readonly string[];
}

export interface CardSearchOptions {
  readonly limit?: number;
  /** Only cards of this server. */
  readonly server?: string;
}

export interface CardIndex<C extends CatalogCard> {
  /** Rebuilds the index (after a list change). */
  replace(cards: readonly C[]): void;
  /** BM25 ranking, best first; an empty or blank query finds nothing. */
  search(query: string, options?: CardSearchOptions): readonly (C & { score: number })[];
  readonly size: number;
}

interface Indexed {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly keywords: string;
}

const DEFAULT_LIMIT = 20;

const SEPARATORS = /[^\p{L}\p{N}]+/u;
const UPPER = /\p{Lu}/u;
// camelCase and PascalCase, acronyms (`HTTPServer` → HTTP Server); letters and digits stay together.
const CASE_CHANGE = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** Splits names like `github_create_issue`, `createIssue`, `fs.read-file`, `HTTPServer` into lowercase words. */
export const tokenizeIdentifier = (text: string): string[] => {
  const words: string[] = [];
  for (const part of text.split(SEPARATORS)) {
    if (part === '') continue;
    if (!UPPER.test(part)) words.push(part);
    else for (const word of part.split(CASE_CHANGE)) words.push(word.toLowerCase());
  }
  return words;
};

/**
 * A search index over catalog cards for the gateway's meta tools: MiniSearch BM25 over name (×3),
 * title (×2), description and argument names, with prefix and fuzzy matching. Names are split into
 * words, so `create issue` finds `github_create_issue` and `createIssue`.
 */
export const createCardIndex = <C extends CatalogCard>(): CardIndex<C> => {
  let cards: readonly C[] = [];
  let index: MiniSearch<Indexed> | undefined;

  const build = (): MiniSearch<Indexed> => {
    const search = new MiniSearch<Indexed>({
      fields: ['name', 'title', 'description', 'keywords'],
      storeFields: [],
      tokenize: tokenizeIdentifier,
      processTerm: (term) => term,
      searchOptions: {
        boost: { name: 3, title: 2 },
        prefix: true,
        fuzzy: 0.2,
        maxFuzzy: 2,
        combineWith: 'OR',
        tokenize: tokenizeIdentifier,
        processTerm: (term) => term,
      },
    });
    search.addAll(
      cards.map((card, id) => ({
        id,
        name: card.name,
        title: card.title ?? '',
        description: card.description ?? '',
        keywords: card.keywords?.join(' ') ?? '',
      })),
    );
    return search;
  };

  return {
    replace(next) {
      cards = [...next];
      index = build();
    },
    search(query, options = {}) {
      if (query.trim() === '' || cards.length === 0) return [];
      index ??= build();
      const limit = options.limit ?? DEFAULT_LIMIT;
      if (limit <= 0) return [];
      const { server } = options;
      const hits = index.search(query, server === undefined ? {} : { filter: (hit) => cards[hit.id as number]?.server === server });
      const results: (C & { score: number })[] = [];
      for (const hit of hits) {
        const card = cards[hit.id as number];
        if (card === undefined) continue;
        results.push({ ...card, score: hit.score });
        if (results.length >= limit) break;
      }
      return results;
    },
    get size() {
      return cards.length;
    },
  };
};
