import { createLogger } from '@promptyard/core';
import type { ConnectedClient } from '@promptyard/mcp';
import type { BackendStatus } from '@promptyard/router';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from './activity-feed.js';
import { renderActivityTable } from '../pages/activity-page.js';
import { createClusterView, decodeSnapshot, encodeSnapshot, maxSnapshotBytes, snapshotActivity, snapshotClients } from './cluster-view.js';
import type { Clock, ClusterView } from './cluster-view.js';
import { clusterActivity, renderReplicaServers, renderReplicaSessions } from '../pages/replica-pages.js';
import type { ConsoleSession } from '../access/sessions.js';
import { serverStatus } from '../test-status.js';
import { manualClock, memoryStore, settle } from '../test-cluster.js';

const server = serverStatus;

const entry = (seq: number, name: string, time: string): ActivityEntry => ({
  seq,
  time: new Date(time),
  profile: 'default',
  server: 'alpha',
  kind: 'tool',
  name,
  decision: 'allowed',
  durationMs: 1,
});

const logger = createLogger({ level: 'error', write: () => {} });
const admin: ConsoleSession = { id: 's', csrf: 'c', subject: 'ann', role: 'admin', expiresAt: Number.MAX_SAFE_INTEGER };

/** A replica of the in-memory cluster: its servers and activity, changeable, and its view. */
const replica = (store: ReturnType<typeof memoryStore>, clock: Clock, nodeId: string, servers: BackendStatus[]) => {
  const state = { servers, activity: [] as ActivityEntry[], clients: [] as ConnectedClient[] };
  const listeners = new Set<() => void>();
  const view = createClusterView({
    map: store.mapOf(nodeId),
    nodeId,
    url: () => `http://${nodeId}.test/mcp`,
    servers: () => state.servers,
    activity: () => state.activity,
    clients: () => state.clients,
    changes: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    logger,
    clock,
  });
  return { state, view, changed: () => listeners.forEach((listener) => listener()) };
};

const counter = (view: ClusterView) => {
  let told = 0;
  view.subscribe(() => void (told += 1));
  return () => told;
};

describe("the console's view of the cluster", () => {
  it("shows every other replica's servers and activity, not its own", async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    const b = replica(store, clock, 'node-b', [server('beta', { pid: 42 })]);
    await clock.advance(0);
    expect(a.view.replicas().map((other) => [other.node, other.url, other.servers.map((s) => s.id)])).toEqual([
      ['node-b', 'http://node-b.test/mcp', ['beta']],
    ]);
    expect(b.view.replicas().map((other) => other.node)).toEqual(['node-a']);

    const told = counter(a.view);
    b.state.activity = [entry(1, 'beta_echo', '2026-11-27T12:00:00.500Z')];
    b.changed();
    await clock.advance(1000);
    expect(told()).toBe(1);
    expect(a.view.replicas()[0]?.activity.map((e) => [e.name, e.time.toISOString()])).toEqual([['beta_echo', '2026-11-27T12:00:00.500Z']]);
  });

  it('writes a burst of changes once, at most once a second, and skips an unchanged one but for the heartbeat', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    await clock.advance(0);
    expect(store.writes()).toBe(1);
    for (let i = 0; i < 10; i += 1) {
      a.state.servers = [server('alpha', { inFlight: i })];
      a.changed();
    }
    await clock.advance(999);
    expect(store.writes(), 'not within a second of the last').toBe(1);
    await clock.advance(1);
    expect(store.writes()).toBe(2);
    a.changed();
    await clock.advance(1000);
    expect(store.writes(), 'the same content again').toBe(2);
    a.state.servers = [server('alpha', { inFlight: 9, uptimeSeconds: 99 })];
    a.changed();
    await clock.advance(1000);
    expect(store.writes(), 'uptime alone counts as unchanged').toBe(2);
    await clock.advance(2000);
    expect(store.writes(), 'the heartbeat at 5 s').toBe(3);
  });

  it('drops a replica silent for three heartbeats, says when it was last seen, and removes it from the map after ten minutes', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    const dead = store.mapOf('node-dead');
    await dead.set(new Map([['node-dead', encodeSnapshot('node-dead', 'http://dead.test/mcp', clock.now(), [server('gamma')], [])]]));
    await clock.advance(0);
    expect(a.view.replicas().map((other) => other.node)).toEqual(['node-dead']);
    const told = counter(a.view);
    await clock.advance(15_000);
    expect(a.view.replicas()).toEqual([]);
    expect(told()).toBe(1);
    expect(a.view.gone()).toEqual([{ node: 'node-dead', url: 'http://dead.test/mcp', lastSeen: new Date('2026-11-27T12:00:00Z') }]);
    expect(String(renderReplicaServers([server('alpha')], a.view, admin, undefined))).toContain(
      'Replica node-dea · http://dead.test/mcp stopped reporting at 12:00:00 UTC: it is no longer shown.',
    );
    await clock.advance(10 * 60_000);
    expect([...store.data.keys()]).toEqual(['node-a']);
    expect(a.view.gone()).toEqual([]);
  });

  it('ignores a stale snapshot left by a replica that died before this one started', async () => {
    const store = memoryStore();
    const clock = manualClock();
    await store
      .mapOf('node-old')
      .set(new Map([['node-old', encodeSnapshot('node-old', undefined, clock.now() - 60_000, [server('gamma')], [])]]));
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    await clock.advance(0);
    expect(a.view.replicas()).toEqual([]);
    expect(a.view.gone().map((gone) => gone.node)).toEqual(['node-old']);
  });

  it('deletes its own snapshot on close, and the others stop showing it at once', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    const b = replica(store, clock, 'node-b', [server('beta')]);
    await clock.advance(0);
    await b.view.close();
    await settle();
    expect([...store.data.keys()]).toEqual(['node-a']);
    expect(a.view.replicas()).toEqual([]);
    expect(a.view.gone()).toEqual([]);
    await a.view.close();
  });

  it('shows this replica only, and says why, while the map cannot be read', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    replica(store, clock, 'node-b', [server('beta')]);
    await clock.advance(0);
    store.setDown(true);
    await clock.advance(5000);
    expect(a.view.reachable()).toBe(false);
    expect(a.view.replicas()).toEqual([]);
    expect(String(renderReplicaServers([server('alpha')], a.view, admin, undefined))).toContain(
      "The cluster's Redis cannot be reached: only this replica is shown until it can.",
    );
    store.setDown(false);
    await clock.advance(5000);
    expect(a.view.replicas().map((other) => other.node)).toEqual(['node-b']);
  });

  it('keeps a snapshot within 64 KB: the newest 100 entries, fewer (then fewer servers) when larger; long errors cut', () => {
    const entries = Array.from({ length: 300 }, (_, i) => entry(i, `tool_${i}`, '2026-11-27T12:00:00Z'));
    const small = decodeSnapshot(encodeSnapshot('n', undefined, 0, [server('a', { lastError: 'x'.repeat(5000) })], entries));
    expect(small?.activity.map((e) => e.seq)).toEqual(entries.slice(-snapshotActivity).map((e) => e.seq));
    expect(small?.servers[0]?.lastError).toHaveLength(300);

    const many = Array.from({ length: 2000 }, (_, i) => server(`server-${i}`, { lastError: 'failed '.repeat(40) }));
    const json = encodeSnapshot('n', undefined, 0, many, entries);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(maxSnapshotBytes);
    const big = decodeSnapshot(json);
    expect(big?.activity).toEqual([]);
    expect((big?.servers.length ?? 0) + (big?.omittedServers ?? 0)).toBe(2000);
    expect(big?.servers[0]?.id).toBe('server-0');
  });

  it('renders this replica first with its restart buttons, the others without; merges the activity by time with a Replica column', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    const b = replica(store, clock, 'node-b', [server('beta')]);
    a.state.activity = [entry(1, 'alpha_first', '2026-11-27T12:00:01Z'), entry(2, 'alpha_third', '2026-11-27T12:00:03Z')];
    b.state.activity = [entry(1, 'beta_second', '2026-11-27T12:00:02Z')];
    b.changed();
    await clock.advance(1000);
    const html = String(renderReplicaServers(a.state.servers, a.view, admin, 'http://node-a.test/mcp'));
    expect(html.indexOf('This replica')).toBeLessThan(html.indexOf('Replica node-b'));
    expect(html.match(/aria-label="Restart [^"]+"/g)).toEqual(['aria-label="Restart alpha"']);
    expect(html).toContain('data-server="beta"');
    expect(html).toContain("Restart acts on this replica's servers only");

    const feed = { trail: { record: () => {}, close: async () => {} }, entries: () => a.state.activity, subscribe: () => () => {} };
    const table = String(renderActivityTable(clusterActivity(feed, a.view), {}, true));
    expect([...table.matchAll(/data-name="([^"]+)"/g)].map((match) => match[1])).toEqual(['alpha_third', 'beta_second', 'alpha_first']);
    expect(table).toContain('<th scope="col">Replica</th>');
    expect(table).toContain('<td>node-b</td>');
    expect(table).toContain('<td>this replica</td>');
    expect(String(renderActivityTable(feed, {}))).not.toContain('Replica');
  });

  it("shows every replica's most recently active MCP clients on the Sessions page, each replica's in its own table", async () => {
    const store = memoryStore();
    const clock = manualClock();
    const a = replica(store, clock, 'node-a', [server('alpha')]);
    const b = replica(store, clock, 'node-b', [server('beta')]);
    b.state.clients = Array.from({ length: snapshotClients + 10 }, (_, i) => client(`app-${i}`, i));
    // Clients reach the others at the heartbeat, which needs no change event.
    await clock.advance(5000);
    const [other] = a.view.replicas();
    expect(other?.clients.map((each) => each.clientName)).toEqual(b.state.clients.slice(0, snapshotClients).map((each) => each.clientName));
    a.state.clients = [client('local-app', 1)];
    const html = String(renderReplicaSessions(a.state.clients, a.view, 'http://node-a.test/mcp'));
    expect(html.indexOf('data-client="local-app"')).toBeLessThan(html.indexOf('Replica node-b'));
    expect(html.indexOf('Replica node-b')).toBeLessThan(html.indexOf('data-client="app-0"'));
    expect(html).toContain('aria-label="Sessions of replica node-b"');
    expect(html).not.toContain('sess-0000-full-id');
  });

  it('keeps the clients within the bound before it leaves servers out, and reads a snapshot without clients as none', () => {
    const clients = Array.from({ length: snapshotClients }, (_, i) => client(`app-${'x'.repeat(100)}-${i}`, i));
    const servers = Array.from({ length: 120 }, (_, i) => server(`server-${i}`, { lastError: 'failed '.repeat(40) }));
    const json = encodeSnapshot('n', undefined, 0, servers, [], clients);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(maxSnapshotBytes);
    const decoded = decodeSnapshot(json);
    expect(decoded?.clients.length).toBeLessThan(snapshotClients);
    expect(decoded?.servers.length).toBe(120);
    expect(decodeSnapshot(JSON.stringify({ node: 'old', writtenAt: 0, servers: [], activity: [] }))?.clients).toEqual([]);
  });
});

const client = (name: string, index: number): ConnectedClient => ({
  transport: 'session',
  endpoint: '/mcp',
  clientName: name,
  clientVersion: '1.0.0',
  protocolVersion: '2025-11-25',
  subject: 'ann',
  sessionPrefix: `sess-${String(index).padStart(3, '0')}`,
  openedAt: Date.parse('2026-11-27T12:00:00Z'),
  lastActiveAt: Date.parse('2026-11-27T12:00:00Z') + index,
  requests: index,
});
