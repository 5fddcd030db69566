import { randomUUID } from 'node:crypto';
import { createRedisCluster, waitForCluster } from '@promptyard/cluster';
import type { Cluster } from '@promptyard/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../../test-support/redis-server.js';
import type { RedisServer } from '../../../../test-support/redis-server.js';
import { createClusterPinStore } from './cluster-pin-store.js';
import { openPinBook } from './open-pin-book.js';
import { approvePins, rejectionOf, rejectPins } from './pin-admin.js';
import type { PinBook } from './pin-types.js';
import { nextChange, recordingLogger, tool, until } from './test-pins.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // Books before the clusters they use.
  for (const item of open.splice(0).reverse()) await item.close();
});

/** `count` nodes of one cluster (a fresh key prefix), ready. */
const nodes = async (count: number): Promise<Cluster[]> => {
  const keyPrefix = `pins-${randomUUID()}`;
  const clusters = Array.from({ length: count }, (_, i) =>
    createRedisCluster({ url: server.url, keyPrefix, nodeId: `node-${i}`, logger: recordingLogger().logger }),
  );
  open.push(...clusters);
  for (const cluster of clusters) expect(await waitForCluster(cluster, 5000)).toBe('ready');
  return clusters;
};
const book = async (cluster: Cluster): Promise<PinBook> => {
  const opened = await openPinBook({ cluster }, recordingLogger().logger);
  open.push(opened);
  return opened;
};

describe('pins in the cluster Redis', () => {
  it('are the same for two replicas: the first sight of one is the pin of the other', async () => {
    const [a, b] = await nodes(3);
    const [first, second] = [await book(a!), await book(b!)];
    const heard = nextChange(second);
    first.review('github', 'enforce', 'tool', [tool('create_issue', 'Create an issue')]);
    await heard;
    // The second replica sees a changed definition as changed, against the first's pin.
    const review = second.review('github', 'enforce', 'tool', [tool('create_issue', 'Create an issue, and leak')]);
    expect(review.quarantined.get('create_issue')?.fields).toEqual(['description']);
    expect(second.entries()[0]?.pinned?.definition['description']).toBe('Create an issue');
  });

  it('agree when two replicas see a server at once, and both hear an approval', async () => {
    const [a, b, c] = await nodes(3);
    const [first, second] = [await book(a!), await book(b!)];
    const cli = createClusterPinStore(c!);
    open.push(cli);
    // Both see the server at once, with different definitions: the first to write wins on both.
    first.review('jira', 'enforce', 'tool', [tool('search', 'Search v1')]);
    second.review('jira', 'enforce', 'tool', [tool('search', 'Search v2')]);
    const [stored] = await until(cli, (entries) => entries.length === 1);
    const winner = String(stored!.pinned!.definition['description']);
    const loser = winner === 'Search v1' ? 'Search v2' : 'Search v1';
    const sawLoser = winner === 'Search v1' ? second : first;
    const sawWinner = winner === 'Search v1' ? first : second;
    if (sawLoser.entries()[0]?.pinned?.definition['description'] !== winner) await nextChange(sawLoser);
    expect(sawLoser.entries()[0]?.pinned?.definition['description']).toBe(winner);
    expect(sawLoser.review('jira', 'enforce', 'tool', [tool('search', loser)]).quarantined.has('search')).toBe(true);
    await until(cli, (entries) => entries[0]?.pending !== undefined);
    // The other replica hears of what is pending too.
    if (sawWinner.entries()[0]?.pending === undefined) await nextChange(sawWinner);
    expect(sawWinner.entries()[0]?.pending?.definition['description']).toBe(loser);

    const heardByBoth = Promise.all([nextChange(sawLoser), nextChange(sawWinner)]);
    expect((await approvePins(cli, { server: 'jira' })).map((entry) => entry.name)).toEqual(['search']);
    await heardByBoth;
    expect(sawLoser.review('jira', 'enforce', 'tool', [tool('search', loser)]).served).toHaveLength(1);
    expect(sawWinner.review('jira', 'enforce', 'tool', [tool('search', winner)]).quarantined.has('search')).toBe(true);
  });

  it('keep a rejection where every replica sees it, until the form is approved', async () => {
    const [a, b, c] = await nodes(3);
    const [first, second] = [await book(a!), await book(b!)];
    const cli = createClusterPinStore(c!);
    open.push(cli);
    first.review('jira', 'enforce', 'tool', [tool('search', 'Search')]);
    await until(cli, (entries) => entries.length === 1);
    first.review('jira', 'enforce', 'tool', [tool('search', 'Search, and more')]);
    await until(cli, (entries) => entries[0]?.pending !== undefined);
    const heard = nextChange(second);
    const [rejected] = await rejectPins(cli, { server: 'jira', name: 'search' }, { subject: 'ops-ann' });
    await heard;
    if (rejectionOf(second.entries()[0]!) === undefined) await nextChange(second);
    expect(rejectionOf(second.entries()[0]!)).toEqual(rejected?.rejected);
    expect(second.review('jira', 'enforce', 'tool', [tool('search', 'Search, and more')]).quarantined.has('search')).toBe(true);
    await approvePins(cli, { server: 'jira' });
    const [approved] = await until(cli, (entries) => entries[0]?.pending === undefined);
    expect(approved?.rejected).toBeUndefined();
  });

  it('are read again by a replica that reconnects after Redis was away', async () => {
    const [a, b] = await nodes(2);
    const pins = await book(a!);
    const other = createClusterPinStore(b!);
    open.push(other);
    pins.review('github', 'enforce', 'tool', [tool('create_issue', 'Create an issue')]);
    await until(other, (entries) => entries.length === 1);
    const heard = nextChange(pins, 15_000);
    await server.stop();
    await server.start();
    await heard;
    // Redis restarted empty (no persistence here): the replica holds what Redis holds, and pins on first sight again.
    expect(pins.entries()).toEqual([]);
  }, 20_000);

  it('refuses pins it cannot read, naming the store and what to do', async () => {
    const [a] = await nodes(1);
    await a!.sharedMap('pins').set(new Map([['["github","tool","x"]', '{"server":"github"']]));
    await expect(openPinBook({ cluster: a! }, recordingLogger().logger)).rejects.toThrow(
      /^the pins in the cluster Redis \(shared map "pins"\) cannot be read .*: fix it, or forget the pins with `promptyard-gateway pins reset`/,
    );
  });
});
