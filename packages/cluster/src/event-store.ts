import { createHash } from 'node:crypto';
import { PromptyardError, standaloneStreamId } from '@promptyard/core';
import type { JsonRpcMessage, SessionEvent, SessionEventStore } from '@promptyard/core';
import type { Connection } from './connection.js';
import type { Keys } from './keys.js';

/** How long a stream lives when its session has no record (never saved, or expired meanwhile). */
const orphanStreamTtlMs = 60 * 60 * 1000;

export interface StreamOptions {
  readonly maxLength: number;
}

/**
 * An event id is `<streamId>|<entryId>|<tag>`: the stream it belongs to, the Redis Streams entry,
 * and a tag of the session (a digest of its id), so an id from one session never replays another's
 * stream — broadcasts give different sessions the same entry ids.
 */
const sessionTag = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url').slice(0, 12);

const formatEventId = (streamId: string, entry: string, tag: string): string => `${streamId}|${entry}|${tag}`;

const parseEventId = (eventId: string, tag: string): { readonly streamId: string; readonly entry: string } | undefined => {
  const parts = eventId.split('|');
  if (parts.length < 3 || parts.pop() !== tag) return undefined;
  const entry = parts.pop() as string;
  const streamId = parts.join('|');
  if (!/^\d+-\d+$/.test(entry) || !validStreamId(streamId)) return undefined;
  return { streamId, entry };
};

const validStreamId = (streamId: string): boolean => streamId !== '' && !streamId.includes(':');

/** The message of an entry's fields (`m`), as stored. */
const entryMessage = (fields: readonly string[]): JsonRpcMessage => {
  const at = fields.indexOf('m');
  return JSON.parse(fields[at + 1] ?? 'null') as JsonRpcMessage;
};

/**
 * The entry id of a stream's priming event (the SDK's empty first event, sent so that a client can
 * resume a stream before any message): not stored — replaying after it replays the whole stream.
 */
const streamStart = '0-0';

let lastMs = 0;
let sequence = 0;
/** An entry id greater than every one this process made before (Redis requires them increasing per stream). */
const nextEntryId = (): string => {
  lastMs = Math.max(lastMs, Date.now());
  sequence += 1;
  return `${lastMs}-${sequence}`;
};

const shown = (eventId: string): string => JSON.stringify(eventId.length > 80 ? `${eventId.slice(0, 80)}…` : eventId);

/** One session's SSE streams over Redis Streams: bounded to `maxLength` entries, living as long as the session. */
export const createEventStore = (connection: Connection, keys: Keys, sessionId: string, options: StreamOptions): SessionEventStore => {
  const tag = sessionTag(sessionId);
  return {
    storeEvent: async (streamId, message) => {
      if (!validStreamId(streamId))
        throw new PromptyardError('INVALID_ARGUMENT', `a stream id must be non-empty and free of ":", got ${JSON.stringify(streamId)}`);
      // A request's priming event is not stored at all.
      if (Object.keys(message).length === 0) return formatEventId(streamId, streamStart, tag);
      const json = JSON.stringify(message);
      if (streamId !== standaloneStreamId) {
        // A request's stream is written by the one node serving the request: its entry ids are this
        // process's (increasing), so the event is sent without waiting for Redis — the store is
        // written behind it, in order, on the same connection.
        if (!connection.writable) throw connection.unavailable();
        const entry = nextEntryId();
        connection
          .run((redis) =>
            redis.promptyardStore(
              keys.session(sessionId),
              keys.streams(sessionId),
              keys.stream(sessionId, streamId),
              streamId,
              options.maxLength,
              json,
              orphanStreamTtlMs,
              '0',
              entry,
            ),
          )
          .catch(() => {});
        return formatEventId(streamId, entry, tag);
      }
      const entry = await connection.run((redis) =>
        redis.promptyardStore(
          keys.session(sessionId),
          keys.streams(sessionId),
          keys.stream(sessionId, streamId),
          streamId,
          options.maxLength,
          json,
          orphanStreamTtlMs,
          '0',
        ),
      );
      if (entry === null) throw connection.unavailable(new Error('the event was not stored'));
      return formatEventId(streamId, entry, tag);
    },
    getStreamIdForEventId: async (eventId) => parseEventId(eventId, tag)?.streamId,
    replayEventsAfter: async (lastEventId, { send }) => {
      const parsed = parseEventId(lastEventId, tag);
      if (parsed === undefined) {
        throw new PromptyardError(
          'INVALID_REQUEST',
          `Last-Event-ID ${shown(lastEventId)} is not an event of this session; reconnect without Last-Event-ID to open a new stream`,
        );
      }
      const stream = keys.stream(sessionId, parsed.streamId);
      if (parsed.entry === streamStart) {
        // After the priming event: the whole stream, unless it grew past its bound (then its start is gone).
        const entries = await connection.run((redis) => redis.xrange(stream, '-', '+'));
        if (entries.length >= options.maxLength) {
          throw new PromptyardError(
            'INVALID_REQUEST',
            `Last-Event-ID ${shown(lastEventId)} is no longer kept (a stream keeps its last ${options.maxLength} events); reconnect without Last-Event-ID to open a new stream`,
          );
        }
        for (const [entry, fields] of entries) await send(formatEventId(parsed.streamId, entry, tag), entryMessage(fields));
        return parsed.streamId;
      }
      // From the last event itself, to tell a known event from one already trimmed away (or never stored).
      const entries = await connection.run((redis) => redis.xrange(stream, parsed.entry, '+'));
      if (entries[0]?.[0] !== parsed.entry) {
        throw new PromptyardError(
          'INVALID_REQUEST',
          `Last-Event-ID ${shown(lastEventId)} is no longer kept (a stream keeps its last ${options.maxLength} events while its session lives); reconnect without Last-Event-ID to open a new stream`,
        );
      }
      for (const [entry, fields] of entries.slice(1)) await send(formatEventId(parsed.streamId, entry, tag), entryMessage(fields));
      return parsed.streamId;
    },
  };
};

/** What a broadcast publishes: the message once, and where each session stored it. */
export interface BroadcastNotice {
  readonly message: JsonRpcMessage;
  readonly events: readonly (readonly [sessionId: string, eventId: string])[];
}

/**
 * Appends `message` to the standalone stream of every session in `index` (the live sessions, or
 * those subscribed to one URI) in one pipeline; the notice to publish, or `undefined` when no
 * session was there.
 */
export const appendToSessions = async (
  connection: Connection,
  keys: Keys,
  target: { readonly index: string } | { readonly sessionId: string },
  message: JsonRpcMessage,
  options: StreamOptions,
): Promise<BroadcastNotice | undefined> => {
  const json = JSON.stringify(message);
  return connection.run(async (redis) => {
    const ids = 'sessionId' in target ? [target.sessionId] : await redis.promptyardLive(target.index);
    if (ids.length === 0) return undefined;
    const pipeline = redis.pipeline();
    for (const id of ids) {
      pipeline.promptyardStore(
        keys.session(id),
        keys.streams(id),
        keys.stream(id, standaloneStreamId),
        standaloneStreamId,
        options.maxLength,
        json,
        orphanStreamTtlMs,
        '1',
      );
    }
    const results = (await pipeline.exec()) ?? [];
    const events: (readonly [string, string])[] = [];
    results.forEach(([error, entry], i) => {
      if (error !== null) throw error;
      // null: the session ended between listing and appending.
      if (typeof entry === 'string')
        events.push([ids[i] as string, formatEventId(standaloneStreamId, entry, sessionTag(ids[i] as string))]);
    });
    return events.length === 0 ? undefined : { message, events };
  });
};

/** The session events of a published notice. */
export const sessionEventsOf = (notice: BroadcastNotice): SessionEvent[] =>
  notice.events.map(([sessionId, eventId]) => ({ sessionId, eventId, message: notice.message }));
