import { isPromptyardError } from '@promptyard/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test-support/redis-server.js';
import type { RedisServer } from '../../../test-support/redis-server.js';
import { clusterNodes } from './test-cluster.js';

let redis: RedisServer;
let nodes: ReturnType<typeof clusterNodes>;
beforeAll(async () => {
  redis = await startRedisServer();
  nodes = clusterNodes(redis.url);
});
afterEach(async () => {
  await nodes.closeAll();
});
afterAll(async () => {
  await redis.close();
});

describe('ask', () => {
  it('hands a question to the node named and brings back its answer or its failure', async () => {
    const [a, b] = await nodes.start(2);
    b!.onAsk(async (request) => {
      if (request['fail'] === true) throw new Error('that call is over');
      return { echoed: request['n'], by: b!.nodeId };
    });
    expect(await a!.ask(b!.nodeId, { n: 1 }, 2000)).toEqual({ echoed: 1, by: b!.nodeId });
    const answers = await Promise.all([2, 3, 4].map((n) => a!.ask(b!.nodeId, { n }, 2000)));
    expect(answers.map((answer) => answer['echoed'])).toEqual([2, 3, 4]);
    await expect(a!.ask(b!.nodeId, { fail: true }, 2000)).rejects.toThrow('that call is over');
  });

  it('fails at once for a node that is not there, and after the timeout for one that never answers', async () => {
    const [a, b] = await nodes.start(2);
    const started = Date.now();
    const absent = await a!.ask('no-such-node', {}, 5000).catch((error: unknown) => error);
    expect(isPromptyardError(absent) && absent.code).toBe('BACKEND_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(1000);
    b!.onAsk(() => new Promise(() => {}));
    const silent = await a!.ask(b!.nodeId, {}, 300).catch((error: unknown) => error);
    expect(isPromptyardError(silent) && silent.code).toBe('BACKEND_UNAVAILABLE');
  });
});

describe('sharedSecret', () => {
  it('is the same 32 bytes on every node, and differs by name', async () => {
    const [a, b] = await nodes.start(2);
    const [one, two] = await Promise.all([a!.sharedSecret('request-state'), b!.sharedSecret('request-state')]);
    expect(one).toHaveLength(32);
    expect(Buffer.from(two!).equals(Buffer.from(one!))).toBe(true);
    expect(Buffer.from(await a!.sharedSecret('other')).equals(Buffer.from(one!))).toBe(false);
  });
});
