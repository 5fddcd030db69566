import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test-support/redis-server.js';
import type { RedisServer } from '../../../test-support/redis-server.js';
import { Heard, clusterNodes } from './test-cluster.js';

let server: RedisServer;
let nodes: ReturnType<typeof clusterNodes>;
beforeAll(async () => {
  server = await startRedisServer();
  nodes = clusterNodes(server.url);
});
afterEach(async () => {
  await nodes.closeAll();
});
afterAll(async () => {
  await server?.close();
});

describe('sharedMap', () => {
  it('is one map for every node, and each hears what the others change', async () => {
    const [a, b] = await nodes.start(2);
    const heardByB = new Heard<readonly string[]>();
    const heardByA = new Heard<readonly string[]>();
    b!.sharedMap('pins').onChange(heardByB.listener);
    a!.sharedMap('pins').onChange(heardByA.listener);
    // Another map's changes are not this one's.
    await a!.sharedMap('other').set(new Map([['x', '1']]));

    expect(
      await a!.sharedMap('pins').set(
        new Map([
          ['k1', 'v1'],
          ['k2', 'v2'],
        ]),
      ),
    ).toEqual(['k1', 'k2']);
    await heardByB.waitFor((keys) => keys.join() === 'k1,k2');
    expect(await b!.sharedMap('pins').getAll()).toEqual(
      new Map([
        ['k1', 'v1'],
        ['k2', 'v2'],
      ]),
    );

    await b!.sharedMap('pins').delete(['k1']);
    await heardByA.waitFor((keys) => keys.join() === 'k1');
    expect(await a!.sharedMap('pins').getAll()).toEqual(new Map([['k2', 'v2']]));
    // A node does not hear its own changes.
    expect(heardByA.values).toEqual([['k1']]);
    expect(heardByB.values).toEqual([['k1', 'k2']]);
  });

  it('writes only absent keys with onlyIfAbsent, so two nodes agree on the first', async () => {
    const [a, b] = await nodes.start(2);
    const [fromA, fromB] = await Promise.all([
      a!.sharedMap('pins').set(new Map([['same', 'a']]), { onlyIfAbsent: true }),
      b!.sharedMap('pins').set(
        new Map([
          ['same', 'b'],
          ['only-b', 'b'],
        ]),
        { onlyIfAbsent: true },
      ),
    ]);
    expect([...fromA, ...fromB].filter((key) => key === 'same')).toHaveLength(1);
    expect(fromB).toContain('only-b');
    const all = await a!.sharedMap('pins').getAll();
    expect(all.get('same')).toBe(fromA.includes('same') ? 'a' : 'b');
    expect(await b!.sharedMap('pins').set(new Map([['same', 'c']]), { onlyIfAbsent: true })).toEqual([]);
    expect((await b!.sharedMap('pins').getAll()).get('same')).toBe(all.get('same'));
  });
});
