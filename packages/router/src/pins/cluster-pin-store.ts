import { describeError, PromptyardError } from '@promptyard/core';
import type { Cluster } from '@promptyard/core';
import { checkEntry, pinKey, unreadableAdvice } from './pin-store.js';
import type { PinStore } from './pin-store.js';
import type { PinEntry } from './pin-types.js';

/**
 * Pins in the cluster's shared map `pins` (with `[cluster]`), so every replica reviews against the
 * same pins: one JSON entry per server, kind and name; first-sight pins are written only where no
 * replica wrote one yet, and a change one replica (or `pins approve`) makes reaches the others
 * (and a replica that lost Redis for a while reads them again when it is back).
 */
export const createClusterPinStore = (cluster: Cluster): PinStore => {
  const map = cluster.sharedMap('pins');
  const where = 'the cluster Redis (shared map "pins")';
  const unsubscribes = new Set<() => void>();
  return {
    where,
    load: async () => {
      const entries: PinEntry[] = [];
      for (const [key, value] of await map.getAll()) {
        try {
          entries.push(checkEntry(JSON.parse(value), `the entry ${key}`));
        } catch (error) {
          throw new PromptyardError(
            'CONFIG_INVALID',
            `the pins in ${where} cannot be read (${describeError(error)}): ${unreadableAdvice}`,
            {
              cause: error,
            },
          );
        }
      }
      return entries;
    },
    write: async (entries, options) => {
      const values = new Map(entries.map((entry) => [pinKey(entry), JSON.stringify(entry)]));
      const written = await map.set(values, options?.onlyIfAbsent === true ? { onlyIfAbsent: true } : {});
      return written.length === values.size;
    },
    remove: (entries) => map.delete(entries.map(pinKey)),
    clear: async () => {
      await map.delete([...(await map.getAll()).keys()]);
    },
    watch: (listener) => {
      const changes = map.onChange(() => listener());
      // Changes made while this node could not hear them: read the pins again once it hears again.
      const reconnects = cluster.onStatus((status) => {
        if (status === 'ready') listener();
      });
      const unsubscribe = (): void => {
        changes();
        reconnects();
      };
      unsubscribes.add(unsubscribe);
      return () => {
        unsubscribes.delete(unsubscribe);
        unsubscribe();
      };
    },
    close: async () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      unsubscribes.clear();
    },
  };
};
