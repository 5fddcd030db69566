import { realpath, stat } from 'node:fs/promises';
import { isPathInside, type Logger } from '@promptyard/core';

/** What a symlink may be taken as; `external` when it leads outside the folder (and that is allowed). */
interface AdmittedLink {
  readonly kind: 'file' | 'folder';
  readonly real: string;
  readonly external: boolean;
}

/**
 * The rule for symlinks inside a prompt folder: one that really leads inside the folder is fine;
 * one that leads outside is skipped with one warning (a link to `/etc/passwd` would otherwise be
 * served), unless external links are allowed. Only entries known to be symlinks are asked about,
 * so a folder of plain files costs no extra system call.
 */
export interface SymlinkPolicy {
  readonly root: string;
  readonly followExternal: boolean;
  /**
   * What the symlink at `path` leads to, or undefined to skip it: dangling, escaping, or of a kind
   * the caller does not `want` (a link to a file that is no prompt is skipped without a word).
   */
  admit(path: string, wants?: (kind: AdmittedLink['kind']) => boolean): Promise<AdmittedLink | undefined>;
}

export interface SymlinkPolicyOptions {
  readonly root: string;
  /** `[prompts] follow_external_symlinks`. */
  readonly followExternal: boolean;
  readonly logger: Logger;
}

export const createSymlinkPolicy = (options: SymlinkPolicyOptions): SymlinkPolicy => {
  const { root, followExternal, logger } = options;
  let realRoot: Promise<string> | undefined;
  // One warning per link, however often a reload meets it again.
  const warned = new Set<string>();
  const skip = (path: string, message: string, target: string): undefined => {
    if (!warned.has(path)) {
      warned.add(path);
      logger.warn(message, { path, target, folder: root });
    }
    return undefined;
  };
  return {
    root,
    followExternal,
    admit: async (path, wants) => {
      realRoot ??= realpath(root).catch(() => root);
      const [rootReal, real, info] = await Promise.all([
        realRoot,
        realpath(path).catch(() => undefined),
        stat(path).catch(() => undefined),
      ]);
      if (real === undefined || info === undefined) return undefined;
      const kind = info.isDirectory() ? 'folder' : info.isFile() ? 'file' : undefined;
      if (kind === undefined || (wants !== undefined && !wants(kind))) return undefined;
      if (isPathInside(rootReal, real)) {
        warned.delete(path);
        return { kind, real, external: false };
      }
      if (!followExternal) {
        return skip(
          path,
          'skipping a symlink that leads outside the prompt folder; set [prompts] follow_external_symlinks = true to serve it',
          real,
        );
      }
      // A link to `..` or `/` would walk the whole disk, the prompt folder included.
      if (kind === 'folder' && isPathInside(real, rootReal))
        return skip(path, 'skipping a symlink to a folder that holds the prompt folder itself', real);
      return { kind, real, external: true };
    },
  };
};
