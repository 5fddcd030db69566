/**
 * Every key and channel of one cluster, all under `<prefix>:`. A stream key puts the stream id (a
 * UUID or `_GET_stream`, never a colon) before the session id, so no session id can reach another
 * session's keys.
 */
export interface Keys {
  readonly prefix: string;
  /** The session's record (JSON, with the session's TTL). */
  session(id: string): string;
  /** The stream ids a session has written, so touching and deleting find its streams. */
  streams(id: string): string;
  /** One SSE stream of one session. */
  stream(sessionId: string, streamId: string): string;
  /** Sorted set of live session ids, scored by expiry (ms). */
  readonly live: string;
  /** Sorted set of the sessions subscribed to `uri`, scored by expiry (ms). */
  uri(uri: string): string;
  claim(key: string): string;
  rate(client: string): string;
  /** A key every node shares (`sharedSecret`), kept as long as Redis keeps its data. */
  secret(name: string): string;
  /** A shared map (`sharedMap`): one Redis hash, kept as long as Redis keeps its data. */
  map(name: string): string;
  readonly channels: {
    /** Which keys of which shared map a node changed. */
    readonly maps: string;
    readonly changes: string;
    readonly events: string;
    readonly forward: string;
    readonly closed: string;
    /** Questions to one node (`ask`), and the answers it gets. */
    asks(nodeId: string): string;
    answers(nodeId: string): string;
  };
}

export const createKeys = (prefix: string): Keys => ({
  prefix,
  session: (id) => `${prefix}:session:${id}`,
  streams: (id) => `${prefix}:streams:${id}`,
  stream: (sessionId, streamId) => `${prefix}:stream:${streamId}:${sessionId}`,
  live: `${prefix}:sessions`,
  uri: (uri) => `${prefix}:uri:${uri}`,
  claim: (key) => `${prefix}:claim:${key}`,
  rate: (client) => `${prefix}:rate:${client}`,
  secret: (name) => `${prefix}:secret:${name}`,
  map: (name) => `${prefix}:map:${name}`,
  channels: {
    maps: `${prefix}:maps`,
    changes: `${prefix}:changes`,
    events: `${prefix}:events`,
    forward: `${prefix}:forward`,
    closed: `${prefix}:closed`,
    asks: (nodeId) => `${prefix}:ask:${nodeId}`,
    answers: (nodeId) => `${prefix}:answer:${nodeId}`,
  },
});
