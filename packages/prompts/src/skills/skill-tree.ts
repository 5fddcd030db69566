/**
 * Agent Skills: folders of skill folders (`<folder>/<skill>/SKILL.md`) as one `SkillTree` with hot
 * reload (this file), every path kept inside its skill folder's real path; the walks that find the
 * skills and list a skill's files, and the warnings they give once.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { PromptyardError, resolveInside } from '@promptyard/core';
import type { Logger, SkillTree, SkillTreeEntry } from '@promptyard/core';
import { startFolderWatcher, type FolderWatcher } from '../folder/folder-watcher.js';
import { findSkills, listSkillFolder } from './skill-folders.js';
import { createWarnOnce } from './warn-once.js';

export interface SkillTreeOptions {
  /** Folders of skill folders (`<folder>/<skill>/SKILL.md`), in order: on a name clash the first wins. */
  readonly folders: readonly string[];
  /** Larger files are left out of their skill with a warning, as prompt files are. */
  readonly maxFileBytes: number;
  readonly debounceMs: number;
  readonly logger: Logger;
  /**
   * `[prompts] follow_external_symlinks`: a skill folder that is a symlink leading outside its
   * folder is served (its files must still stay inside the folder it leads to).
   */
  readonly followExternalSymlinks?: boolean;
}

const segmentsOf = (path: string): string[] => {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new PromptyardError('INVALID_REQUEST', `skill path "${path}" must not contain ".."`);
  return segments;
};

/** Skill files change names' meaning only when they have an extension or are folders (see startFolderWatcher). */
const isSkillFile = (path: string): boolean => basename(path).includes('.');

/**
 * Skill folders from several folders as one `SkillTree`, the shape the skills extension serves. Every
 * path is checked against the real path of its skill folder (`resolveInside`): a symlink that leads
 * out of the skill, a `..`, or a file over the size limit is never listed nor read.
 */
export const createSkillTree = (options: SkillTreeOptions): SkillTree => {
  const { folders, maxFileBytes, logger } = options;
  /** Skill name → its folder, from the last walk of the root. */
  let skills = new Map<string, string>();
  const warnOnce = createWarnOnce(logger);

  const listRoot = async (): Promise<SkillTreeEntry[]> => {
    skills = await findSkills(folders, options.followExternalSymlinks === true, warnOnce);
    return [...skills.keys()].map((name) => ({ name, kind: 'directory' as const }));
  };

  /** The real path of `segments` inside its skill folder; throws when there is none or it leaves the skill. */
  const locate = async (path: string, segments: readonly string[]): Promise<{ readonly skillDir: string; readonly real: string }> => {
    const [name, ...rest] = segments;
    // A skill added since the last walk (or no walk yet: the fallback tool asks first) is found by walking again.
    if (name !== undefined && !skills.has(name)) await listRoot();
    const skillDir = name === undefined ? undefined : skills.get(name);
    const real = skillDir === undefined ? undefined : await resolveInside(skillDir, join(skillDir, ...rest));
    if (skillDir === undefined || real === undefined)
      throw new PromptyardError('RESOURCE_NOT_FOUND', `no skill file "${path}" (or it leads outside its skill folder)`);
    return { skillDir, real };
  };

  const list = async (dir: string): Promise<SkillTreeEntry[]> => {
    const segments = segmentsOf(dir);
    if (segments.length === 0) return listRoot();
    const { skillDir, real } = await locate(dir, segments);
    if (!(await stat(real)).isDirectory()) throw new PromptyardError('RESOURCE_NOT_FOUND', `skill path "${dir}" is not a folder`);
    return listSkillFolder(skillDir, real, maxFileBytes, warnOnce);
  };

  const read = async (path: string): Promise<Uint8Array> => {
    const { real } = await locate(path, segmentsOf(path));
    const info = await stat(real);
    if (!info.isFile()) throw new PromptyardError('RESOURCE_NOT_FOUND', `skill file "${path}" is not a file`);
    if (info.size > maxFileBytes)
      throw new PromptyardError('INVALID_REQUEST', `skill file "${path}" is larger than [limits] max_file_bytes (${maxFileBytes})`);
    return new Uint8Array(await readFile(real));
  };

  let watchers: FolderWatcher[] = [];
  return {
    id: folders.join(', '),
    list,
    read,
    watch: async (onChange) => {
      watchers = folders.map((dir) =>
        startFolderWatcher({
          dir,
          debounceMs: options.debounceMs,
          logger,
          isPromptFile: isSkillFile,
          onBatch: async () => onChange(),
        }),
      );
      await Promise.all(watchers.map((watcher) => watcher.ready));
    },
    close: async () => {
      await Promise.all(watchers.map((watcher) => watcher.close()));
      watchers = [];
    },
  };
};
