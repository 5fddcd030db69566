/**
 * A source's working folder: a git worktree of the remote's bare repository at
 * `<cache>/checkouts/<id>-<n>`, one per source and process, moved from commit to commit in place so
 * that only the files that differ are written (and a reader sees one folder for the life of the process).
 */
import { mkdir, readFile, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@promptyard/core';
import type { Checkout } from '../types.js';
import { localError } from './git-errors.js';
import type { LocalRemoteCache } from './remote-cache.js';
import { runGit, type Env, type RunGitOptions } from './run-git.js';
import { releaseSlot, takeSlot } from './slot-lock.js';

export interface CheckoutOptions {
  readonly cacheDir: string;
  readonly id: string;
  readonly remote: LocalRemoteCache;
  readonly env: Env;
  readonly logger: Logger;
}

const splitZ = (output: string): string[] => output.split('\0').filter((entry) => entry !== '');

/** Whether `folder` is a worktree of the bare repository `gitDir` (read from its `.git` file: no git walking up to a parent repository). */
const isWorktreeOf = async (folder: string, gitDir: string): Promise<boolean> => {
  const pointer = await readFile(path.join(folder, '.git'), 'utf8').catch(() => undefined);
  const admin = /^gitdir: (.+)$/m.exec(pointer ?? '')?.[1]?.trim();
  if (admin === undefined) return false;
  const [adminReal, gitDirReal] = await Promise.all([
    realpath(path.resolve(folder, admin)).catch(() => undefined),
    realpath(gitDir).catch(() => gitDir),
  ]);
  return adminReal !== undefined && adminReal.startsWith(`${gitDirReal}${path.sep}worktrees${path.sep}`);
};

/** Takes this process's checkout of source `id`: the first `<id>-<n>` folder no running process holds. */
export const openCheckout = async (options: CheckoutOptions): Promise<Checkout> => {
  const { remote, logger } = options;
  await remote.ready();
  const bare: RunGitOptions = { env: options.env, cwd: remote.gitDir };
  const fail = (error: unknown, doing: string): unknown => localError(remote.url, error, doing, 'checkout-failed');
  // Folders removed by hand leave entries that would stop `worktree add` from using their path again.
  await runGit(['worktree', 'prune'], bare).catch((error: unknown) => {
    throw fail(error, 'git worktree prune');
  });
  await mkdir(path.join(options.cacheDir, 'checkouts'), { recursive: true });
  const { folder, lock } = await takeSlot(path.join(options.cacheDir, 'checkouts', options.id));
  const tree: RunGitOptions = { env: options.env, cwd: folder };
  let current: string | undefined;

  /** `clean: false` when the folder was found clean just before: a checkout writes no stray files. */
  const forceMove = async (commit: string, clean = true): Promise<void> => {
    await runGit(['checkout', '--force', '--detach', '--quiet', commit], tree);
    if (clean) await runGit(['clean', '-ffdqx'], tree);
  };

  const status = async (): Promise<string[]> =>
    splitZ(await runGit(['status', '--porcelain', '-z', '--no-renames', '--untracked-files=all', '--ignored'], tree)).map((entry) =>
      entry.slice(3),
    );

  const create = async (commit: string): Promise<void> => {
    await rm(folder, { recursive: true, force: true });
    await runGit(['worktree', 'prune'], bare);
    await runGit(['worktree', 'add', '--detach', '--no-checkout', folder, commit], bare);
    await forceMove(commit);
  };

  /** The first move of the process: a folder left at that commit, untouched, is used as it is. */
  const firstMove = async (commit: string): Promise<void> => {
    if (!(await isWorktreeOf(folder, remote.gitDir))) {
      logger.debug('creating a checkout', { url: remote.url, folder, commit });
      await create(commit);
      return;
    }
    const head = (await runGit(['rev-parse', 'HEAD'], tree).catch(() => '')).trim();
    if (head === commit && (await status()).length === 0) {
      logger.debug('using the checkout left at this commit', { url: remote.url, folder, commit });
      return;
    }
    await forceMove(commit).catch((error: unknown) => {
      logger.debug('the checkout could not be moved; making it again', { url: remote.url, folder, error: String(error) });
      return create(commit);
    });
  };

  /**
   * A later move: the files that differ from `previous` (and any edited by hand) are written. A
   * checkout that cannot be moved (its folder removed, a move cut short) is made again: everything
   * is then new (undefined).
   */
  const moveFrom = async (previous: string, commit: string): Promise<readonly string[] | undefined> => {
    try {
      const edited = await status();
      await forceMove(commit, edited.length > 0);
      current = commit;
      const changed =
        previous === commit ? [] : splitZ(await runGit(['diff', '--name-only', '-z', '--no-renames', previous, commit], bare));
      return [...new Set([...changed, ...edited])].sort();
    } catch (error) {
      logger.warn('the checkout could not be moved; making it again', { url: remote.url, folder, error: String(error) });
      await create(commit);
      current = commit;
      return undefined;
    }
  };

  const moveTo = async (commitId: string): Promise<readonly string[] | undefined> => {
    const commit = commitId.toLowerCase();
    const previous = current;
    try {
      if (previous === undefined) {
        await firstMove(commit);
        current = commit;
        return undefined;
      }
      return await moveFrom(previous, commit);
    } catch (error) {
      throw fail(error, `checking out ${commit} in ${folder}`);
    }
  };

  return {
    root: folder,
    get commit() {
      return current;
    },
    moveTo,
    release: () => releaseSlot(lock),
  };
};
