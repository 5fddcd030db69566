import type { Logger, SharedMap } from '@promptyard/core';
import type { Connection } from './connection.js';
import type { Keys } from './keys.js';
import { Listeners } from './listeners.js';

/** What a node announces on `channels.maps` after changing a shared map. */
interface MapNotice {
  readonly name: string;
  readonly node: string;
  readonly keys: readonly string[];
}

/**
 * Core's `SharedMap` over Redis: one hash per map (`keys.map(name)`), written with HSET (HSETNX for
 * `onlyIfAbsent`, in one MULTI), each change announced on `channels.maps` so other nodes hear of it.
 */
export const createSharedMaps = (connection: Connection, keys: Keys, nodeId: string, logger: Logger) => {
  const listeners = new Map<string, Listeners<[readonly string[]]>>();
  const listenersOf = (name: string): Listeners<[readonly string[]]> => {
    let found = listeners.get(name);
    if (found === undefined) listeners.set(name, (found = new Listeners(logger, `shared map "${name}"`)));
    return found;
  };
  const announce = async (name: string, changed: readonly string[]): Promise<void> => {
    if (changed.length === 0) return;
    const notice: MapNotice = { name, node: nodeId, keys: changed };
    await connection.run((redis) => redis.publish(keys.channels.maps, JSON.stringify(notice)));
  };

  const sharedMap = (name: string): SharedMap => {
    const key = keys.map(name);
    return {
      getAll: async () => new Map(Object.entries(await connection.run((redis) => redis.hgetall(key)))),
      set: async (entries, options) => {
        if (entries.size === 0) return [];
        let written: string[];
        if (options?.onlyIfAbsent === true) {
          const names = [...entries.keys()];
          const replies = await connection.run(async (redis) => {
            const multi = redis.multi();
            for (const [field, value] of entries) multi.hsetnx(key, field, value);
            return (await multi.exec()) ?? [];
          });
          written = names.filter((_, index) => replies[index]?.[0] === null && replies[index]?.[1] === 1);
        } else {
          await connection.run((redis) => redis.hset(key, Object.fromEntries(entries)));
          written = [...entries.keys()];
        }
        await announce(name, written);
        return written;
      },
      delete: async (fields) => {
        if (fields.length === 0) return;
        await connection.run((redis) => redis.hdel(key, ...fields));
        await announce(name, fields);
      },
      onChange: (listener) => listenersOf(name).add(listener),
    };
  };

  return {
    sharedMap,
    /** Hears `channels.maps`: tells a map's listeners what another node changed. */
    hear: (message: string): void => {
      const notice = JSON.parse(message) as MapNotice;
      if (notice.node !== nodeId) listeners.get(notice.name)?.emit(notice.keys);
    },
    close: (): void => {
      for (const set of listeners.values()) set.clear();
      listeners.clear();
    },
  };
};
