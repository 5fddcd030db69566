import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { describeError, type Logger } from '@promptyard/core';
import { watch, type FSWatcher } from 'chokidar';
import { isIgnoredPath } from './ignore.js';
import { promptExtension } from './prompt-file-name.js';
import { errorCode } from '../formats/file-error.js';

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

/**
 * chokidar drops a second `change` of a path within 50 ms of the first (and a second removal within
 * 100 ms), so a quick second save would be lost: every changed file is read once more after that
 * window. An unchanged file costs one read and no delta.
 */
const recheckDelayMs = 120;

const isMarkdownPromptPath = (path: string): boolean => promptExtension(path) !== undefined || basename(path) === 'twig.toml';

// Only prompt files, library manifests and folders can change what a folder serves (see isRelevant).

/**
 * Watches a folder with chokidar and hands over changed paths after `debounceMs` of quiet. Any
 * watcher error (EMFILE, ENOSPC, EACCES…) turns hot reload off with one warning: the prompts
 * already loaded keep being served.
 */
export const startFolderWatcher = (options: FolderWatcherOptions): FolderWatcher => {
  const { dir, debounceMs, logger } = options;
  const isPromptPath = options.isPromptFile ?? isMarkdownPromptPath;
  const isRelevant = (event: string, path: string): boolean => event === 'addDir' || event === 'unlinkDir' || isPromptPath(path);
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  // Path → when to look at it again (see recheckDelayMs).
  const recheck = new Map<string, number>();
  let recheckTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let watcher: FSWatcher | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const stop = (): Promise<void> => {
    closed = true;
    clearTimeout(timer);
    timer = undefined;
    clearTimeout(recheckTimer);
    recheckTimer = undefined;
    recheck.clear();
    pending.clear();
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

  const flush = (): void => {
    timer = undefined;
    if (closed || running !== undefined || pending.size === 0) return;
    const batch = pending;
    pending = new Set();
    running = options
      .onBatch(batch)
      .catch((error: unknown) => logger.error('cannot apply prompt folder changes', { dir, reason: describeError(error) }))
      .finally(() => {
        running = undefined;
        if (pending.size > 0) schedule();
      });
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  const armRecheck = (): void => {
    if (closed || recheckTimer !== undefined || recheck.size === 0) return;
    let due = Number.POSITIVE_INFINITY;
    for (const at of recheck.values()) due = Math.min(due, at);
    recheckTimer = setTimeout(fireRecheck, Math.max(0, due - performance.now()));
  };

  const fireRecheck = (): void => {
    recheckTimer = undefined;
    const now = performance.now();
    for (const [path, at] of recheck) {
      if (at > now) continue;
      recheck.delete(path);
      pending.add(path);
    }
    if (pending.size > 0) schedule();
    armRecheck();
  };

  const changed = (path: string): void => {
    pending.add(path);
    schedule();
    recheck.set(path, performance.now() + recheckDelayMs);
    armRecheck();
  };

  try {
    watcher = watch(dir, {
      ignoreInitial: true,
      followSymlinks: false,
      // chokidar tracks the folder tree only. Watching files too would cost one fs.watch handle per
      // file (~8 KB each: 80 MB for 10,000 prompts); the folders' own watchers already report
      // every change to the files in them, as raw events.
      ignored: (path: string, stats?: Stats) =>
        isIgnoredPath(dir, path) || (stats === undefined ? isPromptPath(path) : !stats.isDirectory()),
    });
    watcher.on('raw', (_event, name: string | null, details: unknown) => {
      const watched = (details as { readonly watchedPath?: unknown } | undefined)?.watchedPath;
      if (closed || typeof name !== 'string' || name === '' || typeof watched !== 'string') return;
      const path = join(watched, name);
      if (isPromptPath(path) && !isIgnoredPath(dir, path)) changed(path);
    });
    watcher.on('all', (event, path) => {
      if (closed || !isRelevant(event, path)) return;
      if (event === 'unlinkDir') {
        pending.add(path);
        schedule();
      } else {
        // A new folder is read again a little later too: files written into it before chokidar
        // attached its watcher would otherwise go unnoticed.
        changed(path);
      }
    });
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
      await running;
    },
  };
};
