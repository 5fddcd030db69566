import { constants, type Dirent } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, resolveInside, type SkillTreeEntry } from '@promptyard/core';
import { isIgnoredName } from '../folder/ignore.js';
import type { WarnOnce } from './warn-once.js';

const isReadable = (path: string): Promise<boolean> =>
  access(path, constants.R_OK).then(
    () => true,
    () => false,
  );

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isFile() === true;

/**
 * Skill name → its folder: every folder holding a SKILL.md in `folders`, in order, the first of a
 * name winning. A skill folder that is a symlink leading outside is left out unless allowed.
 */
export const findSkills = async (folders: readonly string[], followExternal: boolean, warnOnce: WarnOnce): Promise<Map<string, string>> => {
  const found = new Map<string, string>();
  for (const folder of folders) {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => [] as Dirent[]);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (isIgnoredName(entry.name) || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
      const dir = join(folder, entry.name);
      if (entry.isSymbolicLink() && !followExternal && (await resolveInside(folder, dir)) === undefined) {
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
  return found;
};

/**
 * The entries of a folder inside a skill (`real`, already inside `skillDir`): links that lead out of
 * the skill, files over the size limit and unreadable files are left out with a warning.
 */
export const listSkillFolder = async (
  skillDir: string,
  real: string,
  maxFileBytes: number,
  warnOnce: WarnOnce,
): Promise<SkillTreeEntry[]> => {
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
