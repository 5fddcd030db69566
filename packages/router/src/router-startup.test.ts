import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@promptyard/core';
import { parseGatewayConfig } from './config.js';
import { Router } from './router.js';
import { killAllChildren } from './sdk/kill.js';

/** A server that never answers its handshake. */
const hung = (waitMs: number): string => `
[gateway]
startup_wait_ms = ${waitMs}

[servers.hung]
command = ${JSON.stringify(process.execPath)}
args = ["-e", "setInterval(() => {}, 1e9)"]
`;

const routers: Router[] = [];
const routerFor = (text: string): Router => {
  const router = new Router(parseGatewayConfig(text, { env: {} }), { logger: silentLogger(), version: '0.0.0' });
  routers.push(router);
  return router;
};

afterEach(async () => {
  await Promise.all(routers.splice(0).map((router) => router.close()));
  killAllChildren();
});

describe('Router start-up', () => {
  it('serves the meta tools before any server is ready, and holds lists only within startup_wait_ms', async () => {
    const router = routerFor(hung(300));
    expect(router.listTools().map((tool) => tool.name)).toContain('catalog_tools');
    const started = Date.now();
    void router.start();
    const wait = router.startup();
    expect(wait).toBeInstanceOf(Promise);
    await wait;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(router.startup()).toBeUndefined();
    expect(router.status().backends.map((backend) => backend.state)).toEqual(['starting']);
  });

  it('never holds lists with startup_wait_ms = 0', () => {
    const router = routerFor(hung(0));
    void router.start();
    expect(router.startup()).toBeUndefined();
  });

  it('ends a server still connecting at once when closed, not at the connect timeout', async () => {
    const router = routerFor(hung(5000));
    const settled = router.start();
    const closing = Date.now();
    await router.close();
    await settled;
    expect(Date.now() - closing).toBeLessThan(2000);
    expect(router.status().backends.map((backend) => backend.state)).toEqual(['stopped']);
  });
});
