import { PromptyardError } from '@promptyard/core';
import type { Logger, SessionRecord } from '@promptyard/core';
import type { Connection } from './connection.js';
import type { Keys } from './keys.js';

/** A TTL Redis accepts: whole milliseconds, at least one. */
const validTtl = (ttlMs: number): number => {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new PromptyardError('INVALID_ARGUMENT', `a session's TTL must be a positive number of milliseconds, got ${ttlMs}`);
  return Math.ceil(ttlMs);
};

/** The record as stored, or `undefined` when it is not one (written by something else). */
const parseRecord = (json: string): SessionRecord | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { initialize, subject, logLevel, subscriptions } = value as Record<string, unknown>;
  if (typeof initialize !== 'object' || initialize === null || Array.isArray(initialize)) return undefined;
  if (!Array.isArray(subscriptions) || !subscriptions.every((uri) => typeof uri === 'string')) return undefined;
  return {
    initialize: initialize as Record<string, unknown>,
    subscriptions: subscriptions as string[],
    ...(typeof subject === 'string' ? { subject } : {}),
    ...(typeof logLevel === 'string' ? { logLevel } : {}),
  };
};

export interface Sessions {
  save(id: string, record: SessionRecord, ttlMs: number): Promise<void>;
  load(id: string): Promise<SessionRecord | undefined>;
  touch(id: string, ttlMs: number): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * Session records, the index of live sessions and the index of sessions per subscribed URI, kept
 * in step by one script per change (the record's TTL is the indexes' score, so an expired session
 * drops out of both the next time either is written or read).
 */
export const createSessions = (connection: Connection, keys: Keys, logger: Logger): Sessions => ({
  save: async (id, record, ttlMs) => {
    const ttl = validTtl(ttlMs);
    const json = JSON.stringify({
      initialize: record.initialize,
      subject: record.subject,
      logLevel: record.logLevel,
      subscriptions: record.subscriptions,
    });
    const uris = [...new Set(record.subscriptions)];
    await connection.run((redis) =>
      redis.promptyardSave(keys.session(id), keys.live, keys.streams(id), keys.prefix, id, json, ttl, ...uris),
    );
  },
  load: async (id) => {
    const json = await connection.run((redis) => redis.get(keys.session(id)));
    if (json === null) return undefined;
    const record = parseRecord(json);
    if (record === undefined)
      logger.warn('a session record in the shared Redis is not one this version reads; treating the session as unknown', { session: id });
    return record;
  },
  touch: async (id, ttlMs) => {
    const ttl = validTtl(ttlMs);
    await connection.run((redis) => redis.promptyardTouch(keys.session(id), keys.live, keys.streams(id), keys.prefix, id, ttl));
  },
  delete: async (id) => {
    await connection.run((redis) =>
      redis.promptyardDelete(keys.session(id), keys.live, keys.streams(id), keys.prefix, id, keys.channels.closed),
    );
  },
});
