/**
 * The folder tree behind hot reload: one `fs.watch` handle per folder, never per file (a folder's
 * handle reports every change to the files in it, by name). The tree is found by reading folders
 * only, with their entries' types and no stat per file: on 10,000 prompts in 111 folders chokidar's
 * walk, which stats every entry, cost ~1 s of CPU at start-up and ~20 MB of resident memory
 * (bench/README.md).
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

export interface FolderTreeEvents {
  /** A name in a watched folder was created, written, removed or renamed. */
  changed(path: string): void;
  /** A folder to read again: it appeared (and is watched now, with what is under it), or fs.watch could not say what changed in it. */
  rescan(folder: string): void;
  /** A watched folder went away (its handles, and those under it, are closed). */
  removed(folder: string): void;
  /** Watching failed (EMFILE, ENOSPC, EACCES…): the caller stops. */
  failed(error: unknown): void;
}

export interface FolderTreeWatch {
  /** Settles once every folder found at the start is watched. */
  readonly ready: Promise<void>;
  close(): void;
}

interface Handle {
  readonly watcher: FSWatcher;
  /** The folder's inode: a folder removed and made again under the same name is another folder. */
  readonly ino: number;
}

const isGone = (error: unknown): boolean => {
  const code = (error as { readonly code?: unknown } | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** Watches `root` and every folder under it that `isIgnored` does not exclude; symbolic links are not followed. */
export const watchFolderTree = (root: string, isIgnored: (path: string) => boolean, events: FolderTreeEvents): FolderTreeWatch => {
  const handles = new Map<string, Handle>();
  let closed = false;

  const closeUnder = (folder: string): void => {
    for (const [path, handle] of handles) {
      if (path !== folder && !path.startsWith(folder + sep)) continue;
      handle.watcher.close();
      handles.delete(path);
    }
  };

  const fail = (error: unknown): void => {
    if (closed) return;
    events.failed(error);
  };

  /** Watches one folder; false when it is ignored, already watched, gone or failed. */
  const add = async (folder: string): Promise<boolean> => {
    if (closed || handles.has(folder) || isIgnored(folder)) return false;
    try {
      const { ino } = await lstat(folder);
      if (closed || handles.has(folder)) return false;
      const watcher = watch(folder, { persistent: true }, (type, name) => noticed(folder, type, name));
      watcher.on('error', (error) => void lost(folder, error));
      handles.set(folder, { watcher, ino });
      return true;
    } catch (error) {
      if (!isGone(error)) fail(error);
      return false;
    }
  };

  /** Watches `folder` and the folders under it. */
  const walk = async (folder: string): Promise<void> => {
    if (!(await add(folder))) return;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.filter((entry) => entry.isDirectory()).map((entry) => walk(join(folder, entry.name))));
  };

  /** A name that was created, removed or renamed may be a folder that appeared, went away or was replaced. */
  const checkFolder = async (path: string): Promise<void> => {
    const stats = await lstat(path).catch(() => undefined);
    const known = handles.get(path);
    if (closed) return;
    if (known !== undefined && stats?.isDirectory() === true && stats.ino === known.ino) return;
    if (known !== undefined) {
      closeUnder(path);
      events.removed(path);
    }
    if (stats?.isDirectory() !== true) return;
    await walk(path);
    // Files written into it before its handle existed are found by reading it.
    if (!closed && handles.has(path)) events.rescan(path);
  };

  const noticed = (folder: string, type: string, name: string | Buffer | null): void => {
    if (closed) return;
    if (name === null) {
      events.rescan(folder);
      return;
    }
    const path = join(folder, name.toString());
    events.changed(path);
    if (type === 'rename' || handles.has(path)) void checkFolder(path);
  };

  /** A handle failed: its folder went away (reported once by its parent too), or watching failed. */
  const lost = async (folder: string, error: unknown): Promise<void> => {
    const stats = await lstat(folder).catch(() => undefined);
    if (stats?.isDirectory() === true) fail(error);
    else if (handles.has(folder)) {
      closeUnder(folder);
      if (!closed) events.removed(folder);
    }
  };

  return {
    ready: walk(root),
    close: () => {
      closed = true;
      closeUnder(root);
    },
  };
};
