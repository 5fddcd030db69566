import type { Backend } from '../backends/backend.js';
import { compileNameFilter } from '../config-backend.js';
import { createNamer, encodeUri, encodeUriTemplate } from './names.js';
import type { Namer } from './names.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../sdk/upstream-types.js';
import { rewriteTool, uriMapFor } from './uri-rewrite.js';

export type RoutedList = 'tools' | 'prompts' | 'resources';

const routedLists: readonly RoutedList[] = ['tools', 'prompts', 'resources'];

interface Route<T> {
  readonly backend: Backend;
  readonly original: string;
  readonly item: T;
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
  /** As served: tools/list holds the meta tools first, and in lazy mode only them. */
  readonly lists: {
    readonly tools: readonly Tool[];
    readonly prompts: readonly Prompt[];
    readonly resources: readonly Resource[];
    readonly templates: readonly ResourceTemplate[];
  };
  readonly collisions: readonly Collision[];
  /** What clients were shown, to tell a real list change from a rebuild that changed nothing; '' before the first build. */
  readonly signatures: Readonly<Record<RoutedList, string>>;
}

export const emptyRouteTable: RouteTable = {
  tools: new Map(),
  prompts: new Map(),
  resources: new Map(),
  templates: [],
  uriPrefixes: new Map(),
  lists: { tools: [], prompts: [], resources: [], templates: [] },
  collisions: [],
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

export interface RouteTableOptions {
  readonly namers: Namers;
  /** The meta tools' definitions when they are served, else none: they are listed first and win name collisions. */
  readonly metaTools: readonly Tool[];
  /** tools/list holds only the meta tools; every backend tool stays routable. */
  readonly lazy: boolean;
}

/** namespace → filter → merge: the table for `backends`, in config order (the first server keeps a contested name). */
export const buildRouteTable = (backends: Iterable<Backend>, options: RouteTableOptions): RouteTable => {
  const { namers, metaTools, lazy } = options;
  const tools = new Map<string, Route<Tool>>();
  const prompts = new Map<string, Route<Prompt>>();
  const resources = new Map<string, Route<Resource>>();
  const templates: Route<ResourceTemplate>[] = [];
  const uriPrefixes = new Map<string, Backend>();
  const collisions: Collision[] = [];
  const reserved = new Set(metaTools.map((tool) => tool.name));
  // Skills are announced as resources changes: a skill's files can change while its listing stays.
  const skills: unknown[] = [];

  for (const backend of backends) {
    const prefix = backend.config.prefix;
    if (prefix !== false) uriPrefixes.set(prefix, backend);
    if (backend.state !== 'ready') continue;
    const allowTool = compileNameFilter(backend.config.tools);
    const allowPrompt = compileNameFilter(backend.config.prompts);
    const allowResource = compileNameFilter(backend.config.resources);
    const uriMap = uriMapFor(prefix);
    for (const tool of backend.lists.tools) {
      if (!allowTool(tool.name)) continue;
      const name = namers.tool.encode(prefix, tool.name);
      const taken = tools.get(name);
      if (taken !== undefined || reserved.has(name)) {
        collisions.push({
          kind: 'tool',
          name,
          kept: taken === undefined ? 'gateway meta tool' : `${taken.backend.id}/${taken.original}`,
          dropped: `${backend.id}/${tool.name}`,
        });
        continue;
      }
      // An MCP App's UI resource (`_meta.ui.resourceUri`) must be readable through the gateway.
      tools.set(name, { backend, original: tool.name, item: rewriteTool({ ...tool, name }, uriMap) });
    }
    for (const prompt of backend.lists.prompts) {
      if (!allowPrompt(prompt.name)) continue;
      const name = namers.prompt.encode(prefix, prompt.name);
      const taken = prompts.get(name);
      if (taken !== undefined) {
        collisions.push({ kind: 'prompt', name, kept: `${taken.backend.id}/${taken.original}`, dropped: `${backend.id}/${prompt.name}` });
        continue;
      }
      prompts.set(name, { backend, original: prompt.name, item: { ...prompt, name } });
    }
    if (backend.lists.skills.length > 0) skills.push([backend.id, prefix, backend.lists.skills]);
    for (const resource of backend.lists.resources) {
      // A server's skill files are listed by the gateway's skills, under the server's prefix.
      if (backend.lists.skills.length > 0 && resource.uri.startsWith('skill://')) continue;
      if (!allowResource(resource.uri) && !allowResource(resource.name)) continue;
      const uri = prefix === false ? resource.uri : encodeUri(prefix, resource.uri);
      if (!resources.has(uri)) resources.set(uri, { backend, original: resource.uri, item: { ...resource, uri } });
    }
    for (const template of backend.lists.resourceTemplates) {
      if (!allowResource(template.uriTemplate) && !allowResource(template.name)) continue;
      const uriTemplate = prefix === false ? template.uriTemplate : encodeUriTemplate(prefix, template.uriTemplate);
      templates.push({ backend, original: template.uriTemplate, item: { ...template, uriTemplate } });
    }
  }

  const lists = {
    tools: [...metaTools, ...(lazy ? [] : [...tools.values()].map((route) => route.item))],
    prompts: [...prompts.values()].map((route) => route.item),
    resources: [...resources.values()].map((route) => route.item),
    templates: templates.map((route) => route.item),
  };
  const signatures = {
    tools: JSON.stringify(lists.tools),
    prompts: JSON.stringify(lists.prompts),
    resources: JSON.stringify([lists.resources, lists.templates, skills]),
  };
  return { tools, prompts, resources, templates, uriPrefixes, lists, collisions, signatures };
};

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
