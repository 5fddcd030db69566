/**
 * `promptyard-server sync` and a running server: the command fetches into the cache, then writes
 * `<cacheDir>/sync-requests/<source id>`; the server holding that source watches the folder, takes
 * the request (removes the file) and syncs the source.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@promptyard/core';

const folderOf = (cacheDir: string): string => join(cacheDir, 'sync-requests');

/** Asks the running server(s) sharing `cacheDir` to sync the sources `ids`. */
export const requestSync = async (cacheDir: string, ids: readonly string[]): Promise<void> => {
  const folder = folderOf(cacheDir);
  await mkdir(folder, { recursive: true });
  await Promise.all(ids.map((id) => writeFile(join(folder, id), `${new Date().toISOString()}\n`, 'utf8')));
};

/**
 * Calls `onRequest` with the ids of `ids` that have a request (taking the requests), now and whenever
 * the folder changes. Resolves with a function that stops watching.
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
  const scan = async (): Promise<void> => {
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        const wanted = ids();
        const requested = (await readdir(folder)).filter((name) => wanted.has(name));
        await Promise.all(requested.map((name) => rm(join(folder, name), { force: true })));
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
  await scan();
  return () => watcher.close();
};
