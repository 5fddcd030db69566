import type { ChainableCommander, Redis } from 'ioredis';

/**
 * The Lua scripts that keep each change atomic and one round trip. They read the clock with Redis
 * `TIME`, so nodes with skewed clocks still agree on expiry and refill. ioredis sends them with
 * EVALSHA (`defineCommand`) and loads them again after a Redis restart. Keys a script derives from
 * a record (the URI indexes, the streams of a session) follow `keys.ts`; this is one Redis, not a
 * Redis Cluster.
 */
const prelude = `
if redis.replicate_commands then redis.replicate_commands() end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function subscriptions(json)
  if not json then return {} end
  local ok, record = pcall(cjson.decode, json)
  if ok and type(record) == 'table' and type(record.subscriptions) == 'table' then return record.subscriptions end
  return {}
end
local function index(key, id, expiry, now, ttl)
  redis.call('ZADD', key, expiry, id)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
local function stream_key(prefix, id, stream) return prefix .. ':stream:' .. stream .. ':' .. id end
local function extend_streams(prefix, id, streams, ttl)
  for _, stream in ipairs(redis.call('SMEMBERS', streams)) do
    redis.call('PEXPIRE', stream_key(prefix, id, stream), ttl)
  end
  redis.call('PEXPIRE', streams, ttl)
end
`;

/** KEYS: record, live, streams. ARGV: prefix, id, json, ttl, uri… */
const save = `${prelude}
local prefix, id, ttl = ARGV[1], ARGV[2], tonumber(ARGV[4])
local now = now_ms()
for _, uri in ipairs(subscriptions(redis.call('GET', KEYS[1]))) do
  if type(uri) == 'string' then redis.call('ZREM', prefix .. ':uri:' .. uri, id) end
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ttl)
index(KEYS[2], id, now + ttl, now, ttl)
for i = 5, #ARGV do index(prefix .. ':uri:' .. ARGV[i], id, now + ttl, now, ttl) end
extend_streams(prefix, id, KEYS[3], ttl)
return 1
`;

/** KEYS: record, live, streams. ARGV: prefix, id, ttl. 0 when there is no record. */
const touch = `${prelude}
local prefix, id, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local now = now_ms()
redis.call('PEXPIRE', KEYS[1], ttl)
index(KEYS[2], id, now + ttl, now, ttl)
for _, uri in ipairs(subscriptions(json)) do
  if type(uri) == 'string' then index(prefix .. ':uri:' .. uri, id, now + ttl, now, ttl) end
end
extend_streams(prefix, id, KEYS[3], ttl)
return 1
`;

/** KEYS: record, live, streams. ARGV: prefix, id, channel. Publishes the id on `channel`. */
const remove = `${prelude}
local prefix, id = ARGV[1], ARGV[2]
for _, uri in ipairs(subscriptions(redis.call('GET', KEYS[1]))) do
  if type(uri) == 'string' then redis.call('ZREM', prefix .. ':uri:' .. uri, id) end
end
for _, stream in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  redis.call('DEL', stream_key(prefix, id, stream))
end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[2], id)
redis.call('PUBLISH', ARGV[3], id)
return 1
`;

/**
 * KEYS: record, streams, stream. ARGV: stream id, max length, message, TTL without a record,
 * '1' to store nothing (nil) when there is no record, the entry id ('*': Redis picks). The entry id.
 */
const store = `${prelude}
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then
  if ARGV[5] == '1' then return false end
  ttl = tonumber(ARGV[4])
end
local entry = redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], ARGV[6] or '*', 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('SADD', KEYS[2], ARGV[1])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return entry
`;

/** KEYS: an expiry-scored index. The members not expired, after dropping the others. */
const live = `${prelude}
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
`;

/**
 * KEYS: the client's bucket. ARGV: tokens per ms, burst. 0 when a token was taken, else the seconds
 * to wait (at least 1). The bucket expires once it would be full again.
 */
const takeToken = `${prelude}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local per_ms, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if bucket[1] and bucket[2] then
  tokens = math.min(burst, tonumber(bucket[1]) + math.max(0, now - tonumber(bucket[2])) * per_ms)
end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) / per_ms / 1000))
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.3f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / per_ms) + 1000)
return wait
`;

interface ScriptCommands {
  promptyardSave(
    record: string,
    live: string,
    streams: string,
    prefix: string,
    id: string,
    json: string,
    ttl: number,
    ...uris: string[]
  ): Promise<number>;
  promptyardTouch(record: string, live: string, streams: string, prefix: string, id: string, ttl: number): Promise<number>;
  promptyardDelete(record: string, live: string, streams: string, prefix: string, id: string, channel: string): Promise<number>;
  promptyardStore(
    record: string,
    streams: string,
    stream: string,
    streamId: string,
    maxLength: number,
    json: string,
    ttl: number,
    needsRecord: '0' | '1',
    entry?: string,
  ): Promise<string | null>;
  promptyardLive(index: string): Promise<string[]>;
  promptyardTakeToken(bucket: string, perMs: string, burst: number): Promise<number>;
  pipeline(): ScriptPipeline;
}

/** A pipeline of `promptyardStore` calls. */
interface ScriptPipeline extends ChainableCommander {
  promptyardStore(
    record: string,
    streams: string,
    stream: string,
    streamId: string,
    maxLength: number,
    json: string,
    ttl: number,
    needsRecord: '0' | '1',
    entry?: string,
  ): ScriptPipeline;
}

export type ScriptedRedis = Omit<Redis, 'pipeline'> & ScriptCommands;

/** Defines the scripts on `redis` as commands. */
export const defineScripts = (redis: Redis): ScriptedRedis => {
  const scripts: Record<string, { readonly lua: string; readonly numberOfKeys: number }> = {
    promptyardSave: { lua: save, numberOfKeys: 3 },
    promptyardTouch: { lua: touch, numberOfKeys: 3 },
    promptyardDelete: { lua: remove, numberOfKeys: 3 },
    promptyardStore: { lua: store, numberOfKeys: 3 },
    promptyardLive: { lua: live, numberOfKeys: 1 },
    promptyardTakeToken: { lua: takeToken, numberOfKeys: 1 },
  };
  for (const [name, definition] of Object.entries(scripts)) redis.defineCommand(name, definition);
  return redis as unknown as ScriptedRedis;
};
