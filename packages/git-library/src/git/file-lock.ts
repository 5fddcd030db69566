/**
 * A lock file shared by the processes using one cache (two servers, or `sync` beside a server):
 * created exclusively, waited for, and taken over once older than a process could hold it alive.
 */
import { open, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

export interface FileLockOptions {
  /** A lock older than this was left by a process that died holding it: taken over. */
  readonly staleMs: number;
}

/** Runs `task` holding `<file>.lock`; waits (10–30 ms steps) while another process holds it. */
export const withFileLock = async <T>(file: string, task: () => Promise<T>, { staleMs }: FileLockOptions): Promise<T> => {
  const lock = `${file}.lock`;
  for (;;) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > staleMs) await rm(lock, { force: true });
      else await delay(10 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return await task();
  } finally {
    await rm(lock, { force: true });
  }
};
