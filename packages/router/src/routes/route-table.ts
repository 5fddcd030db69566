import { createHash } from 'node:crypto';
import type { Backend } from '../backends/backend.js';
import { runNow } from '../slices.js';
import type { Sliced } from '../slices.js';
import type { PinChange, PinReview } from '../pins/pin-types.js';
import { injectArguments, overridePrompt, overrideTool } from '../surface/overrides.js';
import { ownOverride, selectionOf } from '../surface/selection.js';
import type { ServerSelection } from '../surface/selection.js';
import type { ProfileConfig } from '../surface/surface-types.js';
import { createNamer, encodeUri, encodeUriTemplate } from './names.js';
import type { Namer } from './names.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../sdk/upstream-types.js';
import { rewriteTool, uriMapFor } from './uri-rewrite.js';
import type { UriMap } from './uri-rewrite.js';

export type RoutedList = 'tools' | 'prompts' | 'resources';

const routedLists: readonly RoutedList[] = ['tools', 'prompts', 'resources'];

export interface Route<T> {
  readonly backend: Backend;
  /** The item's name on its server (what a call is sent with). */
  readonly original: string;
  readonly item: T;
  /** A tool's arguments fixed by an override: injected into every call. */
  readonly inject?: Readonly<Record<string, unknown>> | undefined;
}

export interface Collision {
  readonly kind: 'tool' | 'prompt';
  readonly name: string;
  readonly kept: string;
  readonly dropped: string;
}

/** Every ready backend's lists, namespaced and merged: what the gateway serves and where each item goes. */
export interface RouteTable {
  readonly tools: ReadonlyMap<string, Route<Tool>>;
  readonly prompts: ReadonlyMap<string, Route<Prompt>>;
  readonly resources: ReadonlyMap<string, Route<Resource>>;
  readonly templates: readonly Route<ResourceTemplate>[];
  /** Every prefixed backend by its prefix, ready or not: their URIs stay resolvable while they are down. */
  readonly uriPrefixes: ReadonlyMap<string, Backend>;
  /** The backends of this surface (the profile's servers), ready or not, in config order. */
  readonly members: readonly Backend[];
  /** Each member's resource filter (its own, and the profile's globs): an unlisted URI is read only when it passes. */
  readonly resourceFilters: ReadonlyMap<Backend, (uri: string) => boolean>;
  /** As served: tools/list holds the meta tools first, and in lazy mode only them. */
  readonly lists: {
    readonly tools: readonly Tool[];
    readonly prompts: readonly Prompt[];
    readonly resources: readonly Resource[];
    readonly templates: readonly ResourceTemplate[];
  };
  readonly collisions: readonly Collision[];
  /** Definitions held back by `pinning = "enforce"`, by the name they would be served under: a call is told why. */
  readonly quarantined: { readonly tools: ReadonlyMap<string, PinChange>; readonly prompts: ReadonlyMap<string, PinChange> };
  /** What clients were shown, to tell a real list change from a rebuild that changed nothing; '' before the first build. */
  readonly signatures: Readonly<Record<RoutedList, string>>;
}

export const emptyRouteTable: RouteTable = {
  tools: new Map(),
  prompts: new Map(),
  resources: new Map(),
  templates: [],
  uriPrefixes: new Map(),
  members: [],
  resourceFilters: new Map(),
  lists: { tools: [], prompts: [], resources: [], templates: [] },
  collisions: [],
  quarantined: { tools: new Map(), prompts: new Map() },
  signatures: { tools: '', prompts: '', resources: '' },
};

export interface Namers {
  readonly tool: Namer;
  readonly prompt: Namer;
}

/** Tool names are kept to the spec's characters; prompt names keep theirs (`git/commit`). */
export const createNamers = (separator: string): Namers => ({
  tool: createNamer({ separator }),
  prompt: createNamer({ separator, sanitize: false }),
});

/** A server's tools and prompts as its pins allow them to be served. */
export interface ReviewedLists {
  readonly tools: PinReview<Tool>;
  readonly prompts: PinReview<Prompt>;
}

export interface RouteTableOptions {
  readonly namers: Namers;
  /** The meta tools' definitions when they are served, else none: they are listed first and win name collisions. */
  readonly metaTools: readonly Tool[];
  /** tools/list holds only the meta tools; every backend tool stays routable. */
  readonly lazy: boolean;
  /** The profile whose surface this is; absent: the default surface, every server. */
  readonly profile?: ProfileConfig | undefined;
  /** Each ready backend's lists reviewed against its pins; a backend absent here is served as it lists. */
  readonly reviews?: ReadonlyMap<Backend, ReviewedLists> | undefined;
}

/** The table being built, in config order. */
interface Draft {
  readonly options: RouteTableOptions;
  readonly tools: Map<string, Route<Tool>>;
  readonly prompts: Map<string, Route<Prompt>>;
  readonly resources: Map<string, Route<Resource>>;
  readonly templates: Route<ResourceTemplate>[];
  readonly uriPrefixes: Map<string, Backend>;
  readonly members: Backend[];
  readonly resourceFilters: Map<Backend, (uri: string) => boolean>;
  readonly collisions: Collision[];
  readonly quarantined: { readonly tools: Map<string, PinChange>; readonly prompts: Map<string, PinChange> };
  readonly reserved: ReadonlySet<string>;
  /** Skills are announced as resources changes: a skill's files can change while its listing stays. */
  readonly skills: unknown[];
}

/** Held-back definitions this surface shows, under the names they would be served with (a call is told why). */
const addQuarantined = (
  into: Map<string, PinChange>,
  review: PinReview<unknown> | undefined,
  shown: (name: string) => boolean,
  overrides: Readonly<Record<string, { readonly name?: string | undefined }>>,
  served: (name: string) => string,
): void => {
  for (const [original, change] of review?.quarantined ?? []) {
    if (shown(original)) into.set(served(ownOverride(overrides, original)?.name ?? original), change);
  }
};

function* addTools(draft: Draft, backend: Backend, selection: ServerSelection, uriMap: UriMap | undefined): Sliced<void> {
  const { namers } = draft.options;
  const prefix = backend.config.prefix;
  const review = draft.options.reviews?.get(backend)?.tools;
  addQuarantined(draft.quarantined.tools, review, selection.tools, selection.overrides.tools, (name) => namers.tool.encode(prefix, name));
  for (const tool of review?.served ?? backend.lists.tools) {
    yield;
    if (!selection.tools(tool.name)) continue;
    const override = ownOverride(selection.overrides.tools, tool.name);
    const shown = overrideTool(tool, override);
    const name = namers.tool.encode(prefix, shown.name);
    const taken = draft.tools.get(name);
    if (taken !== undefined || draft.reserved.has(name)) {
      draft.collisions.push({
        kind: 'tool',
        name,
        kept: taken === undefined ? 'gateway meta tool' : `${taken.backend.id}/${taken.original}`,
        dropped: `${backend.id}/${tool.name}`,
      });
      continue;
    }
    // An MCP App's UI resource (`_meta.ui.resourceUri`) must be readable through the gateway.
    const item = rewriteTool({ ...shown, name }, uriMap);
    draft.tools.set(name, {
      backend,
      original: tool.name,
      item,
      ...(override?.arguments === undefined ? {} : { inject: override.arguments }),
    });
  }
}

function* addPrompts(draft: Draft, backend: Backend, selection: ServerSelection): Sliced<void> {
  const { namers } = draft.options;
  const prefix = backend.config.prefix;
  const review = draft.options.reviews?.get(backend)?.prompts;
  addQuarantined(draft.quarantined.prompts, review, selection.prompts, selection.overrides.prompts, (name) =>
    namers.prompt.encode(prefix, name),
  );
  for (const prompt of review?.served ?? backend.lists.prompts) {
    yield;
    if (!selection.prompts(prompt.name)) continue;
    const shown = overridePrompt(prompt, ownOverride(selection.overrides.prompts, prompt.name));
    const name = namers.prompt.encode(prefix, shown.name);
    const taken = draft.prompts.get(name);
    if (taken !== undefined) {
      draft.collisions.push({
        kind: 'prompt',
        name,
        kept: `${taken.backend.id}/${taken.original}`,
        dropped: `${backend.id}/${prompt.name}`,
      });
      continue;
    }
    draft.prompts.set(name, { backend, original: prompt.name, item: { ...shown, name } });
  }
}

function* addResources(draft: Draft, backend: Backend, selection: ServerSelection): Sliced<void> {
  const prefix = backend.config.prefix;
  const allow = selection.resources;
  for (const resource of backend.lists.resources) {
    yield;
    // A server's skill files are listed by the gateway's skills, under the server's prefix.
    if (backend.lists.skills.length > 0 && resource.uri.startsWith('skill://')) continue;
    if (!allow(resource.uri) && !allow(resource.name)) continue;
    const uri = prefix === false ? resource.uri : encodeUri(prefix, resource.uri);
    if (!draft.resources.has(uri)) draft.resources.set(uri, { backend, original: resource.uri, item: { ...resource, uri } });
  }
  for (const template of backend.lists.resourceTemplates) {
    yield;
    if (!allow(template.uriTemplate) && !allow(template.name)) continue;
    const uriTemplate = prefix === false ? template.uriTemplate : encodeUriTemplate(prefix, template.uriTemplate);
    draft.templates.push({ backend, original: template.uriTemplate, item: { ...template, uriTemplate } });
  }
}

/** namespace → filter → override → merge: the table for `backends`, in config order (the first server keeps a contested name). */
export const buildRouteTable = (backends: Iterable<Backend>, options: RouteTableOptions): RouteTable =>
  runNow(buildingRouteTable(backends, options));

/** `buildRouteTable` as sliced work (`slices.ts`): a server's long lists taken in without holding the event loop. */
export function* buildingRouteTable(backends: Iterable<Backend>, options: RouteTableOptions): Sliced<RouteTable> {
  const draft: Draft = {
    options,
    tools: new Map(),
    prompts: new Map(),
    resources: new Map(),
    templates: [],
    uriPrefixes: new Map(),
    members: [],
    resourceFilters: new Map(),
    collisions: [],
    quarantined: { tools: new Map(), prompts: new Map() },
    reserved: new Set(options.metaTools.map((tool) => tool.name)),
    skills: [],
  };
  for (const backend of backends) {
    const selection = selectionOf(backend, options.profile);
    if (selection === undefined) continue;
    draft.members.push(backend);
    draft.resourceFilters.set(backend, selection.resources);
    const prefix = backend.config.prefix;
    if (prefix !== false) draft.uriPrefixes.set(prefix, backend);
    if (backend.state !== 'ready') continue;
    yield* addTools(draft, backend, selection, uriMapFor(prefix));
    yield* addPrompts(draft, backend, selection);
    if (backend.lists.skills.length > 0) draft.skills.push([backend.id, prefix, backend.lists.skills]);
    yield* addResources(draft, backend, selection);
  }
  return yield* finishTable(draft);
}

/**
 * What clients were shown, as a digest of each item's JSON in turn: a list of any length is told
 * apart without a string of its whole length, and hashed item by item between slices.
 */
function* signatureOf(...parts: readonly (readonly unknown[])[]): Sliced<string> {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update('[');
    for (const item of part) {
      yield;
      // JSON never holds a raw newline: the items stay apart.
      hash.update(`${JSON.stringify(item)}\n`);
    }
  }
  return hash.digest('base64');
}

function* finishTable(draft: Draft): Sliced<RouteTable> {
  const { tools, prompts, resources, templates, uriPrefixes, members, resourceFilters, collisions, quarantined } = draft;
  const { metaTools, lazy } = draft.options;
  const lists = {
    tools: [...metaTools, ...(lazy ? [] : [...tools.values()].map((route) => route.item))],
    prompts: [...prompts.values()].map((route) => route.item),
    resources: [...resources.values()].map((route) => route.item),
    templates: templates.map((route) => route.item),
  };
  const signatures = {
    tools: yield* signatureOf(lists.tools),
    prompts: yield* signatureOf(lists.prompts),
    resources: yield* signatureOf(lists.resources, lists.templates, draft.skills),
  };
  return { tools, prompts, resources, templates, uriPrefixes, members, resourceFilters, lists, collisions, quarantined, signatures };
}

/** A call's arguments as its route sends them: fixed ones injected. */
export const routedArguments = (
  route: Route<Tool>,
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined => injectArguments(args, route.inject);

const collisionKey = (collision: Collision): string => `${collision.kind}:${collision.name}:${collision.dropped}`;

/** What replacing `previous` by `next` changes for clients: lists to announce (none on the first build) and collisions not reported yet. */
export const compareRouteTables = (
  previous: RouteTable,
  next: RouteTable,
): { readonly changed: readonly RoutedList[]; readonly newCollisions: readonly Collision[] } => {
  const reported = new Set(previous.collisions.map(collisionKey));
  return {
    changed: routedLists.filter((list) => previous.signatures[list] !== '' && previous.signatures[list] !== next.signatures[list]),
    newCollisions: next.collisions.filter((collision) => !reported.has(collisionKey(collision))),
  };
};

export const collisionWarning = (collision: Collision): string =>
  `${collision.kind} name collision: "${collision.name}" is served by ${collision.kept}; ${collision.dropped} is hidden. Give one of the servers a prefix (prefix = true or a string) or a deny filter.`;
