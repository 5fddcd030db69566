import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@promptyard/core';
import { isIgnoredName } from './ignore.js';
import { createLimiter } from './map-limit.js';
import { promptExtension } from './prompt-file-name.js';

export interface FolderScan {
  /** Candidate prompt files (`*.md`, `*.prompty`, including symlinks to files), absolute. */
  readonly markdown: readonly string[];
  /** Folders that hold a twig.toml, absolute; their contents are not scanned. */
  readonly libraries: readonly string[];
}

export interface ScanOptions {
  /** Stop at folders holding a twig.toml and report them as libraries. */
  readonly detectLibraries: boolean;
  readonly logger: Logger;
}

const manifestName = 'twig.toml';

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

/**
 * Walks `root` with `readdir(withFileTypes)` (no per-entry stat), a few folders at a time. Hidden
 * entries and `node_modules` are skipped and symlinked folders are not followed. An unreadable root
 * throws; an unreadable subfolder is logged and skipped.
 */
export const scanFolder = async (root: string, options: ScanOptions): Promise<FolderScan> => {
  const markdown: string[] = [];
  const libraries: string[] = [];
  const limit = createLimiter(16);

  const visit = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await limit(() => readdir(folder, { withFileTypes: true }));
    } catch (error) {
      if (folder === root) throw error;
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        options.logger.warn('cannot read prompt folder; skipping it', { folder, reason: String(code ?? error) });
      }
      return;
    }
    if (options.detectLibraries && entries.some((entry) => entry.name === manifestName && !entry.isDirectory())) {
      libraries.push(folder);
      return;
    }
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(visit(path));
      else if ((entry.isFile() || entry.isSymbolicLink()) && promptExtension(entry.name) !== undefined) markdown.push(path);
    }
    await Promise.all(folders);
  };

  await visit(root);
  return { markdown, libraries };
};
