import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@promptyard/core';
import { Router } from './router.js';
import { killAllChildren } from './sdk/kill.js';
import { backendConfig, routerConfig } from './test-router-config.js';
import type { RouterConfig } from './router-config.js';

/** A server that never answers its handshake. */
const hung = (waitMs: number): RouterConfig =>
  routerConfig([backendConfig('hung', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1e9)'] })], {
    startupWaitMs: waitMs,
  });

const routers: Router[] = [];
const routerFor = (config: RouterConfig): Router => {
  const router = new Router(config, { logger: silentLogger(), version: '0.0.0' });
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
    expect(
      router
        .view()
        .listTools()
        .map((tool) => tool.name),
    ).toContain('catalog_tools');
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
