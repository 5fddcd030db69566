import { basename, join } from 'node:path';
import { parseTwigManifest, type TwigManifest } from '../formats/twig-manifest.js';
import { dropLibrary, dropRecord, libraryFor, type FolderState, type LibraryRecord } from './folder-state.js';
import { acceptRead, reportFailure } from './load-failures.js';
import { processFiles } from './prompt-files.js';
import { readOne, type ReadOutcome } from './read-prompt-files.js';
import { lstatIfPresent, scanFolderOrNothing } from './scan-folder.js';

/** Whether a path found by name may be read: anything but a symlink the policy refuses. */
const admitted = async (state: FolderState, path: string): Promise<boolean> => {
  const stats = await lstatIfPresent(path);
  return stats === undefined || !stats.isSymbolicLink() || (await state.symlinks.admit(path)) !== undefined;
};

/** Parses a changed twig.toml into the library; undefined when it is unchanged, gone or invalid. */
const readManifest = async (state: FolderState, library: LibraryRecord, manifestAdmitted: boolean): Promise<TwigManifest | undefined> => {
  const read: ReadOutcome = manifestAdmitted ? await readOne(library.manifestFile, state.maxFileBytes) : { kind: 'missing' };
  const result = acceptRead(state, read, library.manifestFile, () => library);
  if (result === undefined) return undefined;
  if (result === 'gone') {
    dropLibrary(state, library);
    return undefined;
  }
  if (result.text === library.text) return undefined;
  library.text = result.text;
  try {
    const manifest = parseTwigManifest(result.text, library.manifestFile, basename(library.root));
    library.loaded = { manifest, engine: library.loaded?.engine ?? state.createLibraryEngine(library.root) };
    library.failure = undefined;
    return manifest;
  } catch (error) {
    reportFailure(state, library, library.manifestFile, result.text, error);
    return undefined;
  }
};

/** (Re)loads the twig library rooted at `root`; drops it when its twig.toml is gone. */
export const loadLibrary = async (state: FolderState, root: string): Promise<void> => {
  const library = libraryFor(state, root);
  // A twig.toml or prompts/ that is a symlink leading outside counts as absent.
  const [manifestAdmitted, promptsAdmitted] = await Promise.all([
    admitted(state, library.manifestFile),
    admitted(state, library.promptsDir),
  ]);
  const manifest = await readManifest(state, library, manifestAdmitted);
  if (manifest === undefined) return;

  const { logger, symlinks, diagnostics } = state;
  const { markdown } = promptsAdmitted
    ? await scanFolderOrNothing(library.promptsDir, { detectLibraries: false, logger, symlinks })
    : { markdown: [] };
  const present = new Set(markdown);
  for (const file of [...library.files]) if (!present.has(file)) dropRecord(state, file);
  await processFiles(state, markdown, true);
  for (const prompt of manifest.prompts.keys()) {
    if (!present.has(join(library.promptsDir, ...prompt.split('/')) + '.md')) {
      logger.warn('twig.toml declares a prompt that has no file', {
        file: library.manifestFile,
        prompt,
        expected: `prompts/${prompt}.md`,
      });
      diagnostics({
        file: library.manifestFile,
        severity: 'warning',
        code: 'missing-file',
        message: `declares prompt "${prompt}" but prompts/${prompt}.md is missing`,
      });
    }
  }
};
