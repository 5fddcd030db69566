import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test-support/redis-server.js';
import type { RedisServer } from '../../../test-support/redis-server.js';
import { promptFiles } from './fixtures.js';
import { cleanup, eventually, makeFolder, startHttp } from './harness.js';
import type { HttpServer } from './harness.js';

// Two replicas of promptyard-server sharing one real Redis, and a 2025-era client whose every HTTP
// request goes to the next live replica (a round-robin balancer without affinity, in the client's fetch).

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});
afterEach(cleanup);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

interface Balanced {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Requests each node answered, by index. */
  readonly hits: number[];
}

/** A 2025-11-25 client whose requests go round-robin over `nodes`, skipping a node that refuses connections. */
const connectBalanced = async (nodes: readonly HttpServer[]): Promise<Balanced> => {
  const hits = nodes.map(() => 0);
  let turn = 0;
  const balanced = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let failure: unknown;
    for (let attempt = 0; attempt < nodes.length; attempt += 1) {
      const index = turn++ % nodes.length;
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = new URL((nodes[index] as HttpServer).url).host;
      try {
        const response = await fetch(url, init);
        hits[index] = (hits[index] ?? 0) + 1;
        return response;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };
  const transport = new StreamableHTTPClientTransport(new URL((nodes[0] as HttpServer).url), {
    fetch: balanced,
    reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 20 },
  });
  const client = new Client({ name: 'promptyard-cluster-e2e', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport, hits };
};

const startNodes = async (count: number, folder: string): Promise<HttpServer[]> => {
  const nodes: HttpServer[] = [];
  for (let index = 0; index < count; index += 1) {
    const node = await startHttp(['--prompts', folder], { env: { PROMPTYARD_CLUSTER_REDIS_URL: redis.url } });
    await node.stderr.waitFor(/watching/);
    nodes.push(node);
  }
  return nodes;
};

const health = async (node: HttpServer): Promise<{ status: string; cluster?: { store: string } }> =>
  (await (await fetch(new URL('/health', node.url))).json()) as { status: string; cluster?: { store: string } };

describe('promptyard-server replicas sharing Redis ([cluster] redis_url)', () => {
  it('serves one 2025 session from every replica, without re-initializing', async () => {
    const folder = await makeFolder(promptFiles);
    const nodes = await startNodes(2, folder);
    await eventually(
      () => Promise.all(nodes.map(health)),
      (all) => all.every((one) => one.status === 'ok' && one.cluster?.store === 'ready'),
    );
    const { client, transport, hits } = await connectBalanced(nodes);
    const session = transport.sessionId;
    expect(session).toBeDefined();
    for (let index = 0; index < 20; index += 1) {
      const result = await client.getPrompt({ name: 'review', arguments: { code: `n = ${index}`, language: 'python' } });
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: `Review this python code:\n\nn = ${index}\n` });
    }
    await client.setLoggingLevel('debug');
    expect((await client.listPrompts()).prompts.length).toBe(6);
    // Same session throughout: a node that did not open it rebuilt it from the shared record.
    expect(transport.sessionId).toBe(session);
    expect(hits.every((count) => count >= 10)).toBe(true);
  });

  it('tells a session of each change once, whichever replicas saw it, and resumes its stream on another replica', async () => {
    const folder = await makeFolder(promptFiles);
    const nodes = await startNodes(2, folder);
    await eventually(
      () => Promise.all(nodes.map(health)),
      (all) => all.every((one) => one.cluster?.store === 'ready'),
    );
    const { client } = await connectBalanced(nodes);
    let heard = 0;
    const waiters: (() => void)[] = [];
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      heard += 1;
      for (const waiter of waiters.splice(0)) waiter();
    });
    const heardAtLeast = async (count: number): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (heard < count) {
        if (Date.now() > deadline) throw new Error(`heard ${heard} list changes, not ${count}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    };
    // Both replicas watch the folder and see each edit; the session hears it once.
    for (let edit = 1; edit <= 3; edit += 1) {
      await writeFile(
        join(folder, 'review.md'),
        promptFiles['review.md']!.replace('Review code for bugs and style', `Review code, take ${edit}`),
      );
      await heardAtLeast(edit);
    }
    await client.ping();
    expect(heard).toBe(3);

    // The replica holding the GET stream dies; an edit meanwhile is replayed on the other one.
    const streams = await Promise.all(
      nodes.map(async (node) =>
        Number(/^promptyard_http_open_streams (\d+)/m.exec(await (await fetch(new URL('/metrics', node.url))).text())?.[1] ?? 0),
      ),
    );
    const holder = nodes[streams.findIndex((count) => count > 0)] as HttpServer;
    expect(holder).toBeDefined();
    holder.child.kill('SIGKILL');
    await writeFile(
      join(folder, 'review.md'),
      promptFiles['review.md']!.replace('Review code for bugs and style', 'Review code, while a replica is down'),
    );
    await heardAtLeast(4);
    expect((await client.getPrompt({ name: 'review', arguments: { code: 'x' } })).description).toBe('Review code, while a replica is down');
  });

  it('counts one rate limit across the replicas', async () => {
    const folder = await makeFolder(promptFiles);
    const env = {
      PROMPTYARD_CLUSTER_REDIS_URL: redis.url,
      PROMPTYARD_CLUSTER_KEY_PREFIX: `rate-${Date.now()}`,
      PROMPTYARD_TRANSPORT_RATE_LIMIT_ENABLED: 'true',
      PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST: '4',
      PROMPTYARD_TRANSPORT_RATE_LIMIT_REQUESTS_PER_MINUTE: '1',
    };
    const nodes = [await startHttp(['--prompts', folder], { env }), await startHttp(['--prompts', folder], { env })];
    const statuses: number[] = [];
    // Alone, each replica would let its own 4 through: 8 in all.
    for (let index = 0; index < 8; index += 1)
      statuses.push((await fetch(new URL('/health', (nodes[index % 2] as HttpServer).url))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
  });
});
