/**
 * `<repo>.git/promptyard-fetched.json`: what each ref resolved to when it was last fetched, and when,
 * so that a start without network serves the last fetched commit. Written whole (temp + rename),
 * under a lock file shared with the other processes using the cache.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '@promptyard/core';
import path from 'node:path';
import type { RefKind } from '../types.js';
import { withFileLock } from './file-lock.js';

export interface FetchedEntry {
  readonly commit: string;
  readonly kind: RefKind;
  readonly fetchedAt: string;
}

const fileName = 'promptyard-fetched.json';

const isEntry = (value: unknown): value is FetchedEntry => {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.commit === 'string' &&
    (entry.kind === 'branch' || entry.kind === 'tag' || entry.kind === 'commit') &&
    typeof entry.fetchedAt === 'string' &&
    !Number.isNaN(Date.parse(entry.fetchedAt))
  );
};

/** Every entry of the record; an absent or unreadable file is an empty record (the cache is only a cache). */
export const readFetched = async (gitDir: string): Promise<Map<string, FetchedEntry>> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path.join(gitDir, fileName), 'utf8'));
  } catch {
    return new Map();
  }
  const entries = new Map<string, FetchedEntry>();
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [ref, entry] of Object.entries(parsed)) if (isEntry(entry)) entries.set(ref, entry);
  }
  return entries;
};

/** Records `entry` for `ref`, keeping the others (read again under the lock, just before the write). */
export const recordFetched = (gitDir: string, ref: string, entry: FetchedEntry): Promise<void> => {
  const target = path.join(gitDir, fileName);
  // A write is a read and a rename: a lock older than 10 s was left by a process that died.
  return withFileLock(
    target,
    async () => {
      const entries = await readFetched(gitDir);
      entries.set(ref, entry);
      await writeFileAtomically(target, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
    },
    { staleMs: 10_000 },
  );
};
