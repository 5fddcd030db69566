import { isAbsolute, relative, sep } from 'node:path';

/** Hidden entries (`.git`, `.DS_Store`) and dependency folders never hold prompts. */
export const isIgnoredName = (name: string): boolean => name.startsWith('.') || name === 'node_modules';

/** Whether `path` lies under `root` in a hidden or `node_modules` folder (or is such an entry). */
export const isIgnoredPath = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
  return rel.split(sep).some(isIgnoredName);
};

/** Whether `path` is `folder` or lies inside it. */
export const isInside = (folder: string, path: string): boolean =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** A path relative to `root` with `/` between folders, whatever the platform. */
export const toPosixRelative = (root: string, path: string): string => {
  // Paths built by joining onto `root` need no resolving: a slice is enough (and much cheaper).
  const rel = path.startsWith(root) && path[root.length] === sep ? path.slice(root.length + 1) : relative(root, path);
  return sep === '/' ? rel : rel.split(sep).join('/');
};
