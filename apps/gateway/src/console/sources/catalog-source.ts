/**
 * What the Catalog page reads of the router, per surface (the default one and each profile): the
 * tools, prompts and resources it serves, each with the server it comes from, the overrides that
 * changed it and the state of its pin; and the search behind `search_tools` / `search_prompts`.
 */
import type { Hit, PinBook, PinChange, PinEntry, Router, RouterView, ToolCard } from '@promptyard/router';
import { DEFAULT_PROFILE, pinState } from '@promptyard/router';

/** `pinned` (as approved), `changed` (served although it differs, under `warn`), `new`, `held back` (quarantined), or `not pinned`. */
type PinLabel = 'pinned' | 'changed' | 'new' | 'held back' | 'not pinned';

export interface CatalogItem {
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** As served: a tool's or prompt's name, a resource's URI. */
  readonly name: string;
  readonly server: string;
  /** Its name on its server (tools and prompts). */
  readonly original?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** A tool's input schema, a prompt's arguments; absent for a resource. */
  readonly definition?: unknown;
  /** What the gateway's overrides changed: `name`, `title`, `description`, `annotations`, `fixed arguments: a, b`. */
  readonly overrides: readonly string[];
  readonly pin: PinLabel;
}

export interface CatalogSource {
  /** `default`, then each configured profile. */
  profiles(): readonly string[];
  /** Everything the surface serves, then what it holds back. */
  items(profile: string): readonly CatalogItem[];
  /** The names the search index ranks for `query` (tools and prompts; resources are matched by their text). */
  search(profile: string, query: string): ReadonlySet<string>;
}

type Table = RouterView['table'];
type ToolRoute = Table['tools'] extends ReadonlyMap<string, infer R> ? R : never;
type PromptRoute = Table['prompts'] extends ReadonlyMap<string, infer R> ? R : never;

const pinOf = (entries: readonly PinEntry[], server: string, kind: 'tool' | 'prompt', name: string): PinLabel => {
  const entry = entries.find((each) => each.server === server && each.kind === kind && each.name === name);
  return entry === undefined ? 'not pinned' : pinState(entry);
};

/** The fields an override changed, found by comparing the served item with the server's own. */
const changedBy = (
  own: Readonly<Record<string, unknown>> | undefined,
  served: Readonly<Record<string, unknown>>,
  renamed: boolean,
): string[] => {
  if (own === undefined) return [];
  const fields = renamed ? ['name'] : [];
  for (const field of ['title', 'description', 'annotations'])
    if (JSON.stringify(own[field]) !== JSON.stringify(served[field])) fields.push(field);
  return fields;
};

const toolItem = (route: ToolRoute, entries: readonly PinEntry[]): CatalogItem => {
  const { backend, original, item, inject } = route;
  const own = backend.lists.tools.find((tool) => tool.name === original);
  const served = { ...item, name: original };
  const renamed = own !== undefined && !item.name.endsWith(original);
  const fixed = inject === undefined ? [] : [`fixed arguments: ${Object.keys(inject).join(', ')}`];
  return {
    kind: 'tool',
    name: item.name,
    server: backend.id,
    original,
    title: item.title,
    description: item.description,
    definition: item.inputSchema,
    overrides: [...changedBy(own, served, renamed), ...fixed],
    pin: pinOf(entries, backend.id, 'tool', original),
  };
};

const promptItem = (route: PromptRoute, entries: readonly PinEntry[]): CatalogItem => {
  const { backend, original, item } = route;
  const own = backend.lists.prompts.find((prompt) => prompt.name === original);
  return {
    kind: 'prompt',
    name: item.name,
    server: backend.id,
    original,
    title: item.title,
    description: item.description,
    definition: item.arguments ?? [],
    overrides: changedBy(own, { ...item, name: original }, own !== undefined && !item.name.endsWith(original)),
    pin: pinOf(entries, backend.id, 'prompt', original),
  };
};

const heldBack = (name: string, change: PinChange): CatalogItem => ({
  kind: change.kind,
  name,
  server: change.server,
  original: change.name,
  description: change.message,
  overrides: [],
  pin: 'held back',
});

const itemsOf = (view: RouterView, pins: PinBook | undefined): CatalogItem[] => {
  const table = view.table;
  const entries = pins?.entries() ?? [];
  return [
    ...[...table.tools.values()].map((route) => toolItem(route, entries)),
    ...[...table.quarantined.tools].map(([name, change]) => heldBack(name, change)),
    ...[...table.prompts.values()].map((route) => promptItem(route, entries)),
    ...[...table.quarantined.prompts].map(([name, change]) => heldBack(name, change)),
    ...[...table.resources.values()].map(({ backend, item }) => ({
      kind: 'resource' as const,
      name: item.uri,
      server: backend.id,
      title: item.title ?? item.name,
      description: item.description,
      overrides: [],
      pin: 'not pinned' as const,
    })),
  ];
};

const names = (hits: readonly Hit<ToolCard>[]): string[] => hits.map((hit) => hit.name);

export const createCatalogSource = (router: Router, pins: PinBook | undefined): CatalogSource => ({
  profiles: () => [DEFAULT_PROFILE, ...router.profileNames()],
  items: (profile) => itemsOf(router.view(profile), pins),
  search: (profile, query) => {
    const view = router.view(profile);
    return new Set([...names(view.search.tools(query, { limit: 200 })), ...names(view.search.prompts(query, { limit: 200 }))]);
  },
});
