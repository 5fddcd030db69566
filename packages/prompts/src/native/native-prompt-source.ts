/**
 * Other tools' prompt files (Claude Code, Copilot, Continue, Gemini CLI, Codex, spec-kit, Prompty):
 * the source over a folder of them (this file), each format's definition and parser, the placeholder
 * dialects that turn their inputs into arguments, file references, and MCP-safe prompt names.
 */
import { resolve } from 'node:path';
import {
  createLogger,
  type DiagnosticSink,
  type Logger,
  type PromptEntry,
  type PromptSource,
  type PromptSourceDelta,
  type TemplateEngine,
} from '@promptyard/core';
import { startFolderWatcher, type FolderWatcher } from '../folder/folder-watcher.js';
import { createSymlinkPolicy } from '../folder/symlinks.js';
import type { NativeFormat } from './native-definition.js';
import { inspectNativeFolder, type NativeFolder, type NativeInspection, type NativeProblem } from './native-inspection.js';

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
  /** Renders Prompty bodies whose `template` is `mustache`. */
  readonly mustache?: TemplateEngine;
  readonly maxFileBytes?: number;
  readonly logger?: Logger;
  /** Receives every problem a load finds (the ones `inspect()` returns), beside the log. */
  readonly diagnostics?: DiagnosticSink;
  /** Quiet period before changed files are re-read; 25 ms by default. */
  readonly debounceMs?: number;
  /** Serve symlinks (and `@path` files) that lead outside the folder; off by default. */
  readonly followExternalSymlinks?: boolean;
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
  /** Loads the whole folder again (whatever `paths` changed) and says which prompts changed. */
  reload(paths?: readonly string[]): Promise<PromptSourceDelta>;
  /**
   * Hot reload: a change reloads the whole folder (native folders are small) and reports what
   * changed. Prompty's folder is the project itself, too large to watch: it is read at start-up only.
   */
  watch(onChange: (delta: PromptSourceDelta) => void): Promise<void>;
  close(): Promise<void>;
}

/** What a served prompt looked like, to report only the prompts a change touched. */
const signature = (entry: PromptEntry): string => JSON.stringify([entry.title, entry.description, entry.arguments, entry.text]);

/** A load's problems: files that do not load and likely typos as warnings, the rest for debugging. */
const logProblems = (logger: Logger, problems: readonly NativeProblem[]): void => {
  for (const problem of problems) {
    if (problem.severity === 'error')
      logger.warn('invalid prompt file; skipping it', { file: problem.file, line: problem.line, reason: problem.message });
    else if (problem.code === 'unknown-key') logger.warn(problem.message, { file: problem.file, line: problem.line });
    else logger.debug(problem.message, { file: problem.file });
  }
};

/** The prompts a tool keeps in its own format, read in that format's own placeholder dialect. */
export const createNativePromptSource = (options: NativePromptSourceOptions): NativePromptSource => {
  const dir = resolve(options.dir);
  const root = resolve(options.root ?? dir);
  const prefix = options.prefix ?? '';
  const maxFileBytes = options.maxFileBytes ?? 100 * 1024;
  const logger = options.logger ?? createLogger({ level: 'warning', scope: 'promptyard:prompts' });
  const followExternal = options.followExternalSymlinks ?? false;
  const folder: NativeFolder = {
    format: options.format,
    dir,
    root,
    prefix,
    jinja: options.jinja,
    ...(options.mustache === undefined ? {} : { mustache: options.mustache }),
    maxFileBytes,
    followExternal,
    symlinks: createSymlinkPolicy({ root: dir, followExternal, logger }),
  };
  const inspect = (): Promise<NativeInspection> => inspectNativeFolder(folder);

  let served = new Map<string, string>();
  let watcher: FolderWatcher | undefined;
  const load = async (): Promise<readonly PromptEntry[]> => {
    const { entries, problems } = await inspect();
    logProblems(logger, problems);
    for (const problem of problems) options.diagnostics?.(problem);
    served = new Map(entries.map((entry) => [entry.name, signature(entry)]));
    return entries;
  };
  /** Loads the folder again and says which prompts changed (native folders are small: no per-file index). */
  const reload = async (): Promise<PromptSourceDelta> => {
    const before = served;
    const entries = await load();
    const upserted = entries.filter((entry) => !before.has(entry.name) || before.get(entry.name) !== signature(entry));
    return { upserted, removed: [...before.keys()].filter((name) => !served.has(name)) };
  };

  return {
    id: dir,
    format: options.format,
    dir,
    prefix,
    inspect,
    load,
    reload,
    watch: async (onChange) => {
      if (options.format === 'prompty' || watcher !== undefined) return;
      const current = startFolderWatcher({
        dir,
        debounceMs: options.debounceMs ?? 25,
        logger,
        isPromptFile: (path) => /\.(md|toml|prompt)$/i.test(path),
        onBatch: async () => {
          const delta = await reload();
          if (current.isActive() && (delta.upserted.length > 0 || delta.removed.length > 0)) onChange(delta);
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
