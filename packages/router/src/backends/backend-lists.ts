import type { ListName, Prompt, Resource, ResourceTemplate, Tool, UpstreamConnection } from '../sdk/upstream-types.js';
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

/** `lists` fetched again from the server (resources with their templates and skills), the others kept from `previous`. */
export const fetchLists = async (
  connection: UpstreamConnection,
  previous: BackendLists,
  lists: readonly ListName[],
  timeoutMs: number,
  skillsFailed: (error: unknown) => void,
): Promise<{ readonly lists: BackendLists; readonly freshness: Freshness }> => {
  const next = { ...previous } as { -readonly [K in keyof BackendLists]: BackendLists[K] };
  const freshness: Freshness = {};
  await Promise.all([
    lists.includes('tools')
      ? connection.listTools(timeoutMs).then((tools) => {
          next.tools = tools.items;
          freshness.tools = tools.ttlMs;
        })
      : undefined,
    lists.includes('prompts')
      ? connection.listPrompts(timeoutMs).then((prompts) => {
          next.prompts = prompts.items;
          freshness.prompts = prompts.ttlMs;
        })
      : undefined,
    lists.includes('resources')
      ? Promise.all([
          connection.listResources(timeoutMs),
          connection.listResourceTemplates(timeoutMs),
          fetchSkills(connection, timeoutMs, skillsFailed),
        ]).then(([resources, templates, skills]) => {
          next.resources = resources.items;
          next.resourceTemplates = templates.items;
          next.skills = skills;
          freshness.resources = shorter(resources.ttlMs, templates.ttlMs);
        })
      : undefined,
  ]);
  return { lists: next, freshness };
};
