import { PromptyardError, describeError, type PromptEntry } from '@promptyard/core';
import { applyChanges } from './folder-changes.js';
import { createFolderState, type FolderIndexOptions, type FolderState } from './folder-state.js';
import { mapLimit } from './map-limit.js';
import { processFiles } from './prompt-files.js';
import { scanFolder, type FolderScan } from './scan-folder.js';
import { loadLibrary } from './twig-libraries.js';
import type { PromptDelta } from './types.js';

/** The prompts of one folder, kept per file so that a change re-reads only what changed. */
export interface FolderIndex {
  loadAll(): Promise<PromptEntry[]>;
  /** Re-reads the given changed paths (files or folders, present or gone). */
  apply(paths: Iterable<string>): Promise<PromptDelta>;
}

/** Forgets everything and loads the whole folder: plain prompts and twig libraries. */
const loadAll = async (state: FolderState): Promise<PromptEntry[]> => {
  const { dir, claims, logger, symlinks } = state;
  state.records.clear();
  state.folders.clear();
  state.libraries.clear();
  claims.clear();
  let found: FolderScan;
  try {
    found = await scanFolder(dir, { detectLibraries: true, logger, symlinks });
  } catch (error) {
    throw new PromptyardError('SOURCE_ERROR', `cannot read the prompt folder ${dir}: ${describeError(error)}`, {
      cause: error,
      data: { dir },
    });
  }
  claims.setTracking(false);
  try {
    await Promise.all([processFiles(state, found.markdown), mapLimit(found.libraries, 4, (root) => loadLibrary(state, root))]);
  } finally {
    claims.setTracking(true);
  }
  claims.reportConflicts(logger, state.diagnostics);
  return claims.served();
};

export const createFolderIndex = (options: FolderIndexOptions): FolderIndex => {
  const state = createFolderState(options);
  return {
    loadAll: () => loadAll(state),
    apply: (paths) => applyChanges(state, paths),
  };
};
