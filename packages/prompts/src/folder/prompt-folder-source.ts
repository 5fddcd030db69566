/**
 * A prompt folder on disk. The source over it (this file) keeps an index of the folder per file
 * (folder-index.ts over the records of folder-state.ts: reading prompt files, loading twig libraries,
 * applying changes, reporting load failures) and which file claims each prompt name; below them, the
 * walk that finds the files (scan, symlinks, ignored names), reading them (a reader thread for large
 * batches, `fs` callbacks otherwise) and the folder-tree watcher behind hot reload with its debounced
 * batches, which the native and skill sources use too.
 */
import { resolve } from 'node:path';
import { PromptyardError, createLogger, describeError, type PromptEntry } from '@promptyard/core';
import { createFolderIndex } from './folder-index.js';
import { startFolderWatcher, type FolderWatcher } from './folder-watcher.js';
import type { PromptDelta, PromptFolderOptions, PromptFolderSource } from './types.js';

const requiredEngines = ['liquid', 'arguments'];

/**
 * A folder of Markdown prompts (and twig.toml libraries) as a source of registry entries, with hot
 * reload. Loads and reloads run one at a time, so a reload never interleaves with a full load.
 */
export const createPromptFolderSource = (options: PromptFolderOptions): PromptFolderSource => {
  const { engines } = options;
  const missing = requiredEngines.filter((name) => !Object.hasOwn(engines, name));
  const liquid = Object.hasOwn(engines, 'liquid') ? engines.liquid : undefined;
  if (missing.length > 0 || liquid === undefined) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `a prompt folder needs the template engines ${missing.map((name) => `"${name}"`).join(' and ')}`,
    );
  }
  const dir = resolve(options.dir);
  const logger = options.logger ?? createLogger({ level: 'warning', scope: 'promptyard:prompts' });
  const index = createFolderIndex({
    dir,
    engines,
    createLibraryEngine: options.createLibraryEngine ?? (() => liquid),
    maxFileBytes: options.maxFileBytes ?? 100 * 1024,
    logger,
    diagnostics: options.diagnostics,
    ...(options.followExternalSymlinks !== undefined && { followExternalSymlinks: options.followExternalSymlinks }),
  });

  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => {});
    return result;
  };

  let watcher: FolderWatcher | undefined;

  return {
    id: dir,
    dir,
    load: (): Promise<readonly PromptEntry[]> => serially(() => index.loadAll()),
    reload: (paths) => serially(() => index.apply(paths)),
    watch: async (onChange: (delta: PromptDelta) => void): Promise<void> => {
      if (watcher !== undefined) throw new PromptyardError('INVALID_REQUEST', `already watching ${dir}`);
      const current = startFolderWatcher({
        dir,
        debounceMs: options.debounceMs ?? 25,
        logger,
        onBatch: async (paths) => {
          const delta = await serially(() => index.apply(paths));
          if (!current.isActive() || (delta.upserted.length === 0 && delta.removed.length === 0 && delta.failed === undefined)) return;
          try {
            onChange(delta);
          } catch (error) {
            logger.error('prompt change listener failed', { dir, reason: describeError(error) });
          }
        },
      });
      watcher = current;
      await current.ready;
      if (current.isActive()) logger.info('watching', { dir });
    },
    close: async (): Promise<void> => {
      const current = watcher;
      watcher = undefined;
      await current?.close();
    },
  };
};
