import { basename, dirname } from 'node:path';
import { describeError, isPathInside } from '@promptyard/core';
import { dropLibrary, dropRecord, findLibrary, manifestName, removeUnder, type FolderState } from './folder-state.js';
import { isIgnoredPath } from './ignore.js';
import { mapLimit } from './map-limit.js';
import { processFiles } from './prompt-files.js';
import type { PromptDelta } from './types.js';
import { lstatIfPresent, scanFolderOrNothing } from './scan-folder.js';
import { loadLibrary } from './twig-libraries.js';

/** Loads what a folder holds now: plain prompts and libraries, or a library's prompts. */
const scanDirectory = async (state: FolderState, folder: string): Promise<void> => {
  const { logger, symlinks } = state;
  const library = findLibrary(state, folder);
  if (library !== undefined) {
    if (library.loaded === undefined || !isPathInside(library.promptsDir, folder)) return;
    await processFiles(state, (await scanFolderOrNothing(folder, { detectLibraries: false, logger, symlinks })).markdown);
    return;
  }
  const found = await scanFolderOrNothing(folder, { detectLibraries: true, logger, symlinks });
  await Promise.all([processFiles(state, found.markdown), mapLimit(found.libraries, 4, (root) => loadLibrary(state, root))]);
};

/** A twig.toml appeared, changed or went away: the folder becomes, stays or stops being a library. */
const applyManifest = async (state: FolderState, manifestFile: string): Promise<void> => {
  const root = dirname(manifestFile);
  const stats = await lstatIfPresent(manifestFile);
  const library = state.libraries.get(root);
  if (stats !== undefined && !stats.isDirectory()) {
    if (library === undefined) {
      if (findLibrary(state, root) !== undefined) return; // inside another library: not a library of its own
      removeUnder(state, root); // its files stop being plain prompts
    }
    await loadLibrary(state, root);
    if (state.libraries.has(root)) return;
  } else if (library !== undefined) {
    dropLibrary(state, library);
  } else {
    return;
  }
  await scanDirectory(state, root);
};

/** A changed path other than a twig.toml: forgotten, rescanned, or added to the files to read. */
const applyPath = async (state: FolderState, path: string, files: string[]): Promise<void> => {
  const stats = await lstatIfPresent(path);
  if (stats === undefined) {
    removeUnder(state, path);
  } else if (stats.isDirectory()) {
    dropRecord(state, path);
    await scanDirectory(state, path);
  } else if (!stats.isSymbolicLink()) {
    files.push(path);
  } else {
    const link = await state.symlinks.admit(path);
    if (link === undefined) removeUnder(state, path);
    else if (link.kind === 'file') files.push(path);
    else if (link.external) await scanDirectory(state, path);
  }
};

const guarded = async (state: FolderState, path: string, task: () => Promise<void>): Promise<void> => {
  try {
    await task();
  } catch (error) {
    state.logger.warn('cannot reload a changed path', { path, reason: describeError(error) });
  }
};

/** Re-reads the given changed paths (files or folders, present or gone) and says what changed. */
export const applyChanges = async (state: FolderState, paths: Iterable<string>): Promise<PromptDelta> => {
  const { dir, claims } = state;
  const failuresBefore = state.failures;
  const relevant = [...new Set(paths)].filter((path) => isPathInside(dir, path) && !isIgnoredPath(dir, path)).sort();
  // Library structure first, so that the other paths are classified against it.
  for (const path of relevant) {
    if (basename(path) === manifestName) await guarded(state, path, () => applyManifest(state, path));
  }
  const files: string[] = [];
  for (const path of relevant) {
    if (basename(path) === manifestName) continue;
    await guarded(state, path, () => applyPath(state, path, files));
  }
  await processFiles(state, files);
  claims.reportConflicts(state.logger, state.diagnostics);
  const delta = claims.takeDelta();
  const failed = state.failures - failuresBefore;
  return failed === 0 ? delta : { ...delta, failed };
};
