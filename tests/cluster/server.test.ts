/**
 * Three replicas of the built promptyard-server sharing one Redis ([cluster] redis_url, given as
 * PROMPTYARD_CLUSTER_REDIS_URL) and one prompts folder, behind nginx round-robin configured by
 * deploy/nginx/promptyard.conf (test-support/cluster.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../../test-support/cluster.js';
import type { Cluster } from '../../test-support/cluster.js';
import { conformanceSuite } from '../../test-support/conformance.js';
import type { ConformanceSuite } from '../../test-support/conformance.js';
import { connectModern, connectV1, eventually, requestCounts } from './clients.js';
import { keepAliveOutlastsNginx } from './keep-alive.js';
import { deleteEndsSessionEverywhere } from './session-delete.js';
import { conformanceThroughNginx, killReplicaUnderLoad, modernLoad, prometheusScrape, redisOutage, v1Load } from './scenarios.js';

const greet = '---\ndescription: Greets\narguments:\n  - name: who\n    required: true\n---\nHello {{ who }}\n';

describe('promptyard-server: 3 replicas, Redis, nginx round-robin', () => {
  let cluster: Cluster;
  let suite: ConformanceSuite;
  let prompts: string;
  /** Writes prompt `changed-<n>.md`: each replica reloads and announces prompts/list_changed. */
  let edits = 0;
  const edit = async (): Promise<string> => {
    edits += 1;
    const name = `changed-${edits}`;
    await writeFile(join(prompts, `${name}.md`), `---\ndescription: Change ${edits}\n---\nChange ${edits}\n`);
    return name;
  };

  beforeAll(async () => {
    prompts = await mkdtemp(join(tmpdir(), 'promptyard-cluster-prompts-'));
    await writeFile(join(prompts, 'greet.md'), greet);
    [cluster, suite] = await Promise.all([
      startCluster({
        app: 'server',
        args: ['--prompts', prompts],
        // A key lists web_search, so the tools-list scenario has a tool to list (never called).
        env: { SERPER_API_KEY: 'unused-serper-key' },
      }),
      conformanceSuite(),
    ]);
  }, 300_000);

  afterAll(async () => {
    suite?.stop();
    await cluster?.close();
    if (prompts !== undefined) await rm(prompts, { recursive: true, force: true });
  });

  it('passes every conformance scenario through nginx that one replica passes, at both revisions', async () => {
    await conformanceThroughNginx(cluster, suite, {
      '2025-11-25': ['server-initialize', 'ping', 'prompts-list'],
      '2026-07-28': ['prompts-list', 'tools-list'],
    });
  }, 120_000);

  it('answers the DELETE of a 2025 session once every replica has forgotten it: the next request gets 404 wherever it lands', async () => {
    await deleteEndsSessionEverywhere(cluster);
  }, 30_000);

  it('keeps an idle connection from nginx open longer than nginx keeps it in its pool, so no request is sent on a closed one', async () => {
    await keepAliveOutlastsNginx(cluster);
  }, 30_000);

  it('serves 300 requests of one SDK v1 session from all 3 replicas, and its GET stream hears every list_changed', async () => {
    const session = await connectV1(cluster.url);
    try {
      const before = await requestCounts(cluster, 'prompts/get', 'ok');
      for (let index = 0; index < 300; index += 1) {
        const result = await session.client.getPrompt({ name: 'greet', arguments: { who: `caller ${index}` } });
        expect(result.messages[0]?.content).toEqual({ type: 'text', text: `Hello caller ${index}\n` });
      }
      const after = await requestCounts(cluster, 'prompts/get', 'ok');
      const served = after.map((count, index) => count - (before[index] as number));
      expect(served.reduce((sum, count) => sum + count, 0)).toBe(300);
      expect(
        served.every((count) => count > 0),
        `prompts/get served per replica: ${served.join(', ')}`,
      ).toBe(true);
      expect(session.transport.sessionId).toBe(session.sessionId);

      for (let change = 1; change <= 5; change += 1) {
        const heard = session.heard();
        const name = await edit();
        await eventually(
          async () => session.heard(),
          (count) => count > heard,
          10_000,
          `the GET stream hears list_changed for change ${change}`,
        );
        await eventually(
          async () => (await session.client.listPrompts()).prompts.map((prompt) => prompt.name),
          (names) => names.includes(name),
          10_000,
          `${name} listed`,
        );
      }
    } finally {
      await session.close();
    }
  }, 90_000);

  it('is scraped by a real Prometheus on every replica, promtool-clean', async () => {
    await prometheusScrape(cluster, async () => {
      const client = await connectModern(cluster.url);
      for (let index = 0; index < 30; index += 1) await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
      await client.close();
    });
  }, 60_000);

  it('keeps serving while Redis is down for 5 s, says degraded, then recovers', async () => {
    await redisOutage(cluster, (client) => client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } }));
  }, 60_000);

  it('survives a replica SIGKILLed while 20 2026-07-28 clients make 60 calls each: in-flight calls fail fast, later ones succeed', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 60,
      victim: 2,
      connect: modernLoad(cluster.url, (client, index) =>
        client.getPrompt({ name: 'greet', arguments: { who: `call ${index}` } }, { timeout: 15_000 }),
      ),
    });
  }, 120_000);

  it('survives a replica SIGKILLed while 20 2025 sessions make 60 calls each: in-flight calls fail fast, later ones succeed, sessions go on, streams resume', async () => {
    await killReplicaUnderLoad(cluster, {
      clients: 20,
      callsPerClient: 60,
      victim: 1,
      connect: v1Load(cluster.url, (session, index) =>
        session.client.getPrompt({ name: 'greet', arguments: { who: `call ${index}` } }, { timeout: 15_000 }),
      ),
      edit: async () => {
        await edit();
      },
    });
  }, 120_000);
});
