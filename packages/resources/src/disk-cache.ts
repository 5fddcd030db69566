import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomically } from '@promptyard/core';
import { join } from 'node:path';

export interface CacheEntry {
  readonly url: string;
  readonly body: string;
  readonly etag?: string;
  readonly lastModified?: string;
  readonly contentType?: string;
  /** Epoch ms of the last fetch or successful revalidation. */
  readonly fetchedAt: number;
}

export interface DiskCache {
  get(url: string): Promise<CacheEntry | undefined>;
  set(entry: CacheEntry): Promise<void>;
}

/** One JSON file per URL, written atomically, with an in-memory layer in front; survives restarts. */
export const createDiskCache = (dir: string): DiskCache => {
  const memory = new Map<string, CacheEntry>();
  const fileOf = (url: string): string => join(dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`);
  return {
    get: async (url) => {
      const cached = memory.get(url);
      if (cached !== undefined) return cached;
      try {
        const entry = JSON.parse(await readFile(fileOf(url), 'utf8')) as CacheEntry;
        if (entry.url !== url || typeof entry.body !== 'string') return undefined;
        memory.set(url, entry);
        return entry;
      } catch {
        return undefined;
      }
    },
    set: async (entry) => {
      memory.set(entry.url, entry);
      await mkdir(dir, { recursive: true });
      const file = fileOf(entry.url);
      await writeFileAtomically(file, JSON.stringify(entry));
    },
  };
};
