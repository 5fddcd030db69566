import { relative, sep } from 'node:path';
import { isPathInside } from '@promptyard/core';

/** Hidden entries (`.git`, `.DS_Store`) and dependency folders never hold prompts. */
export const isIgnoredName = (name: string): boolean => name.startsWith('.') || name === 'node_modules';

/** Whether `path` lies under `root` in a hidden or `node_modules` folder (or is such an entry). */
export const isIgnoredPath = (root: string, path: string): boolean => {
  if (path === root || !isPathInside(root, path)) return false;
  return relative(root, path).split(sep).some(isIgnoredName);
};

/** A path relative to `root` with `/` between folders, whatever the platform. */
export const toPosixRelative = (root: string, path: string): string => {
  // Paths built by joining onto `root` need no resolving: a slice is enough (and much cheaper).
  const rel = path.startsWith(root) && path[root.length] === sep ? path.slice(root.length + 1) : relative(root, path);
  return sep === '/' ? rel : rel.split(sep).join('/');
};
