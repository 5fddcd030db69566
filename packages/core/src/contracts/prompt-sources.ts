import type { PromptEntry } from './types.js';

/**
 * The prompt-source contract: where prompts come from (a folder of Markdown files, a tool's own
 * command folder, a package of shared prompts). The server puts what `load` returns in its catalog,
 * in source order: on a name clash the earlier source wins and the clash is logged.
 */

/** What one batch of changes did to a source's prompts. */
export interface PromptSourceDelta {
  readonly upserted: readonly PromptEntry[];
  /** Names of prompts that are gone. */
  readonly removed: readonly string[];
  /** Files of the batch that did not load (each logged; a prompt served before keeps its last good version). */
  readonly failed?: number;
}

export interface PromptSource {
  /** What the source reads (a folder, a package name), for logs and clash reports. */
  readonly id: string;
  /** Every prompt of the source; a file that does not load is logged and skipped, not thrown. */
  load(): Promise<readonly PromptEntry[]>;
  /** Hot reload, when the source can change: report changes until `close`. Resolves once watching. */
  watch?(onChange: (delta: PromptSourceDelta) => void): Promise<void>;
  /**
   * Re-reads the given changed paths now (absolute; files or folders, present or gone) and says what
   * changed: for a source whose folder its owner moves (a git checkout) instead of watching it.
   */
  reload?(paths: readonly string[]): Promise<PromptSourceDelta>;
  /** Stops watching and releases what the source holds. */
  close?(): Promise<void>;
}
