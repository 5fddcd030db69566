/**
 * `promptyard-server sync` and a running server: the command fetches into the cache, then writes
 * `<cacheDir>/sync-requests/<source id>` (a new stamp each time); every server holding that source
 * watches the folder and syncs the source when its stamp changes. Requests are not removed: each
 * server on the cache sees each one.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@promptyard/core';

const folderOf = (cacheDir: string): string => join(cacheDir, 'sync-requests');

/** Asks the running server(s) sharing `cacheDir` to sync the sources `ids`. */
export const requestSync = async (cacheDir: string, ids: readonly string[]): Promise<void> => {
  const folder = folderOf(cacheDir);
  await mkdir(folder, { recursive: true });
  const stamp = `${new Date().toISOString()} ${randomBytes(6).toString('hex')}\n`;
  await Promise.all(ids.map((id) => writeFile(join(folder, id), stamp, 'utf8')));
};

/**
 * Calls `onRequest` with the ids of `ids` whose request is new (a stamp this watcher has not seen;
 * those already there when it starts are old), whenever the folder changes. Resolves with a function
 * that stops watching.
 */
export const watchSyncRequests = async (
  cacheDir: string,
  ids: () => ReadonlySet<string>,
  onRequest: (ids: readonly string[]) => void,
  logger: Logger,
): Promise<() => void> => {
  const folder = folderOf(cacheDir);
  await mkdir(folder, { recursive: true });
  let scanning = false;
  let again = false;
  const seen = new Map<string, string>();
  /** The ids whose stamp changed since the last look. */
  const changed = async (): Promise<string[]> => {
    const wanted = ids();
    const names = (await readdir(folder)).filter((name) => wanted.has(name));
    const stamps = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8').catch(() => '')));
    return names.filter((name, index) => {
      const stamp = stamps[index] ?? '';
      if (stamp === '' || seen.get(name) === stamp) return false;
      seen.set(name, stamp);
      return true;
    });
  };
  const scan = async (): Promise<void> => {
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        const requested = await changed();
        if (requested.length > 0) onRequest(requested);
      } while (again);
    } catch (error) {
      logger.warn('git sync requests could not be read', { folder, error: (error as Error).message });
    } finally {
      scanning = false;
    }
  };
  const watcher: FSWatcher = watch(folder, { persistent: false }, () => void scan());
  watcher.on('error', (error) => logger.warn('git sync requests are no longer watched', { folder, error: error.message }));
  await changed();
  return () => watcher.close();
};
