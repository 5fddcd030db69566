/**
 * Other tools' prompt files (Claude Code, Copilot, Continue, Gemini CLI, Codex, spec-kit, Prompty):
 * the source over a folder of them (this file), each format's definition and parser, the placeholder
 * dialects that turn their inputs into arguments, file references, and MCP-safe prompt names.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  createLogger,
  type Logger,
  type PromptEntry,
  type PromptSource,
  type PromptSourceDelta,
  type TemplateEngine,
} from '@promptyard/core';
import { fileErrorDetails } from '../formats/file-error.js';
import { startFolderWatcher, type FolderWatcher } from '../folder/folder-watcher.js';
import { isIgnoredName, toPosixRelative } from '../folder/ignore.js';
import { mapLimit } from '../folder/map-limit.js';
import { readPromptText } from '../folder/read-prompt-text.js';
import { createSymlinkPolicy, type SymlinkPolicy } from '../folder/symlinks.js';
import { parseContinueFormat } from './continue-format.js';
import { freeTextName } from './dialect.js';
import { parseCopilotFormat } from './copilot-format.js';
import { parseDollarFormat } from './dollar-formats.js';
import { parseGeminiFormat } from './gemini-format.js';
import type { NativeDefinition, NativeFileInput, NativeFormat } from './native-definition.js';
import { createNativeEntry } from './native-entry.js';
import { parsePromptyFormat } from './prompty-format.js';
import { placeholderLine } from './unfilled.js';

export interface NativePromptSourceOptions {
  readonly format: NativeFormat;
  /** The format's folder (`.claude/commands`, `.gemini/commands`, a project for Prompty). */
  readonly dir: string;
  /** Prepended to every name (`claude:`); empty by default. */
  readonly prefix?: string;
  /** `@path` references resolve inside it; `dir` by default. */
  readonly root?: string;
  /** Renders Prompty bodies (Jinja). */
  readonly jinja: TemplateEngine;
  readonly maxFileBytes?: number;
  readonly logger?: Logger;
  /** Quiet period before changed files are re-read; 25 ms by default. */
  readonly debounceMs?: number;
  /** Serve symlinks (and `@path` files) that lead outside the folder; off by default. */
  readonly followExternalSymlinks?: boolean;
}

/** Something `validate` reports: a file that does not load, an argument declared but unused, a placeholder nothing fills. */
export interface NativeProblem {
  readonly file: string;
  readonly line?: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export interface NativeInspection {
  readonly entries: readonly PromptEntry[];
  readonly problems: readonly NativeProblem[];
}

export interface NativePromptSource extends PromptSource {
  readonly format: NativeFormat;
  /** The format's folder, absolute; also the source's `id`. */
  readonly dir: string;
  readonly prefix: string;
  /** Full load; invalid files are logged and skipped. */
  load(): Promise<readonly PromptEntry[]>;
  /** Full load that returns the problems instead of logging them. */
  inspect(): Promise<NativeInspection>;
  /**
   * Hot reload: a change reloads the whole folder (native folders are small) and reports what
   * changed. Prompty's folder is the project itself, too large to watch: it is read at start-up only.
   */
  watch(onChange: (delta: PromptSourceDelta) => void): Promise<void>;
  close(): Promise<void>;
}

interface Layout {
  readonly matches: (relative: string) => boolean;
  readonly maxDepth: number;
}

const layouts: Readonly<Record<NativeFormat, Layout>> = {
  'claude-commands': { matches: (path) => path.endsWith('.md'), maxDepth: 8 },
  'claude-skills': { matches: (path) => /^[^/]+\/SKILL\.md$/.test(path), maxDepth: 2 },
  copilot: { matches: (path) => path.endsWith('.prompt.md'), maxDepth: 8 },
  continue: { matches: (path) => path.endsWith('.md') || path.endsWith('.prompt'), maxDepth: 8 },
  gemini: { matches: (path) => path.endsWith('.toml'), maxDepth: 8 },
  codex: { matches: (path) => path.endsWith('.md'), maxDepth: 8 },
  speckit: { matches: (path) => !path.includes('/') && path.endsWith('.md'), maxDepth: 1 },
  // `*.prompty` anywhere in a project would mean walking all of it: the top three levels are searched.
  prompty: { matches: (path) => path.endsWith('.prompty'), maxDepth: 3 },
};

const parsers: Readonly<Record<NativeFormat, (input: NativeFileInput) => NativeDefinition>> = {
  'claude-commands': (input) => parseDollarFormat('claude-commands', input),
  'claude-skills': (input) => parseDollarFormat('claude-skills', input),
  codex: (input) => parseDollarFormat('codex', input),
  speckit: (input) => parseDollarFormat('speckit', input),
  copilot: parseCopilotFormat,
  continue: parseContinueFormat,
  gemini: parseGeminiFormat,
  prompty: parsePromptyFormat,
};

/**
 * Files under `dir` that the layout takes, sorted so that names and conflicts are deterministic.
 * Symlinks follow the policy (see scan-folder.ts): a folder link is walked only when it leads
 * outside and that is allowed (a symlinked skill folder, say).
 */
const listFiles = async (dir: string, layout: Layout, symlinks: SymlinkPolicy): Promise<string[]> => {
  const found: string[] = [];
  const followed = new Set<string>();
  const visitLink = async (path: string, depth: number): Promise<void> => {
    const takes = layout.matches(toPosixRelative(dir, path));
    const link = await symlinks.admit(path, (kind) => (kind === 'folder' ? depth + 1 < layout.maxDepth : takes));
    if (link?.kind === 'file') {
      found.push(path);
    } else if (link?.external === true && !followed.has(link.real)) {
      followed.add(link.real);
      await visit(path, depth + 1);
    }
  };
  const visit = async (folder: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth + 1 < layout.maxDepth) folders.push(visit(path, depth + 1));
      } else if (entry.isSymbolicLink()) {
        folders.push(visitLink(path, depth));
      } else if (entry.isFile() && layout.matches(toPosixRelative(dir, path))) {
        found.push(path);
      }
    }
    await Promise.all(folders);
  };
  await visit(dir, 0);
  return found.sort();
};

/** The prompts a tool keeps in its own format, read in that format's own placeholder dialect. */
export const createNativePromptSource = (options: NativePromptSourceOptions): NativePromptSource => {
  const dir = resolve(options.dir);
  const root = resolve(options.root ?? dir);
  const prefix = options.prefix ?? '';
  const maxFileBytes = options.maxFileBytes ?? 100 * 1024;
  const logger = options.logger ?? createLogger({ level: 'warning', scope: 'promptyard:prompts' });
  const layout = layouts[options.format];
  const parse = parsers[options.format];
  const followExternal = options.followExternalSymlinks ?? false;
  const symlinks = createSymlinkPolicy({ root: dir, followExternal, logger });

  const inspect = async (): Promise<NativeInspection> => {
    const files = await listFiles(dir, layout, symlinks);
    const problems: NativeProblem[] = [];
    const results = await mapLimit(files, 16, async (file): Promise<PromptEntry | undefined> => {
      const read = await readPromptText(file, maxFileBytes).catch((error: unknown) => ({ kind: 'error' as const, error }));
      if (read.kind === 'too-large') {
        problems.push({ file, severity: 'error', message: `the file is over the limit of ${maxFileBytes} bytes` });
        return undefined;
      }
      if (read.kind !== 'text') {
        if (read.kind === 'error') problems.push({ file, severity: 'error', message: `cannot read the file: ${String(read.error)}` });
        return undefined;
      }
      const source = toPosixRelative(dir, file);
      try {
        const text = read.text.replace(/\r\n/g, '\n');
        const definition = parse({ text, file, path: source, jinja: options.jinja });
        for (const placeholder of definition.unfilled ?? []) {
          const line = placeholderLine(text, placeholder);
          problems.push({
            file,
            severity: 'warning',
            message: `placeholder ${placeholder} is not one Promptyard can fill; it reaches the model as written`,
            ...(line === undefined ? {} : { line }),
          });
        }
        const used = new Set(definition.sections.flatMap((section) => section.variables));
        for (const name of definition.declared) {
          if (!used.has(name))
            problems.push({ file, severity: 'warning', message: `input "${name}" is declared but the prompt never uses it` });
        }
        if (definition.declared.length > 0) {
          const declared = new Set(definition.declared);
          for (const name of used) {
            if (!declared.has(name) && name !== freeTextName)
              problems.push({ file, severity: 'warning', message: `"${name}" is used but not declared in inputs` });
          }
        }
        return createNativeEntry({ format: options.format, definition, file, source, prefix, root, maxFileBytes, followExternal });
      } catch (error) {
        const { reason, line } = fileErrorDetails(error);
        problems.push({ file, severity: 'error', message: reason, ...(line === undefined ? {} : { line }) });
        return undefined;
      }
    });
    const entries = results.filter((entry) => entry !== undefined);
    // Files are read concurrently: order the problems as the files are ordered.
    const order = new Map(files.map((file, index) => [file, index]));
    problems.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
    return { entries, problems };
  };

  // What each served prompt looked like, to report only the prompts a change touched.
  const signature = (entry: PromptEntry): string => JSON.stringify([entry.title, entry.description, entry.arguments, entry.text]);
  let served = new Map<string, string>();
  let watcher: FolderWatcher | undefined;
  const load = async (): Promise<readonly PromptEntry[]> => {
    const { entries, problems } = await inspect();
    for (const problem of problems) {
      if (problem.severity === 'error')
        logger.warn('invalid prompt file; skipping it', { file: problem.file, line: problem.line, reason: problem.message });
      else logger.debug(problem.message, { file: problem.file });
    }
    served = new Map(entries.map((entry) => [entry.name, signature(entry)]));
    return entries;
  };

  return {
    id: dir,
    format: options.format,
    dir,
    prefix,
    inspect,
    load,
    watch: async (onChange) => {
      if (options.format === 'prompty' || watcher !== undefined) return;
      const current = startFolderWatcher({
        dir,
        debounceMs: options.debounceMs ?? 25,
        logger,
        isPromptFile: (path) => /\.(md|toml|prompt)$/i.test(path),
        onBatch: async () => {
          const before = served;
          const entries = await load();
          const upserted = entries.filter((entry) => !before.has(entry.name) || before.get(entry.name) !== signature(entry));
          const removed = [...before.keys()].filter((name) => !served.has(name));
          if (current.isActive() && (upserted.length > 0 || removed.length > 0)) onChange({ upserted, removed });
        },
      });
      watcher = current;
      await current.ready;
      if (current.isActive()) logger.info('watching', { dir });
    },
    close: async () => {
      const current = watcher;
      watcher = undefined;
      await current?.close();
    },
  };
};
