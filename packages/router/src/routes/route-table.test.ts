import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { buildRouteTable, compareRouteTables, createNamers, emptyRouteTable } from './route-table.js';
import type { Tool } from '../sdk/upstream-types.js';
import { backendConfig, routerConfig, unstartedBackend } from '../test-router-config.js';

const config = routerConfig([
  backendConfig('alpha', { command: 'alpha' }),
  backendConfig('beta', { command: 'beta', prefix: false, tools: { allow: [], deny: ['secret'] } }),
]);
const namers = createNamers(config.separator);
const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
const metaTools = [tool('search_tools')];

/** Backends as the router holds them, never started: ready with these tools, or down when absent. */
const backends = (tools: Partial<Record<'alpha' | 'beta', string[]>>): Backend[] =>
  config.servers.map((server) => {
    const backend = unstartedBackend(server);
    const names = tools[server.id as 'alpha' | 'beta'];
    if (names !== undefined) {
      backend.state = 'ready';
      backend.lists = { tools: names.map(tool), prompts: [], resources: [], resourceTemplates: [], skills: [] };
    }
    return backend;
  });

const names = (list: readonly Tool[]): string[] => list.map((item) => item.name);

describe('buildRouteTable', () => {
  it('namespaces and filters, lists the meta tools first and lets them keep their names', () => {
    const table = buildRouteTable(backends({ alpha: ['echo'], beta: ['echo', 'secret', 'search_tools'] }), {
      namers,
      metaTools,
      lazy: false,
    });
    expect(names(table.lists.tools)).toEqual(['search_tools', 'alpha_echo', 'echo']);
    expect(table.tools.get('alpha_echo')).toMatchObject({ original: 'echo', backend: { id: 'alpha' } });
    expect(table.collisions).toEqual([{ kind: 'tool', name: 'search_tools', kept: 'gateway meta tool', dropped: 'beta/search_tools' }]);
  });

  it('lists only the meta tools in lazy mode, and still routes every tool', () => {
    const table = buildRouteTable(backends({ alpha: ['echo'] }), { namers, metaTools, lazy: true });
    expect(names(table.lists.tools)).toEqual(['search_tools']);
    expect(table.tools.has('alpha_echo')).toBe(true);
  });

  it("namespaces an MCP App tool's UI resource for a prefixed server and passes it through for a pass-through one", () => {
    const app = (): Tool => ({
      ...tool('get-time'),
      _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' }, 'ui/resourceUri': 'ui://get-time/mcp-app.html' },
    });
    const servers = backends({ alpha: [], beta: [] });
    for (const backend of servers) backend.lists = { ...backend.lists, tools: [app()] };
    const table = buildRouteTable(servers, { namers, metaTools: [], lazy: false });
    expect(table.lists.tools.map((item) => [item.name, item._meta])).toEqual([
      ['alpha_get-time', { ui: { resourceUri: 'alpha+ui://get-time/mcp-app.html' }, 'ui/resourceUri': 'alpha+ui://get-time/mcp-app.html' }],
      ['get-time', { ui: { resourceUri: 'ui://get-time/mcp-app.html' }, 'ui/resourceUri': 'ui://get-time/mcp-app.html' }],
    ]);
  });

  it("keeps a down server's URI prefix but none of its names", () => {
    const table = buildRouteTable(backends({ beta: ['echo'] }), { namers, metaTools: [], lazy: false });
    expect([...table.tools.keys()]).toEqual(['echo']);
    expect([...table.uriPrefixes.keys()]).toEqual(['alpha']);
  });
});

describe('compareRouteTables', () => {
  it('announces nothing for the first table, then only the lists that changed, and each collision once', () => {
    const build = (tools: Partial<Record<'alpha' | 'beta', string[]>>) =>
      buildRouteTable(backends(tools), { namers, metaTools, lazy: false });
    const first = build({ alpha: ['echo'], beta: ['search_tools'] });
    expect(compareRouteTables(emptyRouteTable, first)).toEqual({ changed: [], newCollisions: first.collisions });
    const same = build({ alpha: ['echo'], beta: ['search_tools'] });
    expect(compareRouteTables(first, same)).toEqual({ changed: [], newCollisions: [] });
    expect(compareRouteTables(same, build({ alpha: ['echo', 'more'], beta: ['search_tools'] })).changed).toEqual(['tools']);
  });
});
