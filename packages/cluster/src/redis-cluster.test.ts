import { randomUUID } from 'node:crypto';
import { isPromptyardError, standaloneStreamId } from '@promptyard/core';
import type { ChangeEvent, JsonRpcMessage, SessionEvent, SessionRecord } from '@promptyard/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test-support/redis-server.js';
import type { RedisServer } from '../../../test-support/redis-server.js';
import { createRedisCluster, waitForCluster } from './redis-cluster.js';
import { Heard, clusterNodes, recordingLogger } from './test-cluster.js';

let server: RedisServer;
let raw: Redis;
let nodes: ReturnType<typeof clusterNodes>;
beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url);
  nodes = clusterNodes(server.url);
});
afterEach(async () => {
  await nodes.closeAll();
});
afterAll(async () => {
  raw.disconnect();
  await server?.close();
});

const record = (subscriptions: string[] = []): SessionRecord => ({
  initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  subject: 'alice',
  subscriptions,
});
const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

describe('createRedisCluster', () => {
  it('returns at once, connecting, and reports ready', async () => {
    const { logger, lines } = recordingLogger();
    const cluster = createRedisCluster({ url: server.url, keyPrefix: `test-${randomUUID()}`, logger });
    nodes.open.push(cluster);
    expect(cluster.status()).toBe('connecting');
    expect(cluster.nodeId).toMatch(/^[0-9a-f-]{36}$/);
    const heard = new Heard<string>();
    cluster.onStatus(heard.listener);
    expect(await waitForCluster(cluster, 5000)).toBe('ready');
    expect(heard.values).toEqual(['ready']);
    expect(lines.filter((line) => line.includes('connected to the shared Redis'))).toHaveLength(1);
  });

  it('takes any node id', async () => {
    const [a] = await nodes.start(1, { nodeId: 'node one\n(east)' });
    expect(a!.nodeId).toBe('node one\n(east)');
    expect(await a!.claim(randomUUID(), 1000)).toBe(true);
  });

  it('refuses a URL that is not redis:// or rediss://', () => {
    expect(() => createRedisCluster({ url: 'http://user:secret@localhost:6379', logger: recordingLogger().logger })).toThrow(
      /\[cluster\] redis_url must be a redis:\/\/ or rediss:\/\/ URL .*got "http:\/\/\*\*\*@localhost:6379\/"/,
    );
  });
});

describe('sessions', () => {
  it('saves, loads, touches and forgets a record, shared by every node', async () => {
    const [a, b] = await nodes.start(2);
    const id = randomUUID();
    expect(await b!.loadSession(id)).toBeUndefined();
    await a!.saveSession(id, { ...record(['doc://a']), logLevel: 'debug' }, 60_000);
    expect(await b!.loadSession(id)).toEqual({ ...record(['doc://a']), logLevel: 'debug' });

    const [recordKey] = await raw.keys(`*:session:${id}`);
    await raw.pexpire(recordKey!, 1000);
    await b!.eventStore(id).storeEvent(standaloneStreamId, note(1));
    const [streamKey] = await raw.keys(`*:stream:${standaloneStreamId}:${id}`);
    expect(await raw.pttl(streamKey!)).toBeLessThanOrEqual(1000);
    await b!.touchSession(id, 120_000);
    expect(await raw.pttl(recordKey!)).toBeGreaterThan(60_000);
    expect(await raw.pttl(streamKey!)).toBeGreaterThan(60_000);
    // Touching what does not exist creates nothing.
    await b!.touchSession(randomUUID(), 1000);
    expect(await raw.keys(`${recordKey!.split(':session:')[0]}:session:*`)).toEqual([recordKey]);
  });

  it('lets a record expire with its TTL', async () => {
    const [a] = await nodes.start(1);
    const id = randomUUID();
    await a!.saveSession(id, record(), 1);
    await expect.poll(() => a!.loadSession(id), { interval: 5 }).toBeUndefined();
  });

  it('deletes the record and its streams and tells every node once', async () => {
    const [a, b] = await nodes.start(2);
    const closedA = new Heard<string>();
    const closedB = new Heard<string>();
    a!.onSessionClosed(closedA.listener);
    b!.onSessionClosed(closedB.listener);
    const [first, second] = [randomUUID(), randomUUID()];
    await a!.saveSession(first, record(['doc://x']), 60_000);
    await a!.eventStore(first).storeEvent('stream-1', note(1));
    await a!.eventStore(first).storeEvent(standaloneStreamId, note(2));
    await b!.deleteSession(first);
    await b!.deleteSession(second);
    await Promise.all([closedA.waitFor((id) => id === second), closedB.waitFor((id) => id === second)]);
    expect(closedA.values).toEqual([first, second]);
    expect(closedB.values).toEqual([first, second]);
    expect(await a!.loadSession(first)).toBeUndefined();
    expect((await raw.keys(`*${first}*`)).sort()).toEqual([]);
  });

  it('reports Redis refusing a command as BACKEND_ERROR', async () => {
    const [a] = await nodes.start(1);
    const id = randomUUID();
    await a!.saveSession(id, record(), 60_000);
    const [recordKey] = await raw.keys(`*:session:${id}`);
    await raw.set(recordKey!.replace(/:session:.*$/, ':sessions'), 'not a sorted set');
    const error = await a!.touchSession(id, 60_000).catch((caught: unknown) => caught);
    expect(isPromptyardError(error) && error.code).toBe('BACKEND_ERROR');
    expect(String(error)).toMatch(/the shared Redis at redis:\/\/127\.0\.0\.1:\d+ refused a command: .*WRONGTYPE/);
  });

  it('rejects a TTL that is not a positive number', async () => {
    const [a] = await nodes.start(1);
    await expect(a!.saveSession('s', record(), 0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(a!.touchSession('s', Number.NaN)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('eventStore', () => {
  it('stores events per stream and replays those after an id, from any node', async () => {
    const [a, b] = await nodes.start(2);
    const id = randomUUID();
    await a!.saveSession(id, record(), 60_000);
    const store = a!.eventStore(id);
    const stream = randomUUID();
    const ids = [];
    for (let n = 1; n <= 4; n += 1) ids.push(await store.storeEvent(stream, note(n)));
    // Also the wait for the request stream's events, written behind their send on the same connection.
    await store.storeEvent(standaloneStreamId, note(99));
    expect(await store.getStreamIdForEventId(ids[0]!)).toBe(stream);

    const sent: [string, JsonRpcMessage][] = [];
    const replayed = await b!.eventStore(id).replayEventsAfter(ids[1]!, {
      send: async (eventId, message) => {
        sent.push([eventId, message]);
      },
    });
    expect(replayed).toBe(stream);
    expect(sent).toEqual([
      [ids[2], note(3)],
      [ids[3], note(4)],
    ]);
    expect(await b!.eventStore(id).replayEventsAfter(ids[3]!, { send: async () => expect.fail('nothing is after the last event') })).toBe(
      stream,
    );
  });

  it('refuses an id that is malformed, of another session, or no longer kept', async () => {
    const [a] = await nodes.start(1, { sessionStreamMaxLength: 10 });
    const [mine, theirs] = [randomUUID(), randomUUID()];
    await a!.saveSession(mine, record(), 60_000);
    await a!.saveSession(theirs, record(), 60_000);
    const store = a!.eventStore(mine);
    const send = async (): Promise<void> => expect.fail('nothing may be replayed');
    const foreign = await a!.eventStore(theirs).storeEvent(standaloneStreamId, note(1));
    await store.storeEvent(standaloneStreamId, note(1));
    expect(await store.getStreamIdForEventId(foreign)).toBeUndefined();
    expect(await store.getStreamIdForEventId('garbage')).toBeUndefined();
    await expect(store.replayEventsAfter(foreign, { send })).rejects.toThrow(
      /Last-Event-ID ".*" is not an event of this session; reconnect without Last-Event-ID/,
    );
    await expect(store.replayEventsAfter('nope', { send })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });

    // Bounded: an old event is trimmed away (approximately: Redis trims whole nodes of 100 entries).
    const first = await store.storeEvent('long', note(0));
    for (let n = 1; n < 250; n += 1) await store.storeEvent('long', note(n));
    // A request stream's events are written behind their send, in order: an awaited command after them on the same node's connection waits for them.
    await a!.loadSession(mine);
    const [streamKey] = await raw.keys(`*:stream:long:${mine}`);
    expect(await raw.xlen(streamKey!)).toBeLessThan(250);
    expect(await raw.xlen(streamKey!)).toBeGreaterThanOrEqual(10);
    await expect(store.replayEventsAfter(first, { send })).rejects.toThrow(/is no longer kept \(a stream keeps its last 10 events/);
  });

  it('answers a priming event without storing it, and replays the whole stream after it', async () => {
    const [a, b] = await nodes.start(2, { sessionStreamMaxLength: 10 });
    const id = randomUUID();
    await a!.saveSession(id, record(), 60_000);
    const store = a!.eventStore(id);
    const priming = await store.storeEvent('request-1', {});
    expect(await raw.keys(`*:stream:request-1:${id}`)).toEqual([]);
    await store.storeEvent('request-1', note(1));
    await store.storeEvent('request-1', note(2));
    await a!.loadSession(id);
    const replayed: JsonRpcMessage[] = [];
    expect(await b!.eventStore(id).replayEventsAfter(priming, { send: async (_, message) => void replayed.push(message) })).toBe(
      'request-1',
    );
    expect(replayed).toEqual([note(1), note(2)]);
    expect(await b!.eventStore(id).getStreamIdForEventId(priming)).toBe('request-1');
    // A stream that outgrew its bound has lost its start.
    const long = await store.storeEvent('request-2', {});
    for (let n = 0; n < 30; n += 1) await store.storeEvent('request-2', note(n));
    await a!.loadSession(id);
    await expect(store.replayEventsAfter(long, { send: async () => {} })).rejects.toThrow(/no longer kept/);
  });

  it('refuses a stream id with a colon', async () => {
    const [a] = await nodes.start(1);
    await expect(a!.eventStore('s').storeEvent('a:b', note(1))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('broadcast', () => {
  it('appends to every live session (or those subscribed to a URI) and every node hears each once', async () => {
    const [a, b] = await nodes.start(2);
    const heardA = new Heard<SessionEvent>();
    const heardB = new Heard<SessionEvent>();
    a!.onSessionEvent(heardA.listener);
    b!.onSessionEvent(heardB.listener);
    const [subscribed, other, gone] = [randomUUID(), randomUUID(), randomUUID()];
    await a!.saveSession(subscribed, record(['doc://x']), 60_000);
    await b!.saveSession(other, record(['doc://y']), 60_000);
    await b!.saveSession(gone, record(['doc://x']), 60_000);
    await a!.deleteSession(gone);

    await a!.broadcast(note(1));
    await b!.broadcast(note(2), { uri: 'doc://x' });
    // Resubscribing elsewhere leaves the old URI's index.
    await a!.saveSession(other, record(['doc://z']), 60_000);
    await b!.broadcast(note(3), { uri: 'doc://y' });
    await b!.broadcast(note(4), { uri: 'doc://nobody' });
    await a!.broadcast(note(5));
    const last = (event: SessionEvent): boolean => (event.message['params'] as { n: number }).n === 5 && event.sessionId === other;
    await Promise.all([heardA.waitFor(last), heardB.waitFor(last)]);

    const summary = (events: SessionEvent[]) =>
      events.map((event) => [event.sessionId, (event.message['params'] as { n: number }).n]).sort();
    const expected = [
      [other, 1],
      [other, 5],
      [subscribed, 1],
      [subscribed, 2],
      [subscribed, 5],
    ].sort();
    expect(summary(heardA.values)).toEqual(expected);
    expect(summary(heardB.values)).toEqual(expected);

    // Each event is in its session's standalone stream: replaying from the first gives the rest.
    const events = heardA.values.filter((event) => event.sessionId === subscribed);
    const replayed: JsonRpcMessage[] = [];
    const stream = await b!
      .eventStore(subscribed)
      .replayEventsAfter(events[0]!.eventId, { send: async (_, message) => void replayed.push(message) });
    expect(stream).toBe(standaloneStreamId);
    expect(replayed).toEqual([note(2), note(5)]);
  });
});

describe('broadcast to one session', () => {
  it('appends to that session alone, and to none once it has ended', async () => {
    const [a, b] = await nodes.start(2);
    const heard = new Heard<SessionEvent>();
    b!.onSessionEvent(heard.listener);
    const [target, bystander, ended] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [target, bystander, ended]) await a!.saveSession(id, record(), 60_000);
    await a!.deleteSession(ended);
    await a!.broadcast(note(1), { sessionId: ended });
    await a!.broadcast(note(2), { sessionId: target });
    await heard.waitFor((event) => event.sessionId === target);
    expect(heard.values.map((event) => [event.sessionId, (event.message['params'] as { n: number }).n])).toEqual([[target, 2]]);
    const replayed: JsonRpcMessage[] = [];
    const first = await b!.eventStore(target).storeEvent(standaloneStreamId, note(0));
    await a!.broadcast(note(3), { sessionId: target });
    await b!.eventStore(target).replayEventsAfter(first, { send: async (_, message) => void replayed.push(message) });
    expect(replayed).toEqual([note(3)]);
  });
});

describe('forward, claim and the change bus', () => {
  it('hands forwarded messages to every node once', async () => {
    const [a, b] = await nodes.start(2);
    const heard = [new Heard<[string, readonly JsonRpcMessage[]]>(), new Heard<[string, readonly JsonRpcMessage[]]>()];
    a!.onForward((id, messages) => heard[0]!.listener([id, messages]));
    b!.onForward((id, messages) => heard[1]!.listener([id, messages]));
    const answer = { jsonrpc: '2.0', id: 7, result: { action: 'accept' } };
    await a!.forward('s1', [answer]);
    await a!.forward('s2', []);
    await Promise.all(heard.map((one) => one.waitFor(([id]) => id === 's2')));
    for (const one of heard)
      expect(one.values).toEqual([
        ['s1', [answer]],
        ['s2', []],
      ]);
  });

  it('grants a claim to exactly one caller of the cluster', async () => {
    const [a, b] = await nodes.start(2);
    const key = randomUUID();
    const results = await Promise.all([a!.claim(key, 60_000), b!.claim(key, 60_000), a!.claim(key, 60_000), b!.claim(key, 60_000)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await a!.claim(randomUUID(), 60_000)).toBe(true);
  });

  it('delivers each published change once to every node, the publisher included', async () => {
    const [a, b] = await nodes.start(2);
    const heardA = new Heard<ChangeEvent>();
    const heardB = new Heard<ChangeEvent>();
    a!.bus.subscribe(() => {
      throw new Error('a listener that fails');
    });
    a!.bus.subscribe(heardA.listener);
    const unsubscribe = b!.bus.subscribe(heardB.listener);
    a!.bus.publish({ kind: 'tools_list_changed' });
    b!.bus.publish({ kind: 'resource_updated', uri: 'doc://x' });
    a!.bus.publish({ kind: 'prompts_list_changed' });
    const last = (event: ChangeEvent): boolean => event.kind === 'prompts_list_changed';
    await Promise.all([heardA.waitFor(last), heardB.waitFor(last)]);
    for (const heard of [heardA, heardB]) {
      expect(heard.values.map((event) => event.kind).sort()).toEqual(['prompts_list_changed', 'resource_updated', 'tools_list_changed']);
    }
    expect(heardB.values.find((event) => event.kind === 'resource_updated')).toEqual({ kind: 'resource_updated', uri: 'doc://x' });
    unsubscribe();
    a!.bus.publish({ kind: 'resources_list_changed' });
    await heardA.waitFor((event) => event.kind === 'resources_list_changed');
    expect(heardB.values).toHaveLength(3);
  });
  it('drops a message it cannot read and goes on', async () => {
    const keyPrefix = `test-${randomUUID()}`;
    const [a] = await nodes.start(1, { keyPrefix });
    const heard = new Heard<SessionEvent>();
    a!.onSessionEvent(heard.listener);
    await raw.publish(`${keyPrefix}:events`, 'not json');
    await raw.publish(`${keyPrefix}:events`, '{"events": 42}');
    await raw.publish(`${keyPrefix}:events`, JSON.stringify({ message: note(1), events: [['s', 'e']] }));
    await heard.waitFor((event) => event.sessionId === 's');
    expect(heard.values).toEqual([{ sessionId: 's', eventId: 'e', message: note(1) }]);
  });
});

describe('takeToken', () => {
  it('shares one bucket per client across the nodes', async () => {
    const [a, b] = await nodes.start(2);
    const limit = { requestsPerMinute: 60, burst: 3 };
    expect([await a!.takeToken('alice', limit), await b!.takeToken('alice', limit), await a!.takeToken('alice', limit)]).toEqual([0, 0, 0]);
    const wait = await b!.takeToken('alice', limit);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    expect(await a!.takeToken('bob', limit)).toBe(0);
    const [bucket] = await raw.keys('*:rate:alice');
    const ttl = await raw.pttl(bucket!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(4000);
  });

  it('refills at the rate', async () => {
    const [a] = await nodes.start(1);
    const limit = { requestsPerMinute: 60_000, burst: 1 };
    expect(await a!.takeToken('fast', limit)).toBe(0);
    // A token a millisecond: the next one is there almost at once.
    await expect.poll(() => a!.takeToken('fast', limit), { interval: 1 }).toBe(0);
  });

  it('refuses a limit without a rate or burst', async () => {
    const [a] = await nodes.start(1);
    await expect(a!.takeToken('x', { requestsPerMinute: 0, burst: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(a!.takeToken('x', { requestsPerMinute: 10, burst: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('close', () => {
  it('closes once, leaves no handle behind, and fails calls afterwards', async () => {
    const before = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap').length;
    const [a] = await nodes.start(1);
    await Promise.all([a!.close(), a!.close()]);
    await a!.close();
    const error = await a!.loadSession('s').catch((caught: unknown) => caught);
    expect(isPromptyardError(error) && error.code).toBe('BACKEND_UNAVAILABLE');
    await expect.poll(() => process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap').length).toBeLessThanOrEqual(before);
  });
});
