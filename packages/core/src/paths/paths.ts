/**
 * Path containment, written once because it is a security check: whatever a user or a file names
 * (`@path` references, template partials, files inside a watched folder) must stay inside its root.
 */
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is `root` or lies inside it, by name only (`..` resolved, symlinks not followed). */
export const isPathInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** Where a path really leads: its real path, and whether that lies inside the real root. */
export interface RealLocation {
  readonly real: string;
  readonly inside: boolean;
}

/**
 * The real path of `path` (symlinks resolved) and whether it lies inside the real `root`;
 * `undefined` when it does not exist. `path` itself must lie inside `root` by name: `..` never counts.
 */
export const locateReal = async (root: string, path: string): Promise<RealLocation | undefined> => {
  if (!isPathInside(root, path)) return undefined;
  try {
    const [realRoot, real] = await Promise.all([realpath(root), realpath(path)]);
    return { real, inside: isPathInside(realRoot, real) };
  } catch {
    return undefined;
  }
};

/**
 * The real path of `path` (symlinks resolved) when it exists and really lies inside the real `root`;
 * `undefined` when it does not exist or escapes (a symlink that points outside).
 */
export const resolveInside = async (root: string, path: string): Promise<string | undefined> => {
  const location = await locateReal(root, path);
  return location?.inside === true ? location.real : undefined;
};

/** `resolveInside` for synchronous callers (a template engine's file lookup). */
export const resolveInsideSync = (root: string, path: string): string | undefined => {
  if (!isPathInside(root, path)) return undefined;
  try {
    const real = realpathSync(path);
    return isPathInside(realpathSync(root), real) ? real : undefined;
  } catch {
    return undefined;
  }
};
