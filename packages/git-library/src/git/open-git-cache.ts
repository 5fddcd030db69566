/**
 * The cache folder of a binary's git sources (`[state] dir` + `/git`): `repos/` holds one bare
 * repository per remote, `checkouts/` the working folders of the sources. Opening it checks git.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@promptyard/core';
import { PromptyardError } from '@promptyard/core';
import type { Checkout, GitCache, GitCredentials, RemoteCache } from '../types.js';
import { openCheckout } from './checkout.js';
import { createRemoteCache, type LocalRemoteCache, type Serialize } from './remote-cache.js';
import { ensureGit, type Env } from './run-git.js';

export interface GitCacheOptions {
  /** The cache folder; created when missing. */
  readonly dir: string;
  readonly logger: Logger;
  /** Where tokens are read (`auth_token_env`) and what git runs with; `process.env` by default. */
  readonly env?: Env | undefined;
}

/** One queue per bare repository: a fetch waits for the previous one of this process. */
const createSerialize = (): Serialize => {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(gitDir: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(gitDir) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    tails.set(gitDir, tail);
    void tail.then(() => {
      if (tails.get(gitDir) === tail) tails.delete(gitDir);
    });
    return next;
  };
};

/** Opens the cache folder `options.dir` (git must be on the PATH, 2.31 or newer). */
export const openGitCache = async (options: GitCacheOptions): Promise<GitCache> => {
  const env = options.env ?? process.env;
  const logger = options.logger;
  const version = await ensureGit(env);
  const dir = path.resolve(options.dir);
  await mkdir(path.join(dir, 'repos'), { recursive: true });
  logger.debug('git cache opened', { dir, git: version });
  const serialize = createSerialize();
  const remotes = new Map<string, LocalRemoteCache>();
  const owned = new WeakSet<RemoteCache>();

  const remote = (url: string, credentials?: GitCredentials): RemoteCache => {
    const key = JSON.stringify([url, credentials?.tokenEnv ?? '', credentials?.user ?? '']);
    let cache = remotes.get(key);
    if (cache === undefined) {
      cache = createRemoteCache({ cacheDir: dir, url, credentials, env, logger, serialize });
      remotes.set(key, cache);
      owned.add(cache);
    }
    return cache;
  };

  const checkout = (id: string, from: RemoteCache): Promise<Checkout> => {
    if (!owned.has(from)) {
      throw new PromptyardError('INTERNAL', `checkout ${id}: the remote ${from.url} was not made by this git cache (${dir})`);
    }
    return openCheckout({ cacheDir: dir, id, remote: from as LocalRemoteCache, env, logger });
  };

  return { dir, remote, checkout };
};
