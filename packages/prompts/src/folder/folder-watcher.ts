import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { describeError, type Logger } from '@promptyard/core';
import { watch, type FSWatcher } from 'chokidar';
import { errorCode } from '../formats/file-error.js';
import { createChangeBatches, type ChangeBatches } from './change-batches.js';
import { isIgnoredPath } from './ignore.js';
import { promptExtension } from './prompt-file-name.js';

export interface FolderWatcherOptions {
  readonly dir: string;
  readonly debounceMs: number;
  readonly logger: Logger;
  /** Receives the paths changed during one quiet period; batches never overlap. */
  readonly onBatch: (paths: ReadonlySet<string>) => Promise<void>;
  /** Files that can change what the folder serves; `*.md`, `*.prompty` and `twig.toml` by default. */
  readonly isPromptFile?: (path: string) => boolean;
}

export interface FolderWatcher {
  /** Settles when the initial scan is done, or when watching gave up. */
  readonly ready: Promise<void>;
  /** False once the watcher failed or was closed. */
  isActive(): boolean;
  /** Stops watching and waits for a batch in progress. */
  close(): Promise<void>;
}

const isMarkdownPromptPath = (path: string): boolean => promptExtension(path) !== undefined || basename(path) === 'twig.toml';

/**
 * chokidar over the folder tree, handing changes to `batches`. Only prompt files, library manifests
 * and folders can change what a folder serves.
 */
const watchTree = (dir: string, isPromptPath: (path: string) => boolean, batches: ChangeBatches, isClosed: () => boolean): FSWatcher => {
  const isRelevant = (event: string, path: string): boolean => event === 'addDir' || event === 'unlinkDir' || isPromptPath(path);
  const watcher = watch(dir, {
    ignoreInitial: true,
    followSymlinks: false,
    // chokidar tracks the folder tree only. Watching files too would cost one fs.watch handle per
    // file; the folders' own watchers already report every change to the files in them, as raw events.
    ignored: (path: string, stats?: Stats) => isIgnoredPath(dir, path) || (stats === undefined ? isPromptPath(path) : !stats.isDirectory()),
  });
  watcher.on('raw', (_event, name: string | null, details: unknown) => {
    const watched = (details as { readonly watchedPath?: unknown } | undefined)?.watchedPath;
    if (isClosed() || typeof name !== 'string' || name === '' || typeof watched !== 'string') return;
    const path = join(watched, name);
    if (isPromptPath(path) && !isIgnoredPath(dir, path)) batches.changed(path);
  });
  watcher.on('all', (event, path) => {
    if (isClosed() || !isRelevant(event, path)) return;
    // A new folder is read again a little later too: files written into it before chokidar
    // attached its watcher would otherwise go unnoticed.
    if (event === 'unlinkDir') batches.removed(path);
    else batches.changed(path);
  });
  return watcher;
};

/**
 * Watches a folder with chokidar and hands over changed paths after `debounceMs` of quiet. Any
 * watcher error (EMFILE, ENOSPC, EACCES…) turns hot reload off with one warning: the prompts
 * already loaded keep being served.
 */
export const startFolderWatcher = (options: FolderWatcherOptions): FolderWatcher => {
  const { dir, logger } = options;
  const isPromptPath = options.isPromptFile ?? isMarkdownPromptPath;
  const batches = createChangeBatches(options);
  let closed = false;
  let watcher: FSWatcher | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const stop = (): Promise<void> => {
    closed = true;
    batches.stop();
    markReady();
    const current = watcher;
    watcher = undefined;
    return current === undefined ? Promise.resolve() : current.close().catch(() => {});
  };

  const fail = (error: unknown): void => {
    if (closed) return;
    logger.warn('hot reload is off: cannot watch the prompt folder', { dir, code: errorCode(error), reason: describeError(error) });
    void stop();
  };

  try {
    watcher = watchTree(dir, isPromptPath, batches, () => closed);
    watcher.on('error', fail);
    watcher.on('ready', markReady);
  } catch (error) {
    fail(error);
  }

  return {
    ready,
    isActive: () => !closed,
    close: async () => {
      await stop();
      await batches.running();
    },
  };
};
