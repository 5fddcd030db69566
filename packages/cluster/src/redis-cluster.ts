import { randomUUID } from 'node:crypto';
import { PromptyardError } from '@promptyard/core';
import type { ChangeEvent, Cluster, ClusterStatus, JsonRpcMessage, Logger, SessionEvent } from '@promptyard/core';
import { Connection, redactUrl } from './connection.js';
import { createAsks } from './asks.js';
import { appendToSessions, createEventStore, sessionEventsOf } from './event-store.js';
import type { BroadcastNotice } from './event-store.js';
import { createKeys } from './keys.js';
import type { Keys } from './keys.js';
import { Listeners } from './listeners.js';
import { createSessions } from './sessions.js';
import { createSharedMaps } from './shared-maps.js';

export interface RedisClusterOptions {
  /** `redis://` or `rediss://` URL (`[cluster] redis_url`). */
  readonly url: string;
  /** Prefix of every key and channel (`[cluster] key_prefix`); `promptyard` by default. */
  readonly keyPrefix?: string | undefined;
  readonly logger: Logger;
  /** This node's id; random by default. */
  readonly nodeId?: string | undefined;
  /** Entries a session's stream keeps (approximately, at least this many); 1000 by default. */
  readonly sessionStreamMaxLength?: number | undefined;
  /** How long one command may take before the call fails; 1000 ms by default. */
  readonly commandTimeoutMs?: number | undefined;
}

const checkUrl = (url: string): void => {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `[cluster] redis_url must be a redis:// or rediss:// URL (for example redis://127.0.0.1:6379), got ${JSON.stringify(redactUrl(url))}`,
    );
  }
};

/** Publishes a change to every node; this node hears it directly whenever it cannot hear it through Redis. */
const publishChange = (connection: Connection, keys: Keys, changes: Listeners<[ChangeEvent]>, event: ChangeEvent): void => {
  const local = (): void => queueMicrotask(() => changes.emit(event));
  // No other node can hear it: this one still must.
  if (!connection.writable) return local();
  // Published but not subscribed: the others hear it through Redis, this node directly.
  if (!connection.subscribed) local();
  connection.redis.publish(keys.channels.changes, JSON.stringify(event)).catch(() => {
    if (connection.subscribed) local();
  });
};

/** Appends a message to one session's stream, or to every live session's (or those reading a URI), and tells the nodes. */
const broadcast = async (
  connection: Connection,
  keys: Keys,
  streams: { readonly maxLength: number },
  message: JsonRpcMessage,
  broadcastOptions: { readonly uri?: string; readonly sessionId?: string } | undefined,
): Promise<void> => {
  const target =
    broadcastOptions?.sessionId !== undefined
      ? { sessionId: broadcastOptions.sessionId }
      : { index: broadcastOptions?.uri === undefined ? keys.live : keys.uri(broadcastOptions.uri) };
  const notice = await appendToSessions(connection, keys, target, message, streams);
  if (notice !== undefined) await connection.run((redis) => redis.publish(keys.channels.events, JSON.stringify(notice)));
};

/** A token from `client`'s shared bucket (`burst` at once, refilled at `requestsPerMinute`): 0 when allowed, else the seconds to wait. */
const takeToken = async (
  connection: Connection,
  keys: Keys,
  client: string,
  limit: { readonly requestsPerMinute: number; readonly burst: number },
): Promise<number> => {
  const { requestsPerMinute, burst } = limit;
  if (!Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0 || !Number.isFinite(burst) || burst < 1) {
    throw new PromptyardError(
      'INVALID_ARGUMENT',
      `a rate limit needs requests_per_minute > 0 and burst >= 1, got ${requestsPerMinute} and ${burst}`,
    );
  }
  return connection.run((redis) => redis.promptyardTakeToken(keys.rate(client), String(requestsPerMinute / 60_000), burst));
};

/**
 * Core's `Cluster` over one Redis: returns at once (status `connecting`) and connects in the
 * background; `waitForCluster` waits for it. See the package README for the keys and what happens
 * while Redis is down.
 */
export const createRedisCluster = (options: RedisClusterOptions): Cluster => {
  checkUrl(options.url);
  const logger = options.logger.child('cluster');
  const nodeId = options.nodeId ?? randomUUID();
  const keys = createKeys(options.keyPrefix ?? 'promptyard');
  const streams = { maxLength: Math.max(1, Math.floor(options.sessionStreamMaxLength ?? 1000)) };

  const changes = new Listeners<[ChangeEvent]>(logger, 'change event');
  const sessionEvents = new Listeners<[SessionEvent]>(logger, 'session event');
  const forwards = new Listeners<[string, readonly JsonRpcMessage[]]>(logger, 'forwarded message');
  const closedSessions = new Listeners<[string]>(logger, 'session closed');
  /** Hands a channel's JSON message to `hear` (the connection drops one that cannot be read, with a warning). */
  const json =
    <T>(hear: (value: T) => void) =>
    (message: string): void =>
      hear(JSON.parse(message) as T);
  const channels = new Map<string, (message: string) => void>([
    [keys.channels.changes, json<ChangeEvent>((event) => changes.emit(event))],
    [keys.channels.events, json<BroadcastNotice>((notice) => sessionEventsOf(notice).forEach((event) => sessionEvents.emit(event)))],
    [
      keys.channels.forward,
      json<{ sessionId: string; messages: JsonRpcMessage[] }>(({ sessionId, messages }) => forwards.emit(sessionId, messages)),
    ],
    [keys.channels.closed, (id) => closedSessions.emit(id)],
  ]);
  // This node's own channels for node-to-node questions (heard only once connected, after `questions` is made).
  channels.set(keys.channels.asks(nodeId), (message) => questions.hearQuestion(message));
  channels.set(keys.channels.answers(nodeId), (message) => questions.hearAnswer(message));
  channels.set(keys.channels.maps, (message) => maps.hear(message));
  const connection = new Connection({ url: options.url, logger, nodeId, commandTimeoutMs: options.commandTimeoutMs ?? 1000, channels });
  const sessions = createSessions(connection, keys, logger);
  const questions = createAsks(connection, keys, nodeId, logger);
  const maps = createSharedMaps(connection, keys, nodeId, logger);

  return {
    nodeId,
    status: () => connection.status(),
    onStatus: (listener) => connection.statusListeners.add(listener),

    saveSession: sessions.save,
    loadSession: sessions.load,
    touchSession: sessions.touch,
    deleteSession: sessions.delete,
    onSessionClosed: (listener) => closedSessions.add(listener),

    eventStore: (sessionId) => createEventStore(connection, keys, sessionId, streams),
    broadcast: (message, broadcastOptions) => broadcast(connection, keys, streams, message, broadcastOptions),
    onSessionEvent: (listener) => sessionEvents.add(listener),

    forward: async (sessionId, messages) => {
      await connection.run((redis) => redis.publish(keys.channels.forward, JSON.stringify({ sessionId, messages })));
    },
    onForward: (listener) => forwards.add(listener),

    ask: questions.ask,
    onAsk: questions.onAsk,
    sharedSecret: questions.sharedSecret,

    claim: async (key, ttlMs) => {
      const ttl = Math.max(1, Math.ceil(ttlMs));
      return (await connection.run((redis) => redis.set(keys.claim(key), nodeId, 'PX', ttl, 'NX'))) === 'OK';
    },
    bus: {
      publish: (event) => publishChange(connection, keys, changes, event),
      subscribe: (listener) => changes.add(listener),
    },

    takeToken: (client, limit) => takeToken(connection, keys, client, limit),
    sharedMap: maps.sharedMap,

    close: async () => {
      questions.close();
      maps.close();
      await connection.close();
      for (const listeners of [changes, sessionEvents, forwards, closedSessions]) listeners.clear();
    },
  };
};

/** Resolves with the cluster's status once it is `ready`, or with whatever it is after `timeoutMs`. */
export const waitForCluster = (cluster: Cluster, timeoutMs: number): Promise<ClusterStatus> => {
  if (cluster.status() === 'ready') return Promise.resolve('ready');
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      unsubscribe();
      resolve(cluster.status());
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = cluster.onStatus((status) => {
      if (status === 'ready') done();
    });
  });
};

/**
 * What both binaries do with `[cluster] redis_url`: create the cluster and wait briefly (`waitMs`,
 * 2 s by default) for Redis before serving. A node that cannot reach it yet serves on its own,
 * degraded, says so once, and keeps reconnecting.
 */
export const joinCluster = async (options: RedisClusterOptions & { readonly waitMs?: number }): Promise<Cluster> => {
  const cluster = createRedisCluster(options);
  if ((await waitForCluster(cluster, options.waitMs ?? 2000)) !== 'ready')
    options.logger.warn('serving on this node alone until the cluster Redis answers ([cluster] redis_url)');
  return cluster;
};
