import type { ListName, ListOverCap, Prompt, Resource, ResourceTemplate, Tool, UpstreamConnection } from '../sdk/upstream-types.js';
import type { Skill } from '../sdk/upstream-skills.js';

export interface BackendLists {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  /** Its Agent Skills (the skills extension), fetched with the resources. */
  readonly skills: readonly Skill[];
}

export const emptyLists: BackendLists = { tools: [], prompts: [], resources: [], resourceTemplates: [], skills: [] };

/** A server's skills; one that cannot list them still serves everything else (`failed` hears why). */
const fetchSkills = async (
  connection: UpstreamConnection,
  timeoutMs: number,
  failed: (error: unknown) => void,
): Promise<readonly Skill[]> => {
  try {
    return (await connection.skills?.list(timeoutMs)) ?? [];
  } catch (error) {
    failed(error);
    return [];
  }
};

/** Each list fetched, with the `ttlMs` its server gave it (resources: the shorter of the resources' and templates'). */
export type Freshness = Partial<Record<ListName, number | undefined>>;

const shorter = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** The lists `[limits] max_definitions` bounds, each alone. */
export type CappedList = Exclude<keyof BackendLists, 'skills'>;

/** The lists that were cut to the cap, and how long they were. */
export type Cuts = Readonly<Partial<Record<CappedList, ListOverCap>>>;

/** What a fetch brings: the lists, their freshness, and the cuts of every list (those not fetched again kept from before). */
export interface Fetched {
  readonly lists: BackendLists;
  readonly freshness: Freshness;
  readonly cuts: Cuts;
}

/** How the cut lists are read: the server's lists, at most `cap` definitions each. */
export interface ListRequest {
  readonly lists: readonly ListName[];
  readonly timeoutMs: number;
  readonly cap: number;
  readonly skillsFailed: (error: unknown) => void;
}

/** `request.lists` fetched again from the server (resources with their templates and skills), the others (and their cuts) kept from `previous`. */
export const fetchLists = async (
  connection: UpstreamConnection,
  previous: { readonly lists: BackendLists; readonly cuts: Cuts },
  { lists, timeoutMs, cap, skillsFailed }: ListRequest,
): Promise<Fetched> => {
  const next = { ...previous.lists } as { -readonly [K in keyof BackendLists]: BackendLists[K] };
  const cuts: Partial<Record<CappedList, ListOverCap>> = { ...previous.cuts };
  const freshness: Freshness = {};
  const take = <K extends CappedList>(
    list: K,
    listed: { readonly items: BackendLists[K]; readonly over?: ListOverCap | undefined },
  ): void => {
    next[list] = listed.items;
    if (listed.over === undefined) delete cuts[list];
    else cuts[list] = listed.over;
  };
  await Promise.all([
    lists.includes('tools')
      ? connection.listTools(timeoutMs, cap).then((tools) => {
          take('tools', tools);
          freshness.tools = tools.ttlMs;
        })
      : undefined,
    lists.includes('prompts')
      ? connection.listPrompts(timeoutMs, cap).then((prompts) => {
          take('prompts', prompts);
          freshness.prompts = prompts.ttlMs;
        })
      : undefined,
    lists.includes('resources')
      ? Promise.all([
          connection.listResources(timeoutMs, cap),
          connection.listResourceTemplates(timeoutMs, cap),
          fetchSkills(connection, timeoutMs, skillsFailed),
        ]).then(([resources, templates, skills]) => {
          take('resources', resources);
          take('resourceTemplates', templates);
          next.skills = skills;
          freshness.resources = shorter(resources.ttlMs, templates.ttlMs);
        })
      : undefined,
  ]);
  return { lists: next, freshness, cuts };
};
