import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isIgnoredName, toPosixRelative } from '../folder/ignore.js';
import type { SymlinkPolicy } from '../folder/symlinks.js';
import type { NativeFormat } from './native-definition.js';

/** Where a format keeps its prompt files inside its folder. */
interface Layout {
  readonly matches: (relative: string) => boolean;
  readonly maxDepth: number;
}

const layouts: Readonly<Record<NativeFormat, Layout>> = {
  'claude-commands': { matches: (path) => path.endsWith('.md'), maxDepth: 8 },
  'claude-skills': { matches: (path) => /^[^/]+\/SKILL\.md$/.test(path), maxDepth: 2 },
  copilot: { matches: (path) => path.endsWith('.prompt.md'), maxDepth: 8 },
  continue: { matches: (path) => path.endsWith('.md') || path.endsWith('.prompt'), maxDepth: 8 },
  gemini: { matches: (path) => path.endsWith('.toml'), maxDepth: 8 },
  codex: { matches: (path) => path.endsWith('.md'), maxDepth: 8 },
  speckit: { matches: (path) => !path.includes('/') && path.endsWith('.md'), maxDepth: 1 },
  // `*.prompty` anywhere in a project would mean walking all of it: the top three levels are searched.
  prompty: { matches: (path) => path.endsWith('.prompty'), maxDepth: 3 },
};

/**
 * Files under `dir` that the format's layout takes, sorted so that names and conflicts are
 * deterministic. Symlinks follow the policy (see ../folder/scan-folder.ts): a folder link is walked
 * only when it leads outside and that is allowed (a symlinked skill folder, say).
 */
export const listNativeFiles = async (dir: string, format: NativeFormat, symlinks: SymlinkPolicy): Promise<string[]> => {
  const layout = layouts[format];
  const found: string[] = [];
  const followed = new Set<string>();
  const visitLink = async (path: string, depth: number): Promise<void> => {
    const takes = layout.matches(toPosixRelative(dir, path));
    const link = await symlinks.admit(path, (kind) => (kind === 'folder' ? depth + 1 < layout.maxDepth : takes));
    if (link?.kind === 'file') {
      found.push(path);
    } else if (link?.external === true && !followed.has(link.real)) {
      followed.add(link.real);
      await visit(path, depth + 1);
    }
  };
  const visit = async (folder: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth + 1 < layout.maxDepth) folders.push(visit(path, depth + 1));
      } else if (entry.isSymbolicLink()) {
        folders.push(visitLink(path, depth));
      } else if (entry.isFile() && layout.matches(toPosixRelative(dir, path))) {
        found.push(path);
      }
    }
    await Promise.all(folders);
  };
  await visit(dir, 0);
  return found.sort();
};
