import type { SkillTree, SkillTreeEntry } from '@promptyard/core';

/** For tests: a skill tree over a record of files (`review/SKILL.md` → text), as packages/prompts serves folders. */
export const memoryTree = (files: Readonly<Record<string, string>>): SkillTree => ({
  id: 'memory',
  list: async (dir) => {
    const prefix = dir === '' ? '' : `${dir}/`;
    const children = new Map<string, SkillTreeEntry>();
    for (const path of Object.keys(files)) {
      if (!path.startsWith(prefix)) continue;
      const [name, ...rest] = path.slice(prefix.length).split('/');
      if (name !== undefined) children.set(name, { name, kind: rest.length > 0 ? 'directory' : 'file' });
    }
    if (children.size === 0 && dir !== '') throw new Error(`no folder ${dir}`);
    return [...children.values()];
  },
  read: async (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`no file ${path}`);
    return new TextEncoder().encode(text);
  },
});
