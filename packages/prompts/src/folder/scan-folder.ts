import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, type Logger } from '@promptyard/core';
import { isIgnoredName } from './ignore.js';
import { createLimiter } from './map-limit.js';
import type { SymlinkPolicy } from './symlinks.js';
import { promptExtension } from './prompt-file-name.js';
import { errorCode } from '../formats/file-error.js';

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
  /** Which symlinks are taken: those that stay inside the prompt folder, others only when allowed. */
  readonly symlinks: SymlinkPolicy;
}

const manifestName = 'twig.toml';

/**
 * Walks `root` with `readdir(withFileTypes)` (no per-entry stat), a few folders at a time. Hidden
 * entries and `node_modules` are skipped. A symlink is resolved only when it is one (Dirent says
 * so): a file link is read if it stays inside the prompt folder; a folder link is not followed
 * (what it points to inside the folder is scanned anyway), except one that leads outside when
 * external links are allowed. An unreadable root throws; an unreadable subfolder is logged and skipped.
 */
export const scanFolder = async (root: string, options: ScanOptions): Promise<FolderScan> => {
  const markdown: string[] = [];
  const libraries: string[] = [];
  const limit = createLimiter(16);
  const { symlinks } = options;
  // Real paths of the external folders walked, so that a link cycle is walked once.
  const followed = new Set<string>();

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
      else if (entry.isSymbolicLink()) folders.push(visitLink(path, entry.name));
      else if (entry.isFile() && promptExtension(entry.name) !== undefined) markdown.push(path);
    }
    await Promise.all(folders);
  };

  const visitLink = async (path: string, name: string): Promise<void> => {
    const link = await symlinks.admit(path, (kind) => kind === 'folder' || promptExtension(name) !== undefined);
    if (link === undefined) return;
    if (link.kind === 'file') {
      markdown.push(path);
    } else if (link.external && !followed.has(link.real)) {
      followed.add(link.real);
      await visit(path);
    }
  };

  await visit(root);
  return { markdown, libraries };
};

/** A folder that a change or a library names: one that is gone holds nothing, one that cannot be read is logged and skipped. */
export const scanFolderOrNothing = async (folder: string, options: ScanOptions): Promise<FolderScan> => {
  try {
    return await scanFolder(folder, options);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      options.logger.warn('cannot read prompt folder; skipping it', { folder, reason: describeError(error) });
    return { markdown: [], libraries: [] };
  }
};

/** What is at `path` (a symlink itself, not its target), or undefined when nothing is. */
export const lstatIfPresent = async (path: string): Promise<Stats | undefined> => {
  try {
    return await lstat(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
};
