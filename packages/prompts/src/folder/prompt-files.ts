import { isPathInside } from '@promptyard/core';
import { parsePromptFile, type PromptLibraryContext } from '../formats/parse-prompt-file.js';
import { parsePromptyFile } from '../formats/parse-prompty-file.js';
import { dropRecord, findLibrary, recordFor, setEntry, type FolderState, type LibraryRecord, type LoadedLibrary } from './folder-state.js';
import { acceptRead, reportFailure } from './load-failures.js';
import { toPosixRelative } from './ignore.js';
import { promptExtension, promptNameOf } from './prompt-file-name.js';
import { readPromptFiles, type ReadOutcome } from './read-prompt-files.js';

const libraryContext = ({ manifest, engine }: LoadedLibrary, prompt: string): PromptLibraryContext => {
  const declaration = manifest.prompts.get(prompt);
  return {
    engine,
    ...(declaration?.description !== undefined && { description: declaration.description }),
    arguments: declaration?.arguments ?? [],
  };
};

/** The library a prompt file belongs to, or null when the file is no prompt at all. */
const ownerOf = (state: FolderState, file: string): LibraryRecord | undefined | null => {
  const extension = promptExtension(file);
  if (extension === undefined) return null;
  const library = findLibrary(state, file);
  // A twig library's prompts are Markdown rendered with its partials.
  if (library !== undefined && extension !== '.md') return null;
  if (library !== undefined && (library.loaded === undefined || !isPathInside(library.promptsDir, file))) return null;
  return library;
};

/** Applies what reading a prompt file gave; `force` re-parses unchanged text (its manifest changed). */
const applyRead = (state: FolderState, file: string, outcome: ReadOutcome, force: boolean): void => {
  const { dir, engines, logger, diagnostics, maxFileBytes } = state;
  const library = ownerOf(state, file);
  if (library === null) return;
  const result = acceptRead(state, outcome, file, () => recordFor(state, file, library));
  if (result === undefined) return;
  if (result === 'gone') {
    dropRecord(state, file);
    return;
  }
  const record = recordFor(state, file, library);
  const { text } = result;
  const changed = record.text !== text;
  if (!changed && !force) return;
  record.text = text;
  if (changed && result.latin1) logger.warn('prompt file is not valid UTF-8; decoded it as Latin-1', { file });

  const source = toPosixRelative(dir, file);
  let name = promptNameOf(source);
  let context: PromptLibraryContext | undefined;
  const loaded = library?.loaded;
  if (library !== undefined && loaded !== undefined) {
    const prompt = promptNameOf(toPosixRelative(library.promptsDir, file));
    name = `${loaded.manifest.name}:${prompt}`;
    context = libraryContext(loaded, prompt);
  }
  try {
    const entry = file.endsWith('.prompty')
      ? parsePromptyFile({ text, file, name, source, engines, maxFileBytes, logger, diagnostics })
      : parsePromptFile({
          text,
          file,
          name,
          source,
          engines,
          logger,
          diagnostics,
          maxFileBytes,
          followExternalSymlinks: state.followExternal,
          ...(context !== undefined && { library: context }),
        });
    record.failure = undefined;
    setEntry(state, record, entry);
  } catch (error) {
    reportFailure(state, record, file, text, error);
  }
};

/** Reads prompt files and applies them; `force` re-parses unchanged text. */
export const processFiles = (state: FolderState, files: readonly string[], force = false): Promise<void> =>
  readPromptFiles(
    files.filter((file) => ownerOf(state, file) !== null),
    state.maxFileBytes,
    state.logger,
    (file, outcome) => applyRead(state, file, outcome, force),
  );
