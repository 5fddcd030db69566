/**
 * A lock file shared by the processes using one cache (two servers, or `sync` beside a server):
 * created exclusively with an owner token, kept fresh while held, waited for, and taken over once it
 * has not been refreshed for longer than its holder could be alive; released only by its owner.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

export interface FileLockOptions {
  /** A lock not refreshed for this long was left by a process that died holding it: taken over. */
  readonly staleMs: number;
}

const take = async (lock: string, token: string, staleMs: number): Promise<void> => {
  for (;;) {
    try {
      await writeFile(lock, token, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > staleMs) await rm(lock, { force: true });
      else await delay(10 + Math.floor(Math.random() * 20));
    }
  }
};

/** Runs `task` holding `<file>.lock`; waits (10–30 ms steps) while another process holds it. */
export const withFileLock = async <T>(file: string, task: () => Promise<T>, { staleMs }: FileLockOptions): Promise<T> => {
  const lock = `${file}.lock`;
  const token = `${String(process.pid)} ${randomBytes(8).toString('hex')}`;
  await take(lock, token, staleMs);
  // Touched while held, so that a long task (a slow fetch) is not taken for a dead one.
  const refresh = setInterval(() => {
    const now = new Date();
    void utimes(lock, now, now).catch(() => undefined);
  }, staleMs / 3);
  refresh.unref();
  try {
    return await task();
  } finally {
    clearInterval(refresh);
    if ((await readFile(lock, 'utf8').catch(() => '')) === token) await rm(lock, { force: true });
  }
};
