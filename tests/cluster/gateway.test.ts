/**
 * Three replicas of the built promptyard-gateway sharing one Redis ([cluster] redis_url, given as
 * PROMPTYARD_CLUSTER_REDIS_URL), behind nginx round-robin configured by deploy/nginx/promptyard.conf
 * (test-support/cluster.ts). Each replica runs its own stdio backend (server-everything) and reaches
 * the conformance suite's reference server over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingCommand, gatewayToml } from '../../apps/gateway/test/harness.js';
import { startConformanceServer } from '../../apps/gateway/test/backends/spawn.js';
import type { HttpBackend } from '../../apps/gateway/test/backends/spawn.js';
import { startCluster } from '../../test-support/cluster.js';
import type { Cluster } from '../../test-support/cluster.js';
import { conformanceSuite } from '../../test-support/conformance.js';
import { startOtlpReceiver } from '../../test-support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from '../../test-support/otlp-receiver.js';
import type { ConformanceSuite } from '../../test-support/conformance.js';
import { connectModern, connectV1, inParallel } from './clients.js';
import { keepAliveOutlastsNginx } from './keep-alive.js';
import { conformanceThroughNginx, killReplicaUnderLoad, modernLoad, prometheusScrape, redisOutage, v1Load } from './scenarios.js';

const serverCli = fileURLToPath(new URL('../../apps/server/dist/cli.js', import.meta.url));
/** OTLP span kinds. */
const SERVER = 2;
const CLIENT = 3;

const textOf = (result: object): string =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');

describe('promptyard-gateway: 3 replicas, Redis, nginx round-robin', () => {
  let cluster: Cluster;
  let suite: ConformanceSuite;
  let reference: HttpBackend;
  let receiver: OtlpReceiver;
  let prompts: string;

  beforeAll(async () => {
    [reference, suite, receiver] = await Promise.all([startConformanceServer(), conformanceSuite(), startOtlpReceiver()]);
    prompts = await mkdtemp(join(tmpdir(), 'promptyard-cluster-prompts-'));
    await writeFile(join(prompts, 'greet.md'), '---\ndescription: Greets\narguments:\n  - name: who\n---\nHello {{who}}\n');
    // The suite calls the reference server's tools by their plain names: no prefix for it. `docs`, a
    // promptyard-server, exports its traces like the replicas (every 50 ms).
    const config = gatewayToml({
      everything: { command: everythingCommand('stdio') },
      reference: { url: reference.url, prefix: false },
      docs: {
        command: {
          command: process.execPath,
          args: [serverCli, '--prompts', prompts],
          env: { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
        },
      },
    });
    cluster = await startCluster({
      app: 'gateway',
      config,
      env: { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
  }, 300_000);

  afterAll(async () => {
    suite?.stop();
    await cluster?.close();
    await reference?.stop();
    await receiver?.close();
    if (prompts !== undefined) await rm(prompts, { recursive: true, force: true });
  });

  it('makes one trace of each call through any replica: client → gateway SERVER → gateway CLIENT → backend SERVER', async () => {
    const client = await connectModern(cluster.url);
    try {
      const calls = Array.from({ length: 6 }, () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') }));
      for (const [index, call] of calls.entries()) {
        const result = await client.getPrompt({
          name: 'docs_greet',
          arguments: { who: `caller ${index}` },
          _meta: { traceparent: `00-${call.traceId}-${call.spanId}-01` },
        });
        expect(JSON.stringify(result.messages)).toContain(`Hello caller ${index}`);
      }
      const inTrace = (spans: readonly ReceivedSpan[], traceId: string) => spans.filter((span) => span.traceId === traceId);
      const spans = await receiver.waitFor((received) => calls.every((call) => inTrace(received, call.traceId).length >= 3));
      for (const call of calls) {
        const trace = inTrace(spans, call.traceId);
        const gateway = trace.filter((span) => span.service === 'promptyard-gateway' && span.kind === SERVER);
        expect(gateway, 'one gateway SERVER span per call').toHaveLength(1);
        const [server] = gateway as [ReceivedSpan];
        expect(server.parentSpanId).toBe(call.spanId);
        const outgoing = trace.find((span) => span.service === 'promptyard-gateway' && span.kind === CLIENT);
        expect(outgoing?.parentSpanId).toBe(server.spanId);
        const backend = trace.find((span) => span.service === 'promptyard-server' && span.kind === SERVER);
        expect(backend?.parentSpanId).toBe(outgoing?.spanId);
        expect(trace).toHaveLength(3);
      }
    } finally {
      await client.close();
    }
  }, 60_000);

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
        const result = await session?.client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} }, undefined, {
          timeout: 15_000,
        });
        return result === undefined ? '' : `${result.isError === true ? 'error: ' : ''}${textOf(result)}`;
      });
      const outcomes = results.map((result) =>
        result.status === 'fulfilled' ? result.value : `failed: ${(result.reason as Error).message}`,
      );
      expect(
        outcomes.filter((outcome) => !outcome.includes('Ada Lovelace') || outcome.startsWith('error')),
        'calls that did not complete with the answer',
      ).toEqual([]);
    } finally {
      await Promise.allSettled(sessions.map((session) => session.close()));
    }
  }, 90_000);

  it('keeps an idle connection from nginx open longer than nginx keeps it in its pool, so no request is sent on a closed one', async () => {
    await keepAliveOutlastsNginx(cluster);
  }, 30_000);

  it('is scraped by a real Prometheus on every replica, promtool-clean', async () => {
    await prometheusScrape(cluster, async () => {
      const client = await connectModern(cluster.url);
      for (let index = 0; index < 30; index += 1)
        await client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } });
      await client.close();
    });
  }, 60_000);

  it('keeps serving while Redis is down for 5 s, says degraded, then recovers', async () => {
    await redisOutage(cluster, (client) => client.callTool({ name: 'everything_echo', arguments: { message: 'during the outage' } }));
  }, 60_000);

  it('survives a replica SIGKILLed while 20 2026-07-28 clients make 60 calls each: in-flight calls fail fast, later ones succeed', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 60,
      victim: 2,
      connect: modernLoad(cluster.url, (client, index) =>
        client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } }, { timeout: 15_000 }),
      ),
    });
  }, 120_000);

  it('survives a replica SIGKILLed while 20 2025 sessions make 60 calls each: in-flight calls fail fast, later ones succeed, sessions go on', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 60,
      victim: 1,
      connect: v1Load(cluster.url, (session, index) =>
        session.client.callTool({ name: 'everything_echo', arguments: { message: `call ${index}` } }, undefined, { timeout: 15_000 }),
      ),
    });
  }, 120_000);
});
