import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import type { PinChange, PinReview } from '../pins/pin-types.js';
import type { Prompt, Tool } from '../sdk/upstream-types.js';
import type { ProfileConfig } from '../surface/surface-types.js';
import { backendConfig, unstartedBackend } from '../test-router-config.js';
import { buildRouteTable, createNamers, routedArguments } from './route-table.js';
import type { ReviewedLists } from './route-table.js';

const tool = (name: string, properties: Record<string, { type: string }> = {}): Tool => ({
  name,
  description: `${name} it`,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
});

const github = backendConfig('github', {
  command: 'github',
  overrides: {
    tools: {
      search_issues: {
        name: 'find_issues',
        description: 'Search acme only.',
        annotations: { readOnlyHint: true },
        arguments: { owner: 'acme' },
      },
    },
    prompts: { summarize: { name: 'summary' } },
  },
});
const jira = backendConfig('jira', { command: 'jira' });

const ready = (config: typeof github, tools: Tool[], prompts: Prompt[] = []): Backend => {
  const backend = unstartedBackend(config);
  backend.state = 'ready';
  backend.lists = { tools, prompts, resources: [], resourceTemplates: [], skills: [] };
  return backend;
};

const backends = [
  ready(
    github,
    [
      tool('search_issues', { owner: { type: 'string' }, query: { type: 'string' } }),
      tool('get_issue'),
      tool('get_secret'),
      tool('delete_repo'),
    ],
    [{ name: 'summarize', description: 'Sum up.' }],
  ),
  ready(jira, [tool('search'), tool('create')]),
];
const options = { namers: createNamers('_'), metaTools: [], lazy: false };
const names = (table: ReturnType<typeof buildRouteTable>): string[] => [...table.tools.keys()];

const coding: ProfileConfig = {
  name: 'coding',
  servers: [
    {
      server: 'github',
      tools: ['{get,search}_*', '!get_secret'],
      prompts: [],
      resources: ['*'],
      overrides: { tools: { search_issues: { description: 'Coding: search acme.', arguments: { state: 'open' } } }, prompts: {} },
    },
  ],
};

describe('a surface’s route table', () => {
  it('serves a renamed tool under its new name, routed to the original, without its fixed arguments, injecting them on a call', () => {
    const table = buildRouteTable(backends, options);
    expect(names(table)).toEqual([
      'github_find_issues',
      'github_get_issue',
      'github_get_secret',
      'github_delete_repo',
      'jira_search',
      'jira_create',
    ]);
    const route = table.tools.get('github_find_issues');
    expect(route).toMatchObject({ original: 'search_issues', backend: { id: 'github' } });
    expect(route?.item).toMatchObject({
      description: 'Search acme only.',
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { query: { type: 'string' } }, required: ['query'] },
    });
    // The caller cannot choose a fixed argument: it is laid over what it sent.
    expect(routedArguments(route!, { query: 'bug', owner: 'evil' })).toEqual({ query: 'bug', owner: 'acme' });
    expect([...table.prompts.keys()]).toEqual(['github_summary']);
  });

  it('shows a profile only its servers and globs (braces, negation), its overrides laid over the server’s', () => {
    const table = buildRouteTable(backends, { ...options, profile: coding });
    expect(names(table)).toEqual(['github_find_issues', 'github_get_issue']);
    expect(table.members.map((backend) => backend.id)).toEqual(['github']);
    expect(table.prompts.size).toBe(0);
    const route = table.tools.get('github_find_issues');
    expect(route?.item.description).toBe('Coding: search acme.');
    expect(route?.item.annotations).toEqual({ readOnlyHint: true });
    expect(route?.inject).toEqual({ owner: 'acme', state: 'open' });
  });

  it('holds back quarantined definitions from every list, under the names they would be served with', () => {
    const change: PinChange = {
      server: 'github',
      kind: 'tool',
      name: 'search_issues',
      change: 'changed',
      fields: ['description'],
      message: 'changed',
    };
    const [gh] = backends as [Backend];
    const review: PinReview<Tool> = {
      served: gh.lists.tools.filter((item) => item.name !== 'search_issues'),
      quarantined: new Map([['search_issues', change]]),
      warned: new Map(),
    };
    const none: PinReview<Prompt> = { served: gh.lists.prompts, quarantined: new Map(), warned: new Map() };
    const reviews = new Map<Backend, ReviewedLists>([[gh, { tools: review, prompts: none }]]);
    for (const profile of [undefined, coding]) {
      const table = buildRouteTable(backends, { ...options, profile, reviews });
      expect(table.tools.has('github_find_issues')).toBe(false);
      expect(table.quarantined.tools.get('github_find_issues')).toBe(change);
    }
  });
});
