/**
 * Agent Skills: folders of skill folders (`<folder>/<skill>/SKILL.md`) as one `SkillTree` with hot
 * reload, every path kept inside its skill folder's real path.
 */
import { constants, type Dirent } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describeError, PromptyardError, resolveInside } from '@promptyard/core';
import type { Logger, SkillTree, SkillTreeEntry } from '@promptyard/core';
import { startFolderWatcher, type FolderWatcher } from '../folder/folder-watcher.js';
import { isIgnoredName } from '../folder/ignore.js';

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
  const warned = new Set<string>();
  const warnOnce = (message: string, fields: Readonly<Record<string, string | number>>): void => {
    const key = `${message} ${JSON.stringify(fields)}`;
    if (warned.has(key)) return;
    warned.add(key);
    logger.warn(message, fields);
  };

  const isReadable = (path: string): Promise<boolean> =>
    access(path, constants.R_OK).then(
      () => true,
      () => false,
    );
  const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isFile() === true;

  const listRoot = async (): Promise<SkillTreeEntry[]> => {
    const found = new Map<string, string>();
    for (const folder of folders) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => [] as Dirent[]);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (isIgnoredName(entry.name) || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
        const dir = join(folder, entry.name);
        if (entry.isSymbolicLink() && options.followExternalSymlinks !== true && (await resolveInside(folder, dir)) === undefined) {
          warnOnce(
            'skill folder skipped: it is a symlink that leads outside its folder; copy the skill in or set [prompts] follow_external_symlinks = true',
            { skill: dir },
          );
          continue;
        }
        if (!(await isFile(join(dir, 'SKILL.md')))) continue;
        const first = found.get(entry.name);
        if (first !== undefined) {
          warnOnce('duplicate skill name: the first folder wins', { skill: entry.name, served: first, ignored: dir });
          continue;
        }
        found.set(entry.name, dir);
      }
    }
    skills = found;
    return [...found.keys()].map((name) => ({ name, kind: 'directory' as const }));
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
    const children: SkillTreeEntry[] = [];
    const entries = await readdir(real, { withFileTypes: true }).catch((error: unknown) => {
      warnOnce('skill folder left out: it cannot be read', { folder: real, reason: describeError(error) });
      return [] as Dirent[];
    });
    for (const entry of entries) {
      const path = join(real, entry.name);
      const inside = entry.isSymbolicLink() ? await resolveInside(skillDir, path) : path;
      if (inside === undefined) {
        warnOnce('skill file skipped: it is a symlink that leads outside its skill folder; copy the file instead', { file: path });
        continue;
      }
      const info = await stat(inside).catch(() => undefined);
      if (info?.isDirectory() === true) children.push({ name: entry.name, kind: 'directory' });
      else if (info?.isFile() !== true) continue;
      else if (info.size > maxFileBytes)
        warnOnce('skill file skipped: larger than [limits] max_file_bytes', { file: path, bytes: info.size, limit: maxFileBytes });
      else if (!(await isReadable(inside))) warnOnce('skill file skipped: it cannot be read', { file: path });
      else children.push({ name: entry.name, kind: 'file' });
    }
    return children;
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
