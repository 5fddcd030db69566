import { randomUUID } from 'node:crypto';
import { isPromptyardError, standaloneStreamId } from '@promptyard/core';
import type { ChangeEvent, Cluster, ClusterStatus } from '@promptyard/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test-support/prometheus.js';
import { startRedisServer } from '../../../test-support/redis-server.js';
import type { RedisServer } from '../../../test-support/redis-server.js';
import { createRedisCluster } from './redis-cluster.js';
import { Heard, clusterNodes, reach, recordingLogger } from './test-cluster.js';

let server: RedisServer;
let nodes: ReturnType<typeof clusterNodes>;
/** Whether a test stopped the server (and failed before starting it again). */
let down = false;
beforeAll(async () => {
  server = await startRedisServer();
  nodes = clusterNodes(server.url);
});
afterEach(async () => {
  // A test that stopped or paused the server leaves it running for the next one.
  if (down) await server.start();
  down = false;
  process.kill(server.pid, 'SIGCONT');
  await nodes.closeAll();
});
afterAll(async () => {
  await server?.close();
});

const record = { initialize: { protocolVersion: '2025-11-25' }, subscriptions: ['doc://x'] };

/** Every store call of `cluster`, each expected to fail. */
const storeCalls = (cluster: Cluster, lastEventId: string): Record<string, () => Promise<unknown>> => {
  const store = cluster.eventStore('s1');
  return {
    saveSession: () => cluster.saveSession('s1', record, 60_000),
    loadSession: () => cluster.loadSession('s1'),
    touchSession: () => cluster.touchSession('s1', 60_000),
    deleteSession: () => cluster.deleteSession('s1'),
    storeEvent: () => store.storeEvent(standaloneStreamId, { jsonrpc: '2.0', method: 'ping' }),
    replayEventsAfter: () => store.replayEventsAfter(lastEventId, { send: async () => {} }),
    broadcast: () => cluster.broadcast({ jsonrpc: '2.0', method: 'ping' }),
    forward: () => cluster.forward('s1', []),
    claim: () => cluster.claim('k', 1000),
    takeToken: () => cluster.takeToken('c', { requestsPerMinute: 60, burst: 1 }),
  };
};

/** Runs every store call; each must reject with BACKEND_UNAVAILABLE within `withinMs`. */
const expectAllUnavailable = async (cluster: Cluster, lastEventId: string, withinMs: number): Promise<void> => {
  const started = Date.now();
  const outcomes = await Promise.all(
    Object.entries(storeCalls(cluster, lastEventId)).map(async ([name, call]) => {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return [name, isPromptyardError(error) ? error.code : String(error), Date.now() - started] as const;
    }),
  );
  for (const [name, code, elapsed] of outcomes) {
    expect({ name, code }).toEqual({ name, code: 'BACKEND_UNAVAILABLE' });
    expect(elapsed, name).toBeLessThan(withinMs);
  }
};

describe('while Redis is down', () => {
  it('degrades, fails every call at once, serves its own changes, and recovers when Redis is back', async () => {
    const logs = [recordingLogger(), recordingLogger()];
    const keyPrefix = `test-${randomUUID()}`;
    const [a, b] = logs.map(({ logger }, i) => createRedisCluster({ url: server.url, keyPrefix, logger, nodeId: `node-${i}` }));
    nodes.open.push(a!, b!);
    await Promise.all([reach(a!, 'ready'), reach(b!, 'ready')]);
    const statuses: ClusterStatus[] = [];
    a!.onStatus((status) => statuses.push(status));
    const heardA = new Heard<ChangeEvent>();
    const heardB = new Heard<ChangeEvent>();
    a!.bus.subscribe(heardA.listener);
    b!.bus.subscribe(heardB.listener);

    const lastEventId = await a!.eventStore('s1').storeEvent(standaloneStreamId, { jsonrpc: '2.0', method: 'ping' });
    down = true;
    await server.stop();
    await Promise.all([reach(a!, 'degraded'), reach(b!, 'degraded')]);
    expect(statuses).toEqual(['degraded']);
    await expectAllUnavailable(a!, lastEventId, 1500);
    const error = await a!.loadSession('s1').catch((caught: unknown) => caught);
    expect(String(error)).toMatch(
      /the shared Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable .*this node serves on its own .*check \[cluster\] redis_url/,
    );

    // A lone node still hears its own changes, once; the other node does not.
    a!.bus.publish({ kind: 'tools_list_changed' });
    await heardA.waitFor((event) => event.kind === 'tools_list_changed');
    expect(heardA.values).toEqual([{ kind: 'tools_list_changed' }]);
    expect(heardB.values).toEqual([]);

    await server.start();
    down = false;
    await Promise.all([reach(a!, 'ready'), reach(b!, 'ready')]);
    expect(statuses).toEqual(['degraded', 'ready']);
    await a!.saveSession('s1', record, 60_000);
    expect(await b!.loadSession('s1')).toEqual(record);
    // Subscribed again: a change reaches both nodes through Redis.
    b!.bus.publish({ kind: 'prompts_list_changed' });
    await Promise.all([heardA, heardB].map((heard) => heard.waitFor((event) => event.kind === 'prompts_list_changed')));
    expect(heardA.values).toHaveLength(2);
    expect(heardB.values).toHaveLength(1);

    // One line per change of status, at warning then info.
    const lines = logs[0]!.lines;
    expect(lines.filter((line) => line.includes('WARNING') && line.includes('the shared Redis is unreachable'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('reconnected to the shared Redis'))).toHaveLength(1);
  });

  it('fails calls within the command timeout when Redis stops answering, then degrades until it answers again', async () => {
    const [a] = await nodes.start(1, { commandTimeoutMs: 300 });
    const lastEventId = await a!.eventStore('s1').storeEvent(standaloneStreamId, { jsonrpc: '2.0', method: 'ping' });
    process.kill(server.pid, 'SIGSTOP');
    await expectAllUnavailable(a!, lastEventId, 1000);
    // A call timed out: a PING finds Redis silent and the connection is replaced.
    await reach(a!, 'degraded');
    await expectAllUnavailable(a!, lastEventId, 500);
    process.kill(server.pid, 'SIGCONT');
    await reach(a!, 'ready');
    expect(await a!.claim(randomUUID(), 1000)).toBe(true);
  });

  it('resubscribes when Redis drops the subscriber connection', async () => {
    const [a, b] = await nodes.start(2);
    const statuses: ClusterStatus[] = [];
    a!.onStatus((status) => statuses.push(status));
    const heardB = new Heard<ChangeEvent>();
    b!.bus.subscribe(heardB.listener);
    const ready = Promise.all(
      [a, b].map(async (node) => {
        await reach(node!, 'degraded');
        await reach(node!, 'ready');
      }),
    );
    const admin = new Redis(server.url);
    try {
      await admin.client('KILL', 'TYPE', 'pubsub');
    } finally {
      admin.disconnect();
    }
    await ready;
    expect(statuses).toEqual(['degraded', 'ready']);
    a!.bus.publish({ kind: 'tools_list_changed' });
    await heardB.waitFor((event) => event.kind === 'tools_list_changed');
  });

  it('starts degraded when Redis is not there, and never logs the password', async () => {
    const { logger, lines } = recordingLogger();
    const port = await freePort();
    const cluster = createRedisCluster({ url: `redis://operator:s3cret@127.0.0.1:${port}`, logger });
    nodes.open.push(cluster);
    await reach(cluster, 'degraded');
    const error = await cluster.claim('k', 1000).catch((caught: unknown) => caught);
    expect(isPromptyardError(error) && error.code).toBe('BACKEND_UNAVAILABLE');
    expect(String(error)).toContain(`redis://***@127.0.0.1:${port}`);
    expect(String(error)).not.toContain('s3cret');
    expect(lines.join('\n')).toContain('***@127.0.0.1');
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(lines.filter((line) => line.includes('unreachable'))).toHaveLength(1);
  });
});
