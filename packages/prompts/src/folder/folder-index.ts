import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { PromptyardError, describeError, isPathInside, type Logger, type PromptEntry, type TemplateEngine } from '@promptyard/core';
import { errorCode, fileError, fileErrorDetails } from '../formats/file-error.js';
import { isIgnoredPath, toPosixRelative } from './ignore.js';
import { mapLimit } from './map-limit.js';
import { parsePromptFile, type PromptLibraryContext } from '../formats/parse-prompt-file.js';
import { parsePromptyFile } from '../formats/parse-prompty-file.js';
import { promptExtension, promptNameOf } from './prompt-file-name.js';
import { createPromptClaims } from './prompt-claims.js';
import { readOne, readPromptFiles, type ReadOutcome } from './read-prompt-files.js';
import type { PromptTextResult } from './read-prompt-text.js';
import { scanFolder, type FolderScan } from './scan-folder.js';
import { createSymlinkPolicy } from './symlinks.js';
import { parseTwigManifest, type TwigManifest } from '../formats/twig-manifest.js';
import type { PromptDelta } from './types.js';

export interface FolderIndexOptions {
  readonly dir: string;
  readonly engines: Readonly<Record<string, TemplateEngine>>;
  readonly createLibraryEngine: (libraryRoot: string) => TemplateEngine;
  readonly maxFileBytes: number;
  readonly logger: Logger;
  /** Serve symlinks (and embedded files) that lead outside `dir`; off by default. */
  readonly followExternalSymlinks?: boolean;
}

/** The prompts of one folder, kept per file so that a change re-reads only what changed. */
export interface FolderIndex {
  loadAll(): Promise<PromptEntry[]>;
  /** Re-reads the given changed paths (files or folders, present or gone). */
  apply(paths: Iterable<string>): Promise<PromptDelta>;
}

/** A failure already logged: the same reason for the same content is not logged again. */
interface Failure {
  readonly text: string | undefined;
  readonly reason: string;
}

/** A twig library as last loaded: its manifest and the engine made for it. */
interface LoadedLibrary {
  readonly manifest: TwigManifest;
  readonly engine: TemplateEngine;
}

interface LibraryRecord {
  readonly root: string;
  readonly promptsDir: string;
  readonly manifestFile: string;
  text: string | undefined;
  failure: Failure | undefined;
  /** The last manifest that parsed; kept while a broken edit is pending. */
  loaded: LoadedLibrary | undefined;
  readonly files: Set<string>;
}

interface FileRecord {
  readonly file: string;
  readonly library: LibraryRecord | undefined;
  text: string | undefined;
  failure: Failure | undefined;
  /** The last good entry; kept while the file is broken. */
  entry: PromptEntry | undefined;
}

/** A file or library that remembers its last logged failure and last good state. */
interface Reportable {
  failure: Failure | undefined;
  readonly entry?: PromptEntry | undefined;
  readonly loaded?: LoadedLibrary | undefined;
}

const manifestName = 'twig.toml';

const lstatIfPresent = async (path: string): Promise<Stats | undefined> => {
  try {
    return await lstat(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
};

type DecodedText = Extract<PromptTextResult, { kind: 'text' }>;

export const createFolderIndex = (options: FolderIndexOptions): FolderIndex => {
  const { dir, engines, maxFileBytes, logger } = options;
  const records = new Map<string, FileRecord>();
  const libraries = new Map<string, LibraryRecord>();
  const claims = createPromptClaims();
  const followExternal = options.followExternalSymlinks ?? false;
  const symlinks = createSymlinkPolicy({ root: dir, followExternal, logger });

  /** Whether a path found by name may be read: anything but a symlink the policy refuses. */
  const admitted = async (path: string): Promise<boolean> => {
    const stats = await lstatIfPresent(path);
    return stats === undefined || !stats.isSymbolicLink() || (await symlinks.admit(path)) !== undefined;
  };

  const scan = async (folder: string, detectLibraries: boolean): Promise<FolderScan> => {
    try {
      return await scanFolder(folder, { detectLibraries, logger, symlinks });
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        logger.warn('cannot read prompt folder; skipping it', { folder, reason: describeError(error) });
      return { markdown: [], libraries: [] };
    }
  };

  const findLibrary = (path: string): LibraryRecord | undefined => {
    if (libraries.size === 0) return undefined;
    for (let folder = path; ;) {
      const library = libraries.get(folder);
      if (library !== undefined) return library;
      const parent = dirname(folder);
      if (folder === dir || parent === folder) return undefined;
      folder = parent;
    }
  };

  const setEntry = (record: FileRecord, entry: PromptEntry | undefined): void => {
    claims.update(record.entry, entry);
    record.entry = entry;
  };

  const recordFor = (file: string, library: LibraryRecord | undefined): FileRecord => {
    const existing = records.get(file);
    if (existing !== undefined && existing.library === library) return existing;
    if (existing !== undefined) dropRecord(file);
    const record: FileRecord = { file, library, text: undefined, failure: undefined, entry: undefined };
    records.set(file, record);
    library?.files.add(file);
    return record;
  };

  const dropRecord = (file: string): void => {
    const record = records.get(file);
    if (record === undefined) return;
    setEntry(record, undefined);
    records.delete(file);
    record.library?.files.delete(file);
  };

  const dropLibrary = (library: LibraryRecord): void => {
    for (const file of [...library.files]) dropRecord(file);
    libraries.delete(library.root);
  };

  /** Forgets `path` and everything under it. */
  const removeUnder = (path: string): void => {
    if (records.has(path)) {
      dropRecord(path);
      return;
    }
    const library = libraries.get(path);
    if (library !== undefined) dropLibrary(library);
    const prefix = path.endsWith(sep) ? path : path + sep;
    for (const nested of [...libraries.values()]) if (nested.root.startsWith(prefix)) dropLibrary(nested);
    for (const file of [...records.keys()]) if (file.startsWith(prefix)) dropRecord(file);
  };

  /** Files reported as failing to load, for the `failed` count of a delta. */
  let failures = 0;
  const report = (target: Reportable, file: string, text: string | undefined, error: unknown): void => {
    const { reason, line } = fileErrorDetails(error);
    if (target.failure !== undefined && target.failure.reason === reason && target.failure.text === text) return;
    target.failure = { text, reason };
    failures++;
    const what = basename(file) === manifestName ? 'twig library' : 'prompt file';
    const kept = target.entry !== undefined || target.loaded !== undefined;
    logger.warn(`invalid ${what}; ${kept ? 'keeping its last good version' : 'skipping it'}`, {
      file,
      line,
      reason,
    });
  };

  /** Text of a read, or undefined after reporting why there is none; 'gone' when the file is. */
  const acceptRead = (outcome: ReadOutcome, file: string, target: () => Reportable): DecodedText | 'gone' | undefined => {
    switch (outcome.kind) {
      case 'text':
        return outcome;
      case 'missing':
      case 'not-file':
        return 'gone';
      case 'too-large':
        report(target(), file, undefined, fileError(file, `the file has ${outcome.size} bytes, over the limit of ${maxFileBytes}`));
        return undefined;
      case 'error':
        report(
          target(),
          file,
          undefined,
          fileError(file, `cannot read the file: ${describeError(outcome.error)}`, { cause: outcome.error }),
        );
        return undefined;
    }
  };

  const libraryContext = ({ manifest, engine }: LoadedLibrary, prompt: string): PromptLibraryContext => {
    const declaration = manifest.prompts.get(prompt);
    return {
      engine,
      ...(declaration?.description !== undefined && { description: declaration.description }),
      arguments: declaration?.arguments ?? [],
    };
  };

  /** The library a prompt file belongs to, or null when the file is no prompt at all. */
  const owner = (file: string): LibraryRecord | undefined | null => {
    const extension = promptExtension(file);
    if (extension === undefined) return null;
    const library = findLibrary(file);
    // A twig library's prompts are Markdown rendered with its partials.
    if (library !== undefined && extension !== '.md') return null;
    if (library !== undefined && (library.loaded === undefined || !isPathInside(library.promptsDir, file))) return null;
    return library;
  };

  /** Applies what reading a prompt file gave; `force` re-parses unchanged text (its manifest changed). */
  const applyRead = (file: string, outcome: ReadOutcome, force: boolean): void => {
    const library = owner(file);
    if (library === null) return;
    const result = acceptRead(outcome, file, () => recordFor(file, library));
    if (result === undefined) return;
    if (result === 'gone') {
      dropRecord(file);
      return;
    }
    const record = recordFor(file, library);
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
        ? parsePromptyFile({ text, file, name, source, engines, maxFileBytes })
        : parsePromptFile({
            text,
            file,
            name,
            source,
            engines,
            logger,
            maxFileBytes,
            followExternalSymlinks: followExternal,
            ...(context !== undefined && { library: context }),
          });
      record.failure = undefined;
      setEntry(record, entry);
    } catch (error) {
      report(record, file, text, error);
    }
  };

  /** Reads prompt files and applies them; `force` re-parses unchanged text. */
  const processFiles = (files: readonly string[], force = false): Promise<void> =>
    readPromptFiles(
      files.filter((file) => owner(file) !== null),
      maxFileBytes,
      logger,
      (file, outcome) => applyRead(file, outcome, force),
    );

  /** (Re)loads the twig library rooted at `root`; drops it when its twig.toml is gone. */
  const loadLibrary = async (root: string): Promise<void> => {
    let library = libraries.get(root);
    if (library === undefined) {
      library = {
        root,
        promptsDir: join(root, 'prompts'),
        manifestFile: join(root, manifestName),
        text: undefined,
        failure: undefined,
        loaded: undefined,
        files: new Set(),
      };
      libraries.set(root, library);
    }
    const current = library;
    // A twig.toml or prompts/ that is a symlink leading outside counts as absent.
    const [manifestAdmitted, promptsAdmitted] = await Promise.all([admitted(current.manifestFile), admitted(current.promptsDir)]);
    const read: ReadOutcome = manifestAdmitted ? await readOne(current.manifestFile, maxFileBytes) : { kind: 'missing' };
    const result = acceptRead(read, current.manifestFile, () => current);
    if (result === undefined) return;
    if (result === 'gone') {
      dropLibrary(current);
      return;
    }
    if (result.text === current.text) return;
    current.text = result.text;
    let manifest: TwigManifest;
    try {
      manifest = parseTwigManifest(result.text, current.manifestFile, basename(root));
      current.loaded = { manifest, engine: current.loaded?.engine ?? options.createLibraryEngine(root) };
    } catch (error) {
      report(current, current.manifestFile, result.text, error);
      return;
    }
    current.failure = undefined;

    const { markdown } = promptsAdmitted ? await scan(current.promptsDir, false) : { markdown: [] };
    const present = new Set(markdown);
    for (const file of [...current.files]) if (!present.has(file)) dropRecord(file);
    await processFiles(markdown, true);
    for (const prompt of manifest.prompts.keys()) {
      if (!present.has(join(current.promptsDir, ...prompt.split('/')) + '.md')) {
        logger.warn('twig.toml declares a prompt that has no file', {
          file: current.manifestFile,
          prompt,
          expected: `prompts/${prompt}.md`,
        });
      }
    }
  };

  /** Loads what a folder holds now: plain prompts and libraries, or a library's prompts. */
  const scanDirectory = async (folder: string): Promise<void> => {
    const library = findLibrary(folder);
    if (library !== undefined) {
      if (library.loaded === undefined || !isPathInside(library.promptsDir, folder)) return;
      await processFiles((await scan(folder, false)).markdown);
      return;
    }
    const found = await scan(folder, true);
    await Promise.all([processFiles(found.markdown), mapLimit(found.libraries, 4, loadLibrary)]);
  };

  /** A twig.toml appeared, changed or went away: the folder becomes, stays or stops being a library. */
  const applyManifest = async (manifestFile: string): Promise<void> => {
    const root = dirname(manifestFile);
    const stats = await lstatIfPresent(manifestFile);
    const library = libraries.get(root);
    if (stats !== undefined && !stats.isDirectory()) {
      if (library === undefined) {
        if (findLibrary(root) !== undefined) return; // inside another library: not a library of its own
        removeUnder(root); // its files stop being plain prompts
      }
      await loadLibrary(root);
      if (libraries.has(root)) return;
    } else if (library !== undefined) {
      dropLibrary(library);
    } else {
      return;
    }
    await scanDirectory(root);
  };

  const guarded = async (path: string, task: () => Promise<void>): Promise<void> => {
    try {
      await task();
    } catch (error) {
      logger.warn('cannot reload a changed path', { path, reason: describeError(error) });
    }
  };

  return {
    loadAll: async () => {
      records.clear();
      libraries.clear();
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
        await Promise.all([processFiles(found.markdown), mapLimit(found.libraries, 4, loadLibrary)]);
      } finally {
        claims.setTracking(true);
      }
      claims.reportConflicts(logger);
      return claims.served();
    },

    apply: async (paths) => {
      const failuresBefore = failures;
      const relevant = [...new Set(paths)].filter((path) => isPathInside(dir, path) && !isIgnoredPath(dir, path)).sort();
      // Library structure first, so that the other paths are classified against it.
      for (const path of relevant) {
        if (basename(path) === manifestName) await guarded(path, () => applyManifest(path));
      }
      const files: string[] = [];
      for (const path of relevant) {
        if (basename(path) === manifestName) continue;
        await guarded(path, async () => {
          const stats = await lstatIfPresent(path);
          if (stats === undefined) {
            removeUnder(path);
          } else if (stats.isDirectory()) {
            dropRecord(path);
            await scanDirectory(path);
          } else if (!stats.isSymbolicLink()) {
            files.push(path);
          } else {
            const link = await symlinks.admit(path);
            if (link === undefined) removeUnder(path);
            else if (link.kind === 'file') files.push(path);
            else if (link.external) await scanDirectory(path);
          }
        });
      }
      await processFiles(files);
      claims.reportConflicts(logger);
      const delta = claims.takeDelta();
      const failed = failures - failuresBefore;
      return failed === 0 ? delta : { ...delta, failed };
    },
  };
};
