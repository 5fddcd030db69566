import type { DiagnosticSink, Logger, PromptEntry, PromptSource, PromptSourceDelta, TemplateEngine } from '@promptyard/core';

export interface PromptFolderOptions {
  /** Absolute path of a prompt folder (or of a twig library). */
  readonly dir: string;
  /** Must contain `liquid` and `arguments`; may contain others (e.g. `plain`) for `engine:`. */
  readonly engines: Readonly<Record<string, TemplateEngine>>;
  /** Liquid with partials confined to a twig library; `engines.liquid` by default. */
  readonly createLibraryEngine?: (libraryRoot: string) => TemplateEngine;
  /** Larger files are skipped with a warning; 100 KiB by default. */
  readonly maxFileBytes?: number;
  readonly logger?: Logger;
  /**
   * Receives each problem found in a file (one that does not load, a likely typo, an argument
   * declared but unused, a duplicate name …) as a record; the log says the same to people.
   */
  readonly diagnostics?: DiagnosticSink;
  /** Quiet period before changed files are re-read; 25 ms by default. */
  readonly debounceMs?: number;
  /**
   * Serve files and folders whose symlinks lead outside `dir`, and embed such files; off by
   * default: such a link is skipped with one warning (`escape.md → /etc/passwd` is not served).
   */
  readonly followExternalSymlinks?: boolean;
}

/** What one batch of file changes did to the folder's prompts. */
export type PromptDelta = PromptSourceDelta;

export interface PromptFolderSource extends PromptSource {
  /** The folder, absolute; also the source's `id`. */
  readonly dir: string;
  /** Full load; invalid files are logged and skipped. */
  load(): Promise<readonly PromptEntry[]>;
  /** Re-reads the given changed paths (files or folders, present or gone) now, one batch, after `load()`. */
  reload(paths: readonly string[]): Promise<PromptDelta>;
  /** Starts hot reload; resolves once the watcher is ready. Call after `load()`. */
  watch(onChange: (delta: PromptDelta) => void): Promise<void>;
  /** Stops the watcher and pending timers. */
  close(): Promise<void>;
}
