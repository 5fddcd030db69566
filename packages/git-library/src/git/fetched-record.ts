/**
 * `<repo>.git/promptyard-fetched.json`: what each ref resolved to when it was last fetched, and when,
 * so that a start without network serves the last fetched commit. Written whole (temp + rename),
 * under a lock file shared with the other processes using the cache.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { RefKind } from '../types.js';

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

/** A lock older than this is left by a process that died while writing: taken over. */
const staleLockMs = 10_000;

/** Runs `task` holding `<file>.lock` (created exclusively), so that processes sharing the cache do not lose each other's entries. */
const withFileLock = async <T>(file: string, task: () => Promise<T>): Promise<T> => {
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > staleLockMs || attempt > 200) await rm(lock, { force: true });
      else await delay(10 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return await task();
  } finally {
    await rm(lock, { force: true });
  }
};

/** Records `entry` for `ref`, keeping the others (read again under the lock, just before the write). */
export const recordFetched = (gitDir: string, ref: string, entry: FetchedEntry): Promise<void> => {
  const target = path.join(gitDir, fileName);
  return withFileLock(target, async () => {
    const entries = await readFetched(gitDir);
    entries.set(ref, entry);
    const temp = `${target}.${String(process.pid)}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  });
};
