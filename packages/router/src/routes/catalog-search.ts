import { createSearchIndex } from '@promptyard/search-index';
import type { Prompt, Tool } from '../sdk/upstream-types.js';

/** One tool or prompt of one server, as the search shows it: name, server, summary, argument names. */
export interface ToolCard {
  readonly name: string;
  readonly server: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly string[];
}
export type PromptCard = ToolCard;
export type Hit<C> = C & { readonly score: number };

interface CardSearchOptions {
  readonly limit?: number;
  /** Only cards of this server. */
  readonly server?: string;
}

interface CardIndex {
  replace(cards: readonly ToolCard[]): void;
  search(query: string, options?: CardSearchOptions): Hit<ToolCard>[];
}

/** Cards in `@promptyard/search-index` (BM25, prefix and typo tolerant). */
export const createCardIndex = (): CardIndex => {
  const index = createSearchIndex<ToolCard>({
    id: (card) => card.name,
    fields: (card) => ({ name: card.name, title: card.title, description: card.description, text: card.arguments.join(' ') }),
  });
  return {
    replace: (cards) => index.replace(cards),
    search: (query, options = {}) => {
      const { limit, server } = options;
      const hits = index.search(query, {
        ...(limit === undefined ? {} : { limit }),
        ...(server === undefined ? {} : { filter: (card: ToolCard) => card.server === server }),
      });
      return hits.map((hit) => ({ ...hit.item, score: hit.score }));
    },
  };
};

/** What the catalog search reads of the router. */
export interface CatalogView {
  /** Changes with every rebuild of the lists. */
  readonly version: number;
  allTools(): readonly Tool[];
  listPrompts(): readonly Prompt[];
  toolOwner(name: string): { readonly server: string } | undefined;
  promptOwner(name: string): { readonly server: string } | undefined;
}

/** The search behind search_tools / search_prompts and the terminal UI: indexes rebuilt after list changes. */
export interface CatalogSearch {
  tools(query: string, options?: CardSearchOptions): readonly Hit<ToolCard>[];
  prompts(query: string, options?: CardSearchOptions): readonly Hit<PromptCard>[];
}

export const argumentNames = (tool: Tool): string[] =>
  Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});

/** A prompt's arguments as cards show them: `name`, or `name?` when the argument is optional. */
export const promptArgumentLabels = (prompt: Prompt): string[] =>
  (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required === true ? '' : '?'}`);

const card = (
  name: string,
  server: string,
  title: string | undefined,
  description: string | undefined,
  args: readonly string[],
): ToolCard => ({
  name,
  server,
  ...(title === undefined ? {} : { title }),
  ...(description === undefined ? {} : { description }),
  arguments: args,
});

export const createCatalogSearch = (view: CatalogView): CatalogSearch => {
  const toolIndex = createCardIndex();
  const promptIndex = createCardIndex();
  let indexedVersion = -1;
  const refresh = (): void => {
    if (indexedVersion === view.version) return;
    indexedVersion = view.version;
    toolIndex.replace(
      view
        .allTools()
        .map((tool) => card(tool.name, view.toolOwner(tool.name)?.server ?? '', tool.title, tool.description, argumentNames(tool))),
    );
    promptIndex.replace(
      view
        .listPrompts()
        .map((prompt) =>
          card(prompt.name, view.promptOwner(prompt.name)?.server ?? '', prompt.title, prompt.description, promptArgumentLabels(prompt)),
        ),
    );
  };
  return {
    tools: (query, options) => {
      refresh();
      return toolIndex.search(query, options);
    },
    prompts: (query, options) => {
      refresh();
      return promptIndex.search(query, options);
    },
  };
};
