import { readFileSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The files a Jinja template loads (`{% extends %}`, `{% include %}`, `{% import %}`), found as
 * Jinja2's FileSystemLoader finds them with two search paths: the prompt's own folder, then the
 * prompt root. Never outside the root (a symlink leading out is refused), never a hidden file
 * (`.env`), never over the size limit. Each file read is stamped, so a render can see cheaply whether any has changed since.
 */

export interface TemplateFolder {
  /** Searched in order. */
  readonly dirs: readonly string[];
  /** Real path of the prompt root. */
  readonly root: string;
  readonly maxFileBytes: number;
}

/** A path looked at while loading, with what it was then: undefined when there was no file. */
export interface FileStamp {
  readonly path: string;
  readonly stamp: string | undefined;
}

export interface TemplateFile {
  /** Real path, for cycles and messages. */
  readonly path: string;
  readonly text: string;
}

export const templateFolder = (file: string, root: string, maxFileBytes: number): TemplateFolder => {
  const realRoot = realpathSync(root);
  const own = path.dirname(path.resolve(file));
  const inside = !path.relative(path.resolve(root), own).startsWith('..');
  const dirs = inside && own !== path.resolve(root) ? [own, path.resolve(root)] : [path.resolve(root)];
  return { dirs, root: realRoot, maxFileBytes };
};

const stampOf = (info: { readonly mtimeMs: number; readonly size: number; readonly ino: number }): string =>
  `${info.mtimeMs}:${info.size}:${info.ino}`;

const isInside = (root: string, file: string): boolean => {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/**
 * The file a template name stands for, or undefined when no search path holds it; each path
 * looked at is added to `stamps`. Throws with what to do when the name or the file is refused.
 */
export const findTemplateFile = (name: string, folder: TemplateFolder, stamps: FileStamp[]): TemplateFile | undefined => {
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..') || path.isAbsolute(name) || name.includes('\\')) {
    throw new Error(
      `"${name}" is not a template name: write a path from the prompt's folder or the prompt root, with "/" and without ".."`,
    );
  }
  for (const dir of folder.dirs) {
    const candidate = path.join(dir, ...segments);
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      stamps.push({ path: candidate, stamp: undefined });
      continue;
    }
    if (!isInside(folder.root, real))
      throw new Error(`"${name}" leads outside the prompt root: keep templates inside it, not behind a symlink`);
    // As for embedded `@path` files: nothing under a hidden name (`.env`, `.git/…`) is ever read.
    if (
      path
        .relative(folder.root, real)
        .split(path.sep)
        .some((segment) => segment.startsWith('.'))
    ) {
      throw new Error(`"${name}" is a hidden file or in a hidden folder, which templates never load: give it a name without a leading "."`);
    }
    const info = statSync(real);
    if (!info.isFile()) throw new Error(`"${name}" is not a file`);
    if (info.size > folder.maxFileBytes)
      throw new Error(`"${name}" has ${info.size} bytes, over the limit of ${folder.maxFileBytes}: shorten it`);
    stamps.push({ path: real, stamp: stampOf(info) });
    const text = readFileSync(real, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r\n/g, '\n');
    return { path: real, text };
  }
  return undefined;
};

/** Whether any file looked at has changed, appeared or gone since it was stamped. */
export const anyChanged = async (stamps: readonly FileStamp[]): Promise<boolean> => {
  const now = await Promise.all(
    stamps.map(({ path: file }) =>
      stat(file).then(
        (info) => (info.isFile() ? stampOf(info) : 'not a file'),
        () => undefined,
      ),
    ),
  );
  return now.some((stamp, index) => stamp !== stamps[index]?.stamp);
};
