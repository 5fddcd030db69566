/**
 * `[servers.<id>] protocol`: auto prefers 2026-07-28 and settles for 2025-11-25 when the new
 * handshake fails (a broken or missing subscriptions/listen stream does not count: the lists are
 * polled then); a pin keeps a server on one revision.
 * Black-box: the built gateway in front of test-server.mjs over Streamable HTTP, some of them with a
 * listen stream broken on purpose; /health shows the revision in use.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanup,
  connectHttp,
  eventually,
  gatewayToml,
  health,
  httpBackend,
  startHttpGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { HttpGateway } from './harness.js';

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

interface ServerHealth {
  readonly state: string;
  readonly restarts: number;
  readonly era?: string;
  readonly protocolVersion?: string;
  readonly protocolFallback?: string;
  readonly listChanges?: string;
  readonly lastError?: string;
}

const server = async (gateway: HttpGateway, id: string): Promise<ServerHealth> => {
  const found = (await health(gateway)).servers.find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no server "${id}" in /health`);
  return found as ServerHealth;
};

const settled = (gateway: HttpGateway, id: string): Promise<ServerHealth> =>
  eventually(
    () => server(gateway, id),
    (entry) => entry.state !== 'starting',
    15_000,
  );

const warnings = (gateway: HttpGateway): string[] =>
  gateway.stderr.text.split('\n').filter((line) => / WARNING .*is used on protocol/.test(line));

describe('protocol = "auto"', () => {
  it('stays on 2026-07-28 when subscriptions/listen answers with an error, and polls the lists', async () => {
    const [broken, healthy] = await Promise.all([httpBackend('broken', 'both', { listen: 'error' }), httpBackend('healthy')]);
    const gateway = await startHttpGateway({ config: gatewayToml({ broken: { url: broken.url }, healthy: { url: healthy.url } }) });
    expect(await settled(gateway, 'broken')).toMatchObject({
      state: 'ready',
      era: 'modern',
      protocolVersion: '2026-07-28',
      listChanges: 'polling every 30 s',
    });
    expect(await server(gateway, 'broken')).not.toHaveProperty('protocolFallback');
    expect(await server(gateway, 'healthy')).toMatchObject({
      state: 'ready',
      era: 'modern',
      protocolVersion: '2026-07-28',
      listChanges: 'stream',
    });
    expect(warnings(gateway)).toEqual([]);
    // Why, in the ready line: the server's error (or, on a machine too busy to hear it within the probe, the wait).
    expect(gateway.stderr.text).toMatch(
      /server ready .*server=broken.*noListenStream=.*(subscriptions\/listen is broken on this server|no acknowledgement)/,
    );
    expect(broken.stderr()).toContain('subscriptions/listen broken on purpose (error)');

    const client = await connectHttp(gateway.url);
    expect(textOf(await client.callTool({ name: 'broken_whoami', arguments: {} }))).toMatch(/era=modern$/);
    expect(textOf(await client.callTool({ name: 'healthy_whoami', arguments: {} }))).toMatch(/era=modern$/);
  });

  // The probe waits 150 ms for the acknowledgement (the timer's own lag on a quiet machine keeps it within
  // 200 ms); the upper bound here tells it from the 5 s the connection used to wait, whatever the load.
  it('stays on 2026-07-28 when the listen stream never opens, its readiness delayed by the 150 ms probe only', async () => {
    const [silent, healthy] = await Promise.all([httpBackend('silent', 'both', { listen: 'silent' }), httpBackend('healthy')]);
    const gateway = await startHttpGateway({
      config: `[timeouts]\nconnect_ms = 3000\n\n${gatewayToml({ silent: { url: silent.url }, healthy: { url: healthy.url } })}`,
    });
    expect(await settled(gateway, 'silent')).toMatchObject({
      state: 'ready',
      protocolVersion: '2026-07-28',
      listChanges: 'polling every 30 s',
    });
    expect(await settled(gateway, 'healthy')).toMatchObject({ state: 'ready', listChanges: 'stream' });
    expect(warnings(gateway)).toEqual([]);
    // What the probe waited, as the gateway logs it in each ready line.
    const probed = (id: string): number =>
      Number(new RegExp(`server ready server=${id} .*listenProbeMs=(\\d+)`).exec(gateway.stderr.text)?.[1]);
    console.info(`listen probe: ${probed('silent')} ms for a server that never acknowledges, ${probed('healthy')} ms for one that does`);
    expect(probed('silent')).toBeGreaterThanOrEqual(150);
    expect(probed('silent')).toBeLessThan(1000);
  });

  it('falls back when the server/discover probe gets no answer', async () => {
    const mute = await httpBackend('mute', 'both', { silentDiscover: true });
    const gateway = await startHttpGateway({ config: `[timeouts]\nconnect_ms = 3000\n\n${gatewayToml({ mute: { url: mute.url } })}` });
    expect(await settled(gateway, 'mute')).toMatchObject({
      state: 'ready',
      protocolVersion: '2025-11-25',
      protocolFallback: expect.stringMatching(/^its 2026-07-28 connection failed \(/),
    });
    expect(mute.stderr()).toContain('server/discover received');
    expect(warnings(gateway)).toHaveLength(1);
  });
});

describe('a 2026-07-28 server whose listen stream ends', () => {
  it('is listened to again, without a restart, and its list changes still arrive', async () => {
    const dropper = await httpBackend('dropper', 'both', { listen: 'drop-once' });
    const gateway = await startHttpGateway({ config: gatewayToml({ dropper: { url: dropper.url } }) });
    expect(await settled(gateway, 'dropper')).toMatchObject({ state: 'ready', protocolVersion: '2026-07-28' });
    await eventually(
      async () => dropper.stderr(),
      (text) => text.includes('subscriptions/listen received (2)'),
    );
    const client = await connectHttp(gateway.url);
    await client.callTool({ name: 'dropper_add_tool', arguments: { name: 'late' } });
    await eventually(
      async () => (await client.listTools()).tools.map((tool) => tool.name),
      (names) => names.includes('dropper_late'),
    );
    expect(await server(gateway, 'dropper')).toMatchObject({ state: 'ready', restarts: 0 });
  });
});

describe('a pinned protocol', () => {
  it('"2025-11-25" never probes for 2026-07-28', async () => {
    const both = await httpBackend('both');
    const gateway = await startHttpGateway({ config: gatewayToml({ both: { url: both.url, protocol: '2025-11-25' } }) });
    expect(await settled(gateway, 'both')).toMatchObject({ state: 'ready', era: 'legacy', protocolVersion: '2025-11-25' });
    const client = await connectHttp(gateway.url);
    expect(textOf(await client.callTool({ name: 'both_whoami', arguments: {} }))).toMatch(/era=legacy$/);
    expect(both.stderr()).not.toContain('server/discover received');
    expect(warnings(gateway)).toEqual([]);
  });

  it('"2026-07-28" speaks the new revision to a stdio server too, which otherwise gets the 2025 handshake', async () => {
    const gateway = await startHttpGateway({
      config: gatewayToml({
        pinned: { command: stdioBackendCommand({ name: 'pinned' }), protocol: '2026-07-28' },
        plain: { command: stdioBackendCommand({ name: 'plain' }) },
      }),
    });
    expect(await settled(gateway, 'pinned')).toMatchObject({ state: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    expect(await settled(gateway, 'plain')).toMatchObject({ state: 'ready', era: 'legacy', protocolVersion: '2025-11-25' });
    const client = await connectHttp(gateway.url);
    expect(textOf(await client.callTool({ name: 'pinned_whoami', arguments: {} }))).toMatch(/era=modern$/);
  });

  it('"2026-07-28" against a 2025-only server fails with a message that says what to set', async () => {
    const legacy = await httpBackend('old', 'legacy');
    const gateway = await startHttpGateway({ config: gatewayToml({ old: { url: legacy.url, protocol: '2026-07-28' } }) });
    const old = await settled(gateway, 'old');
    expect(old.state).toMatch(/restarting|failed/);
    expect(old.lastError).toMatch(
      /could not connect: protocol = "2026-07-28" is set, but .*; set protocol = "auto" \(or "2025-11-25"\) for this server/,
    );
    expect(legacy.stderr()).toContain('server/discover received');
  });
});
