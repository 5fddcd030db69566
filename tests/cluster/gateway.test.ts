/**
 * Three replicas of the built promptyard-gateway sharing one Redis ([cluster] redis_url, given as
 * PROMPTYARD_CLUSTER_REDIS_URL), behind nginx round-robin configured by deploy/nginx/promptyard.conf
 * (test-support/cluster.ts). Each replica runs its own stdio backend (server-everything) and reaches
 * the conformance suite's reference server over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingCommand, gatewayToml } from '../../apps/gateway/test/harness.js';
import { startConformanceServer } from '../../apps/gateway/test/backends/spawn.js';
import type { HttpBackend } from '../../apps/gateway/test/backends/spawn.js';
import { startCluster } from '../../test-support/cluster.js';
import type { Cluster } from '../../test-support/cluster.js';
import { conformanceSuite } from '../../test-support/conformance.js';
import type { ConformanceSuite } from '../../test-support/conformance.js';
import { connectModern, connectV1, inParallel } from './clients.js';
import { conformanceThroughNginx, killReplicaUnderLoad, modernLoad, prometheusScrape, redisOutage, v1Load } from './scenarios.js';

const textOf = (result: object): string =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[]).map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');

describe('promptyard-gateway: 3 replicas, Redis, nginx round-robin', () => {
  let cluster: Cluster;
  let suite: ConformanceSuite;
  let reference: HttpBackend;

  beforeAll(async () => {
    [reference, suite] = await Promise.all([startConformanceServer(), conformanceSuite()]);
    // The suite calls the reference server's tools by their plain names: no prefix for it.
    const config = gatewayToml({ everything: { command: everythingCommand('stdio') }, reference: { url: reference.url, prefix: false } });
    cluster = await startCluster({ app: 'gateway', config });
  }, 300_000);

  afterAll(async () => {
    suite?.stop();
    await cluster?.close();
    await reference?.stop();
  });

  it('passes every conformance scenario through nginx that one replica passes, at both revisions', async () => {
    await conformanceThroughNginx(cluster, suite, {
      '2025-11-25': ['ping', 'tools-call-elicitation', 'tools-call-sampling'],
      '2026-07-28': ['tools-list', 'input-required-result-basic-elicitation', 'input-required-result-multi-round'],
    });
  }, 120_000);

  it('completes 50 tool calls that elicit, each answer POSTed through the balancer (2025 sessions)', async () => {
    const sessions = await Promise.all(Array.from({ length: 5 }, () => connectV1(cluster.url, { elicitation: true })));
    try {
      // One call at a time, the sessions taking turns: a 2025-era backend's elicitation names no call,
      // so a gateway (one replica as much as three) refuses to guess between clients with calls in flight.
      const results = await inParallel(50, 1, async (index) => {
        const session = sessions[index % sessions.length];
        const result = await session?.client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} }, undefined, { timeout: 15_000 });
        return result === undefined ? '' : `${result.isError === true ? 'error: ' : ''}${textOf(result)}`;
      });
      const outcomes = results.map((result) => (result.status === 'fulfilled' ? result.value : `failed: ${(result.reason as Error).message}`));
      expect(outcomes.filter((outcome) => !outcome.includes('Ada Lovelace') || outcome.startsWith('error')), 'calls that did not complete with the answer').toEqual([]);
    } finally {
      await Promise.allSettled(sessions.map((session) => session.close()));
    }
  }, 90_000);

  it('is scraped by a real Prometheus on every replica, promtool-clean', async () => {
    await prometheusScrape(cluster, async () => {
      const client = await connectModern(cluster.url);
      for (let index = 0; index < 30; index += 1) await client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } });
      await client.close();
    });
  }, 60_000);

  it('keeps serving while Redis is down for 5 s, says degraded, then recovers', async () => {
    await redisOutage(cluster, (client) => client.callTool({ name: 'everything_echo', arguments: { message: 'during the outage' } }));
  }, 60_000);

  it('survives a replica SIGKILLed while 20 2026-07-28 clients make 200 calls each: in-flight calls fail fast, later ones succeed', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 200,
      victim: 2,
      connect: modernLoad(cluster.url, (client, index) => client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } }, { timeout: 15_000 })),
    });
  }, 120_000);

  it('survives a replica SIGKILLed while 20 2025 sessions make 200 calls each: in-flight calls fail fast, later ones succeed, sessions go on', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 200,
      victim: 1,
      connect: v1Load(cluster.url, (session, index) => session.client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } }, undefined, { timeout: 15_000 })),
    });
  }, 120_000);
});
