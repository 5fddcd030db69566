import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { PeerRequests } from '../calls/peer-requests.js';
import { readResource } from '../calls/resource-calls.js';
import { resolveUri } from './resource-routes.js';
import { buildRouteTable, createNamers } from './route-table.js';
import { backendConfig, routerConfig } from '../test-router-config.js';
import { noOverrides } from '../surface/surface-types.js';
import { CallWindow } from '../calls/call-window.js';

describe('resolveUri', () => {
  const config = routerConfig([backendConfig('App_1', { command: 'app' }), backendConfig('plain', { command: 'plain', prefix: false })]);
  /** What routing reads of a backend: ready, one listed resource, resources capability, an upstream that echoes the URI it reads. */
  const backends = config.servers.map((server) => {
    const upstream = { readResource: async (uri: string) => ({ contents: [{ uri, mimeType: 'text/html', text: '<p>' }] }) };
    const lists = {
      tools: [],
      prompts: [],
      resources: [{ uri: `${server.id.toLowerCase().replace('_', '')}://listed`, name: 'listed' }],
      resourceTemplates: [],
      skills: [],
    };
    const stub = {
      id: server.id,
      config: server,
      state: 'ready',
      era: 'legacy',
      inFlight: 0,
      calls: new CallWindow(),
      lists,
      capabilities: { resources: {} },
      upstream,
      upstreamOrUndefined: () => upstream,
    };
    return stub as unknown as Backend;
  });
  const table = buildRouteTable(backends, { namers: createNamers(config.separator), metaTools: [], lazy: false });
  const resolve = (uri: string) => {
    const target = resolveUri(table, uri);
    return { server: target.backend.id, uri: target.uri };
  };

  it('routes a URI a result mentioned but no list holds, ui:// and scheme-less URIs included', () => {
    expect(table.lists.resources.map((resource) => resource.uri)).toEqual(['app-1+app1://listed', 'plain://listed']);
    expect(resolve('app-1+app1://listed')).toEqual({ server: 'App_1', uri: 'app1://listed' });
    expect(resolve('app-1+ui://get-time/mcp-app.html')).toEqual({ server: 'App_1', uri: 'ui://get-time/mcp-app.html' });
    expect(resolve('app-1+:notes/today.md')).toEqual({ server: 'App_1', uri: 'notes/today.md' });
    expect(resolve('App-1+demo://resource/dynamic/text/7')).toEqual({ server: 'App_1', uri: 'demo://resource/dynamic/text/7' });
  });

  it("refuses a URI a profile's resource globs hide, listed or not", () => {
    const profileTable = (resources: readonly string[]) =>
      buildRouteTable(backends, {
        namers: createNamers(config.separator),
        metaTools: [],
        lazy: false,
        profile: { name: 'p', servers: [{ server: 'App_1', tools: ['*'], prompts: ['*'], resources, overrides: noOverrides }] },
      });
    const none = profileTable([]);
    expect(none.lists.resources).toEqual([]);
    expect(() => resolveUri(none, 'app-1+app1://listed')).toThrow(/does not belong to any server/);
    expect(() => resolveUri(none, 'app-1+ui://get-time/mcp-app.html')).toThrow(/does not belong to any server/);
    // Not in the profile: the pass-through server is nobody's here.
    expect(() => resolveUri(none, 'ui://elsewhere/app.html')).toThrow(/does not belong to any server/);
    const ui = profileTable(['ui://*']);
    expect(resolveUri(ui, 'app-1+ui://get-time/mcp-app.html').uri).toBe('ui://get-time/mcp-app.html');
    expect(() => resolveUri(ui, 'app-1+:notes/today.md')).toThrow(/does not belong to any server/);
  });

  it('passes other URIs to the only pass-through server, and refuses what nobody owns', () => {
    expect(resolve('ui://elsewhere/app.html')).toEqual({ server: 'plain', uri: 'ui://elsewhere/app.html' });
    const onlyPrefixed = buildRouteTable(backends.slice(0, 1), { namers: createNamers(config.separator), metaTools: [], lazy: false });
    expect(() => resolveUri(onlyPrefixed, 'ui://elsewhere/app.html')).toThrow(/does not belong to any server/);
  });

  it("reads with the contents' URIs namespaced for a prefixed server and as they are for a pass-through one", async () => {
    const [app, plain] = backends as [Backend, Backend];
    expect(await readResource({ backend: app, uri: 'ui://get-time/mcp-app.html' }, new PeerRequests(), 1000, {})).toEqual({
      contents: [{ uri: 'app-1+ui://get-time/mcp-app.html', mimeType: 'text/html', text: '<p>' }],
    });
    expect(await readResource({ backend: plain, uri: 'ui://x' }, new PeerRequests(), 1000, {})).toEqual({
      contents: [{ uri: 'ui://x', mimeType: 'text/html', text: '<p>' }],
    });
  });
});
