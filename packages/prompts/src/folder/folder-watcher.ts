import { basename } from 'node:path';
import { describeError, type Logger } from '@promptyard/core';
import { errorCode } from '../formats/file-error.js';
import { createChangeBatches } from './change-batches.js';
import { watchFolderTree, type FolderTreeWatch } from './folder-tree-watch.js';
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
 * Watches a folder tree and hands over changed paths after `debounceMs` of quiet. Only prompt files,
 * library manifests and folders can change what a folder serves. Any watcher error (EMFILE, ENOSPC,
 * EACCES…) turns hot reload off with one warning: the prompts already loaded keep being served.
 */
export const startFolderWatcher = (options: FolderWatcherOptions): FolderWatcher => {
  const { dir, logger } = options;
  const isPromptPath = options.isPromptFile ?? isMarkdownPromptPath;
  const batches = createChangeBatches(options);
  let closed = false;
  let tree: FolderTreeWatch | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const stop = (): void => {
    closed = true;
    batches.stop();
    markReady();
    tree?.close();
    tree = undefined;
  };

  const fail = (error: unknown): void => {
    if (closed) return;
    logger.warn('hot reload is off: cannot watch the prompt folder', { dir, code: errorCode(error), reason: describeError(error) });
    stop();
  };

  const current = watchFolderTree(dir, (path) => isIgnoredPath(dir, path), {
    changed: (path) => {
      if (!closed && isPromptPath(path) && !isIgnoredPath(dir, path)) batches.changed(path);
    },
    // A new folder is read again a little later too (a change is looked at twice): files written
    // into it before its handle existed would otherwise go unnoticed.
    rescan: (folder) => {
      if (!closed) batches.changed(folder);
    },
    removed: (folder) => {
      if (!closed) batches.removed(folder);
    },
    failed: fail,
  });
  // A failure may have come first.
  if (closed) current.close();
  else tree = current;
  void current.ready.then(markReady);

  return {
    ready,
    isActive: () => !closed,
    close: async () => {
      stop();
      await batches.running();
    },
  };
};
