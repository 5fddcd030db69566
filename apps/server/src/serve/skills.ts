import { describeError } from '@promptyard/core';
import type { Logger, SkillTree } from '@promptyard/core';
import { createSkillTree } from '@promptyard/prompts';
import type { ResolvedConfig } from '../config.js';

/** The skill folders served through the MCP skills extension, and who hears of their changes. */
export interface ServedSkills {
  readonly tree: SkillTree;
  /** The handlers' hook: `listener` runs after each batch of changes to the skill files. */
  onChanged(listener: () => void): void;
  /** Hot reload (`[prompts] watch`): tells every listener of a change. */
  watch(): void;
}

/** `[skills] folders` (or the discovered ones) as one tree; undefined when there are none. */
export const createServedSkills = (
  config: ResolvedConfig['config'],
  folders: readonly string[],
  logger: Logger,
): ServedSkills | undefined => {
  if (folders.length === 0) return undefined;
  const tree = createSkillTree({
    folders,
    followExternalSymlinks: config.prompts.follow_external_symlinks,
    maxFileBytes: config.limits.max_file_bytes,
    debounceMs: config.prompts.debounce_ms,
    logger: logger.child('skills'),
  });
  const listeners: (() => void)[] = [];
  return {
    tree,
    onChanged: (listener) => void listeners.push(listener),
    watch: () => {
      tree
        .watch?.(() => listeners.forEach((listener) => listener()))
        .then(
          () => logger.info('watching skills', { folders: tree.id }),
          (error: unknown) => logger.warn('hot reload is off for skills', { folders: tree.id, reason: describeError(error) }),
        );
    },
  };
};
