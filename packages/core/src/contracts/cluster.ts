import type { SectionSpec } from '../config/config-fields.js';

/**
 * The cluster contract: the state replicas share so that any of them can serve any request, free of
 * any Redis client. `@promptyard/cluster` implements it over Redis; `@promptyard/mcp` uses it when
 * given one (`[cluster] redis_url`), and without it every node keeps today's in-memory state.
 *
 * Every method that talks to the store rejects with a `PromptyardError('BACKEND_UNAVAILABLE', …)` while the
 * store cannot be reached (status `degraded`), promptly, never hanging: callers fall back to what the
 * node can do on its own.
 */

/** A JSON-RPC message as plain JSON. */
export type JsonRpcMessage = Readonly<Record<string, unknown>>;

/** `connecting` until the first connection, `ready`, or `degraded` while the store is unreachable (it reconnects on its own). */
export type ClusterStatus = 'connecting' | 'ready' | 'degraded';

/** What a node needs to rebuild a 2025-11-25 session it does not hold. */
export interface SessionRecord {
  /** The `initialize` request's params as the client sent them (protocolVersion, capabilities, clientInfo). */
  readonly initialize: Readonly<Record<string, unknown>>;
  /** Who opened it (the token's subject), when the endpoint authenticates. */
  readonly subject?: string | undefined;
  /** The last `logging/setLevel` level. */
  readonly logLevel?: string | undefined;
  /** The resource URIs it subscribed to. */
  readonly subscriptions: readonly string[];
}

/** A change to announce to every client of the cluster; the shape of the SDK's `ServerEvent`. */
export type ChangeEvent =
  | {
      readonly kind: 'tools_list_changed' | 'prompts_list_changed' | 'resources_list_changed';
      readonly params?: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'resource_updated'; readonly uri: string; readonly params?: Readonly<Record<string, unknown>> };

/** The SDK's `EventStore` contract (resumable SSE), structurally. */
export interface SessionEventStore {
  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string>;
  getStreamIdForEventId(eventId: string): Promise<string | undefined>;
  replayEventsAfter(lastEventId: string, options: { send: (eventId: string, message: JsonRpcMessage) => Promise<void> }): Promise<string>;
}

/** The SDK's `ServerEventBus` contract (`subscriptions/listen` across nodes), structurally. */
export interface ChangeBus {
  publish(event: ChangeEvent): void;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/** A notification appended to a session's standalone (GET) stream, as every node hears of it. */
export interface SessionEvent {
  readonly sessionId: string;
  /** The id it was stored under in the session's event store (the SSE event id). */
  readonly eventId: string;
  readonly message: JsonRpcMessage;
}

/** The id the SDK's session transport gives its standalone GET stream. */
export const standaloneStreamId = '_GET_stream';

/**
 * A map of strings every node shares (`Cluster.sharedMap`): what one node writes, the others read,
 * and hear of through the store's pub/sub.
 */
export interface SharedMap {
  /** Every key and its value. */
  getAll(): Promise<Map<string, string>>;
  /**
   * Writes `entries`; with `onlyIfAbsent`, only the keys no node has written yet (so two nodes that
   * write the same key at once agree on the first). Resolves with the keys it wrote.
   */
  set(entries: ReadonlyMap<string, string>, options?: { readonly onlyIfAbsent?: boolean }): Promise<readonly string[]>;
  delete(keys: readonly string[]): Promise<void>;
  /** Called with the keys another node set or deleted (not this node's own changes); returns an unsubscribe function. */
  onChange(listener: (keys: readonly string[]) => void): () => void;
}

export interface Cluster {
  /** This node's id (random per process): names it in logs and routing. */
  readonly nodeId: string;
  status(): ClusterStatus;
  /** Called on every status change; returns an unsubscribe function. */
  onStatus(listener: (status: ClusterStatus) => void): () => void;

  /** Stores (or replaces) a session's record, living `ttlMs` unless touched. */
  saveSession(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /** The record, or `undefined` when there is none (expired, deleted, never existed). */
  loadSession(id: string): Promise<SessionRecord | undefined>;
  /** Extends the record's life (and its event streams') by `ttlMs` from now. */
  touchSession(id: string, ttlMs: number): Promise<void>;
  /** Deletes the record and its event streams and tells every node (`onSessionClosed`). */
  deleteSession(id: string): Promise<void>;
  onSessionClosed(listener: (id: string) => void): () => void;

  /** The event store of one session's SSE streams (bounded length, the session's TTL). */
  eventStore(sessionId: string): SessionEventStore;
  /**
   * Appends `message` to the standalone stream of every live session — or, with `uri`, of every
   * session whose record subscribes to it; with `sessionId`, of that session only — and tells every
   * node (`onSessionEvent`), so that the node holding a session's GET stream sends it.
   */
  broadcast(message: JsonRpcMessage, options?: { readonly uri?: string; readonly sessionId?: string }): Promise<void>;
  onSessionEvent(listener: (event: SessionEvent) => void): () => void;

  /** Messages for a session (a client's answers to server→client requests) handed to every node. */
  forward(sessionId: string, messages: readonly JsonRpcMessage[]): Promise<void>;
  onForward(listener: (sessionId: string, messages: readonly JsonRpcMessage[]) => void): () => void;

  /**
   * Sends `request` to node `nodeId`'s `onAsk` handler and resolves with its answer (a 2026-07-28
   * retry continuing a call that node holds). Rejects with `BACKEND_UNAVAILABLE` when no node of that
   * id answers within `timeoutMs` (it died, or the store is unreachable).
   */
  ask(nodeId: string, request: JsonRpcMessage, timeoutMs: number): Promise<JsonRpcMessage>;
  /** Answers what other nodes `ask` this one; one handler per node (a later one replaces it). */
  onAsk(handler: (request: JsonRpcMessage) => Promise<JsonRpcMessage>): () => void;
  /**
   * A random 32-byte key named `name`, the same on every node (made by the first that asks, kept as
   * long as the store): for what one node signs and another verifies (`requestState`).
   */
  sharedSecret(name: string): Promise<Uint8Array>;

  /** `true` for the one caller (cluster-wide) that first claims `key` within `ttlMs`. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** A `ServerEventBus` for `createMcpHandler` over the store's pub/sub; local delivery only while degraded. */
  readonly bus: ChangeBus;

  /**
   * A token bucket per client shared by the cluster (`burst` at once, refilled at
   * `requestsPerMinute`): 0 when allowed, else the seconds to wait.
   */
  takeToken(client: string, limit: { readonly requestsPerMinute: number; readonly burst: number }): Promise<number>;

  /** The shared map `name` (kept as long as the store keeps its data), the same on every node. */
  sharedMap(name: string): SharedMap;

  close(): Promise<void>;
}

/** `[cluster]` of both binaries. */
export const clusterSection = {
  redis_url: {
    type: 'string',
    doc: 'redis:// or rediss:// URL of the Redis that replicas behind one load balancer share: 2025 sessions, resumable SSE, change notifications, rate limits (PROMPTYARD_CLUSTER_REDIS_URL). Unset: one node, in memory.',
  },
  key_prefix: {
    type: 'string',
    default: 'promptyard',
    doc: 'Prefix of every key and channel, so several clusters can share one Redis (PROMPTYARD_CLUSTER_KEY_PREFIX).',
  },
} as const satisfies SectionSpec;
