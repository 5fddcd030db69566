/**
 * The SHA-256 of every file under a folder at a commit, from the cache's objects: `git ls-tree` names
 * the blobs, one `git cat-file --batch` streams them (never one process per file, never all of them
 * in memory at once).
 */
import { createHash, type Hash } from 'node:crypto';
import { GitCommandError, commandError, runGit, spawnGit, type RunGitOptions } from './run-git.js';

interface TreeEntry {
  readonly file: string;
  readonly object: string;
}

/** Blobs under the tree `treeish`, paths relative to it; symlinks are blobs (their link text), submodules are left out. */
export const listBlobs = async (treeish: string, options: RunGitOptions): Promise<TreeEntry[]> => {
  const output = await runGit(['ls-tree', '-r', '-z', '--full-tree', treeish], options);
  const entries: TreeEntry[] = [];
  for (const record of output.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [, type, object] = record.slice(0, tab).split(' ');
    if (type === 'blob' && object !== undefined) entries.push({ file: record.slice(tab + 1), object });
  }
  return entries;
};

/** Reads `git cat-file --batch` output chunk by chunk, hashing each object's bytes as they come. */
class BatchReader {
  readonly digests = new Map<string, string>();
  private header: Buffer[] = [];
  private current: { object: string; remaining: number; hash: Hash } | undefined;
  /** The newline git writes after each object's contents. */
  private skipNewline = false;

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.skipNewline) {
        this.skipNewline = false;
        offset += 1;
      } else if (this.current === undefined) {
        const newline = chunk.indexOf(10, offset);
        if (newline < 0) {
          this.header.push(chunk.subarray(offset));
          return;
        }
        this.header.push(chunk.subarray(offset, newline));
        this.startObject(Buffer.concat(this.header).toString('utf8'));
        this.header = [];
        offset = newline + 1;
      } else {
        const take = Math.min(this.current.remaining, chunk.length - offset);
        this.current.hash.update(chunk.subarray(offset, offset + take));
        this.current.remaining -= take;
        offset += take;
        this.finishIfDone();
      }
    }
  }

  private startObject(line: string): void {
    const [object, type, size] = line.split(' ');
    if (object === undefined || type === 'missing' || size === undefined) throw new Error(`git cat-file: ${line}`);
    this.current = { object, remaining: Number(size), hash: createHash('sha256') };
    this.finishIfDone();
  }

  private finishIfDone(): void {
    if (this.current === undefined || this.current.remaining > 0) return;
    this.digests.set(this.current.object, this.current.hash.digest('hex'));
    this.current = undefined;
    this.skipNewline = true;
  }
}

/** SHA-256 (hex) of each object's bytes, read with one `git cat-file --batch`. */
export const hashObjects = async (objects: readonly string[], options: RunGitOptions): Promise<Map<string, string>> => {
  const unique = [...new Set(objects)];
  if (unique.length === 0) return new Map();
  const args = ['cat-file', '--batch'];
  const child = spawnGit(args, { ...options, input: `${unique.join('\n')}\n` });
  const reader = new BatchReader();
  let parseError: unknown;
  child.stdout.on('data', (chunk: Buffer) => {
    if (parseError !== undefined) return;
    try {
      reader.push(chunk);
    } catch (error) {
      parseError = error;
      child.kill();
    }
  });
  try {
    await child;
  } catch (error) {
    if (parseError === undefined) {
      throw commandError(args, options, error as Parameters<typeof commandError>[2]);
    }
  }
  if (parseError !== undefined) throw new GitCommandError(args, String((parseError as Error).message), undefined, false);
  return reader.digests;
};
