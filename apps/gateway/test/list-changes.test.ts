/**
 * How the gateway learns that a 2026-07-28 server's lists changed: on its `subscriptions/listen`
 * stream, framed as SSE or as JSON lines, or — for a server without one — by listing again as the
 * lists' `ttlMs` runs out, and at once when a call names something it does not know. Black-box: the
 * built gateway in front of test-server.mjs over Streamable HTTP; /health says which way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connectHttp, eventually, gatewayToml, health, httpBackend, startHttpGateway, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

const listChanges = async (gateway: HttpGateway, id: string): Promise<unknown> =>
  (await health(gateway)).servers.find((server) => server.id === id)?.['listChanges' as 'id'];

const ready = (gateway: HttpGateway, id: string): Promise<unknown> =>
  eventually(
    async () => (await health(gateway)).servers.find((server) => server.id === id),
    (server) => server?.state === 'ready',
    15_000,
  );

describe('a listen stream of JSON lines', () => {
  it('is read as a stream: a tool added at run time appears through the gateway without polling', async () => {
    const lines = await httpBackend('lines', 'both', { listen: 'json-lines' });
    const gateway = await startHttpGateway({ config: gatewayToml({ lines: { url: lines.url } }) });
    await ready(gateway, 'lines');
    expect(await listChanges(gateway, 'lines')).toBe('stream');
    expect(lines.stderr()).toContain('subscriptions/listen answered as JSON lines');
    const client = await connectHttp(gateway.url);
    await client.callTool({ name: 'lines_add_tool', arguments: { name: 'late' } });
    await eventually(
      async () => (await client.listTools()).tools.map((tool) => tool.name),
      (names) => names.includes('lines_late'),
    );
  });
});

describe('a 2026-07-28 server without a listen stream', () => {
  it('is polled as its ttlMs runs out: a tool added at run time appears within its ttlMs', async () => {
    const ttlMs = 3000;
    const plain = await httpBackend('plain', 'both', { listen: 'none', ttlMs });
    const gateway = await startHttpGateway({ config: gatewayToml({ plain: { url: plain.url } }) });
    await ready(gateway, 'plain');
    expect(await listChanges(gateway, 'plain')).toBe('polling every 3 s');
    expect((await health(gateway)).servers.find((server) => server.id === 'plain')).toMatchObject({ protocolVersion: '2026-07-28' });
    const client = await connectHttp(gateway.url);
    const added = Date.now();
    await client.callTool({ name: 'plain_add_tool', arguments: { name: 'late' } });
    await eventually(
      async () => (await client.listTools()).tools.map((tool) => tool.name),
      (names) => names.includes('plain_late'),
      ttlMs + 5000,
    );
    const elapsed = Date.now() - added;
    console.info(`a tool added to a polled server (ttlMs ${ttlMs}) appeared through the gateway after ${elapsed} ms`);
    expect(elapsed).toBeLessThan(ttlMs);
    expect(plain.stderr()).toContain('subscriptions/listen refused (no listen stream)');
  });

  it('is listed again at once when a call names a tool the gateway does not know yet', async () => {
    const plain = await httpBackend('plain', 'both', { listen: 'none', ttlMs: 600_000 });
    const gateway = await startHttpGateway({ config: gatewayToml({ plain: { url: plain.url } }) });
    await ready(gateway, 'plain');
    // The ceiling: a server that says "fresh for 10 minutes" is still polled every 5.
    expect(await listChanges(gateway, 'plain')).toBe('polling every 300 s');
    const client = await connectHttp(gateway.url);
    await client.callTool({ name: 'plain_add_tool', arguments: { name: 'fresh' } });
    expect(textOf(await client.callTool({ name: 'plain_fresh', arguments: { text: 'hi' } }))).toBe('fresh: hi');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('plain_fresh');
    // An unknown name that stays unknown is still an error.
    await expect(client.callTool({ name: 'plain_nothing', arguments: {} })).rejects.toThrow(/not found/);
  });
});
