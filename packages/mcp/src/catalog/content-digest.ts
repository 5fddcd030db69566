import { createHash } from 'node:crypto';
import type { Catalog, Named } from '@promptyard/core';

/**
 * A digest of everything a catalog serves — each entry's listing and, through `content`, what it
 * renders — that replicas loading the same files agree on, whenever each of them started. It is the
 * XOR of one hash per entry, so a change costs the changed entries only: the first `value()` hashes
 * them all, later ones follow the catalog's changes.
 */
export interface ContentDigest {
  value(): string;
  close(): void;
}

const size = 20;

export const createContentDigest = <T extends Named>(catalog: Catalog<T>, content: (entry: T) => string): ContentDigest => {
  let hashes: Map<string, Buffer> | undefined;
  const sum = Buffer.alloc(size);
  const toggle = (hash: Buffer): void => {
    for (let index = 0; index < size; index += 1) sum[index] = (sum[index] as number) ^ (hash[index] as number);
  };
  const hashOf = (entry: T): Buffer => createHash('sha1').update(entry.name).update('\0').update(content(entry)).digest();
  const put = (name: string): void => {
    const known = hashes?.get(name);
    if (known !== undefined) toggle(known);
    const entry = catalog.get(name);
    if (entry === undefined) {
      hashes?.delete(name);
      return;
    }
    const hash = hashOf(entry);
    hashes?.set(name, hash);
    toggle(hash);
  };
  let stop: (() => void) | undefined;
  return {
    value: () => {
      if (hashes === undefined) {
        hashes = new Map();
        for (const name of catalog.names()) put(name);
        stop = catalog.onChange((change) => {
          for (const name of change.names) put(name);
        });
      }
      return sum.toString('base64url');
    },
    close: () => stop?.(),
  };
};
