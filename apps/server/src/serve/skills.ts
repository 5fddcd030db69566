import { describeError } from '@promptyard/core';
import type { Logger, SkillTree } from '@promptyard/core';
import { gateSkillTree, gitMetaKey, skillMetaOf } from '@promptyard/git-library';
import type { GitSourceHandle } from '@promptyard/git-library';
import { createSkillTree } from '@promptyard/prompts';
import type { ResolvedConfig } from '../config.js';

/** The skill folders served through the MCP skills extension, and who hears of their changes. */
export interface ServedSkills {
  readonly tree: SkillTree;
  /** A skill's `_meta` keys: where a skill served from a git library comes from (repository, commit, path). */
  readonly metaOf: (skill: string) => Readonly<Record<string, unknown>> | undefined;
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
  git: readonly GitSourceHandle[] = [],
): ServedSkills | undefined => {
  if (folders.length === 0) return undefined;
  const fromGit = git.filter((handle) => handle.config.kind === 'skills');
  const plain = createSkillTree({
    folders,
    followExternalSymlinks: config.prompts.follow_external_symlinks,
    maxFileBytes: config.limits.max_file_bytes,
    debounceMs: config.prompts.debounce_ms,
    logger: logger.child('skills'),
  });
  // Reads pass the git libraries' gates; a new version of one is a change like a saved file.
  const tree = gateSkillTree(plain, fromGit);
  const listeners: (() => void)[] = [];
  const changed = (): void => listeners.forEach((listener) => listener());
  for (const handle of fromGit) handle.onVersion(async () => changed());
  return {
    tree,
    metaOf: (skill) => {
      const meta = skillMetaOf(folders, fromGit)(skill);
      return meta === undefined ? undefined : { [gitMetaKey]: meta };
    },
    onChanged: (listener) => void listeners.push(listener),
    watch: () => {
      tree.watch?.(changed).then(
        () => logger.info('watching skills', { folders: tree.id }),
        (error: unknown) => logger.warn('hot reload is off for skills', { folders: tree.id, reason: describeError(error) }),
      );
    },
  };
};
