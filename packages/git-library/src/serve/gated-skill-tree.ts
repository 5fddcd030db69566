/**
 * Skills over git checkouts: reads of the skill tree pass the gates of the git sources among its
 * folders (a read waits for a move, and is then answered from the new version), and each skill
 * served from a checkout names its commit.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillTree } from '@promptyard/core';
import type { GitMeta, GitSourceHandle, SwapGate } from '../types.js';

/** Runs `task` holding every gate (shared), in order. */
const throughGates = <T>(gates: readonly SwapGate[], task: () => Promise<T>): Promise<T> =>
  gates.reduceRight<() => Promise<T>>((inner, gate) => () => gate.shared(inner), task)();

/** `tree` with its reads passing the gates of `handles` (the git sources among its folders). */
export const gateSkillTree = (tree: SkillTree, handles: readonly GitSourceHandle[]): SkillTree => {
  if (handles.length === 0) return tree;
  const gates = handles.map((handle) => handle.gate);
  return {
    id: tree.id,
    list: (dir) => throughGates(gates, () => tree.list(dir)),
    read: (path) => throughGates(gates, () => tree.read(path)),
    ...(tree.watch === undefined ? {} : { watch: tree.watch.bind(tree) }),
    ...(tree.close === undefined ? {} : { close: tree.close.bind(tree) }),
  };
};

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/**
 * The git `_meta` of a skill by name: the first of `folders` (the tree's, in order) holding it decides,
 * as the tree does; undefined for a skill served from a plain folder.
 */
export const skillMetaOf =
  (folders: readonly string[], handles: readonly GitSourceHandle[]) =>
  (skill: string): GitMeta | undefined => {
    for (const folder of folders) {
      const manifest = join(folder, skill, 'SKILL.md');
      if (!isFile(manifest)) continue;
      return handles.find((handle) => handle.dir === folder)?.metaOf(manifest);
    }
    return undefined;
  };
