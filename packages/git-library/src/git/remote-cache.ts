/**
 * A remote's cache: one bare repository per URL under `<cache>/repos/`, filled by shallow fetches of
 * single commits, recording what each ref last resolved to so that a start without network serves
 * the last fetched commit. Several processes may share it: fetches retry on git's lock files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@promptyard/core';
import type { FileVersion, GitCredentials, RefKind, RemoteCache, RemoteRef } from '../types.js';
import { hashObjects, listBlobs } from './digests.js';
import { readFetched, recordFetched } from './fetched-record.js';
import { withFileLock } from './file-lock.js';
import { isLockContention, isRefusedWant, localError, networkError, sourceError } from './git-errors.js';
import { candidateRefs, isCommitId, lsRemoteRef } from './remote-refs.js';
import { gitAuth, networkTimeoutMs, runGit, type Env, type RunGitOptions } from './run-git.js';
import { isLocalUrl, localPath, redactUrl } from './urls.js';

/** Runs the fetches of one bare repository one after the other (per process). */
export type Serialize = <T>(gitDir: string, task: () => Promise<T>) => Promise<T>;

export interface RemoteCacheOptions {
  readonly cacheDir: string;
  readonly url: string;
  readonly credentials?: GitCredentials | undefined;
  readonly env: Env;
  readonly logger: Logger;
  readonly serialize: Serialize;
}

/** A `RemoteCache` with what the checkouts of the same cache need. */
export interface LocalRemoteCache extends RemoteCache {
  /** The bare repository, absolute. */
  readonly gitDir: string;
  /** Creates the bare repository on first use. */
  ready(): Promise<void>;
}

/** The URL git is given: a local path made absolute, anything else as written (credentials stay in the repository's config only). */
const gitUrlOf = (url: string): string => (isLocalUrl(url) && !/^file:/i.test(url) ? localPath(url) : url);

/**
 * An http(s) URL's `user:password@` (or `token@`) taken out: the cache's config and git's command
 * lines get the URL without it, and it is sent as HTTP Basic credentials through the environment.
 */
const splitUserinfo = (url: string): { readonly url: string; readonly userinfo?: { readonly user: string; readonly password: string } } => {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return { url };
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url };
  const userinfo = { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, userinfo };
};

/** `<cache>/repos/<first 16 hex of sha256(url without credentials)>.git` */
const repositoryDir = (cacheDir: string, url: string): string =>
  path.join(
    cacheDir,
    'repos',
    `${createHash('sha256')
      .update(redactUrl(gitUrlOf(url)))
      .digest('hex')
      .slice(0, 16)}.git`,
  );

const refName = (ref: string): string => `refs/promptyard/${Buffer.from(ref).toString('hex')}`;

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/** Retries `task` up to twice when another process holds one of git's lock files. */
const withLockRetry = async <T>(task: () => Promise<T>, logger: Logger): Promise<T> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= 2 || !isLockContention(error)) throw error;
      logger.debug('git lock held by another process; trying again', { attempt: attempt + 1 });
      await delay(100 + 200 * attempt + Math.floor(Math.random() * 100));
    }
  }
};

/** `git init --bare` beside `gitDir`, then renamed into place: another process creating it at the same moment finds it whole or absent. */
const createBareRepository = async (gitDir: string, env: Env): Promise<void> => {
  if (await exists(path.join(gitDir, 'HEAD'))) return;
  await mkdir(path.dirname(gitDir), { recursive: true });
  const temp = `${gitDir}.${String(process.pid)}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await runGit(['init', '--bare', '--quiet', temp], { env });
    await rename(temp, gitDir).catch(async (error: unknown) => {
      // Made by another process meanwhile: use that one.
      if (!(await exists(path.join(gitDir, 'HEAD')))) throw error;
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
};

/** The bare repository of `gitUrl`, made when missing, its `origin` the URL as configured. */
const initRepository = async (gitDir: string, gitUrl: string, url: string, options: RemoteCacheOptions): Promise<void> => {
  const local: RunGitOptions = { env: options.env, cwd: gitDir };
  try {
    await createBareRepository(gitDir, options.env);
    await withLockRetry(async () => {
      const current = await runGit(['config', '--get', 'remote.origin.url'], local).catch(() => undefined);
      if (current?.trim() !== gitUrl) await runGit(['config', 'remote.origin.url', gitUrl], local);
    }, options.logger);
  } catch (error) {
    throw localError(url, error, `creating the cache repository ${gitDir}`);
  }
};

/** What the functions of a remote's cache share. */
interface RemoteContext {
  readonly url: string;
  readonly local: RunGitOptions;
  readonly logger: Logger;
  readonly resolvedKinds: ReadonlyMap<string, RefKind>;
  readonly network: () => Promise<RunGitOptions>;
  readonly has: (commit: string) => Promise<boolean>;
}

/** Fetches `commit` by its id, or through the ref names `ref` may stand for when the server only sends advertised commits. */
const fetchCommit = async (context: RemoteContext, ref: string, commit: string): Promise<void> => {
  const { url, logger } = context;
  const run = await context.network();
  const fetchArgs = ['fetch', '--depth=1', '--no-tags', '--no-write-fetch-head', 'origin'];
  try {
    await withLockRetry(() => runGit([...fetchArgs, commit], run), logger);
    return;
  } catch (error) {
    if (!isRefusedWant(error) || isCommitId(ref)) throw networkError(url, error, `fetching commit ${commit}`);
    logger.debug('the remote does not send commits by id; fetching the ref instead', { url, ref });
  }
  const kind = context.resolvedKinds.get(ref);
  for (const candidate of candidateRefs(ref).filter((c) => kind === undefined || c.kind === kind)) {
    try {
      await withLockRetry(() => runGit([...fetchArgs, `+${candidate.name}:${refName(ref)}`], run), logger);
      if (await context.has(commit)) return;
    } catch (error) {
      if (!isRefusedWant(error)) throw networkError(url, error, `fetching ${candidate.name}`);
    }
  }
  throw sourceError(
    url,
    'commit-not-found',
    `the remote does not offer commit ${commit} (it sends only what its refs point at, and "${ref}" has moved on) — sync again to take the ref's current commit`,
  );
};

const folderDigests = async (context: RemoteContext, commit: string, folder: string): Promise<Map<string, string>> => {
  const { url, local, has } = context;
  const relative = folder.replace(/^\/+|\/+$/g, '');
  let entries: Awaited<ReturnType<typeof listBlobs>>;
  try {
    entries = await listBlobs(`${commit}:${relative}`, local);
  } catch (error) {
    if (!(await has(commit))) {
      throw sourceError(url, 'commit-not-found', `commit ${commit} is not in the cache — fetch it first`, error);
    }
    throw sourceError(
      url,
      'path-not-found',
      `path "${relative}" is not a folder at commit ${commit} — set path to a folder of the repository ('' for its root)`,
      error,
    );
  }
  const hashes = await hashObjects(
    entries.map((entry) => entry.object),
    local,
  ).catch((error: unknown) => {
    throw localError(url, error, `reading the files of ${relative || '/'} at ${commit}`);
  });
  return new Map(entries.map((entry) => [entry.file, hashes.get(entry.object) ?? '']));
};

export const createRemoteCache = (options: RemoteCacheOptions): LocalRemoteCache => {
  const { url: gitUrl, userinfo } = splitUserinfo(gitUrlOf(options.url));
  const url = redactUrl(gitUrl);
  const gitDir = repositoryDir(options.cacheDir, options.url);
  const { logger } = options;
  const local: RunGitOptions = { env: options.env, cwd: gitDir };
  const resolvedKinds = new Map<string, RefKind>();
  const deepened = new Set<string>();
  let initialized: Promise<void> | undefined;

  const network = async (): Promise<RunGitOptions> => {
    if (isLocalUrl(gitUrl) && !(await exists(localPath(gitUrl)))) {
      throw sourceError(url, 'not-a-repository', `the folder ${localPath(gitUrl)} does not exist — check the url`);
    }
    return { ...local, auth: gitAuth(options.credentials, options.env, url, userinfo), timeoutMs: networkTimeoutMs };
  };

  const ready = (): Promise<void> => {
    initialized ??= initRepository(gitDir, gitUrl, url, options).catch((error: unknown) => {
      initialized = undefined;
      throw error;
    });
    return initialized;
  };

  const has = async (commit: string): Promise<boolean> => {
    await ready();
    return runGit(['cat-file', '-e', `${commit}^{commit}`], local).then(
      () => true,
      () => false,
    );
  };

  const resolve = async (ref: string): Promise<RemoteRef> => {
    if (isCommitId(ref)) return { commit: ref.toLowerCase(), kind: 'commit' };
    await ready();
    const resolved = await lsRemoteRef(url, ref, await network());
    resolvedKinds.set(ref, resolved.kind);
    return resolved;
  };

  const kindOf = async (ref: string): Promise<RefKind> => {
    if (isCommitId(ref)) return 'commit';
    const known = resolvedKinds.get(ref) ?? (await readFetched(gitDir)).get(ref)?.kind;
    return known ?? (await resolve(ref)).kind;
  };

  const fetch = async (ref: string, commitId: string): Promise<void> => {
    await ready();
    const commit = commitId.toLowerCase();
    await options.serialize(gitDir, () =>
      withFileLock(
        fetchLockFile(gitDir),
        async () => {
          if (!(await has(commit))) await fetchCommit(context, ref, commit);
          const kind = await kindOf(ref);
          await withLockRetry(() => runGit(['update-ref', '--no-deref', refName(ref), commit], local), logger).catch((error: unknown) => {
            throw localError(url, error, `recording ${ref} → ${commit}`);
          });
          await recordFetched(gitDir, ref, { commit, kind, fetchedAt: new Date().toISOString() });
        },
        fetchLock,
      ),
    );
  };

  const cached = async (ref: string): Promise<{ commit: string; kind: RefKind; fetchedAt: Date } | undefined> => {
    await ready();
    const entry = (await readFetched(gitDir)).get(ref);
    if (entry === undefined || !(await has(entry.commit))) return undefined;
    return { commit: entry.commit, kind: entry.kind, fetchedAt: new Date(entry.fetchedAt) };
  };

  const context: RemoteContext = { url, local, logger, resolvedKinds, network, has };

  const digests = async (commit: string, folder: string): Promise<Map<string, string>> => {
    await ready();
    return folderDigests(context, commit, folder);
  };

  const log = async (commit: string, file: string, limit: number): Promise<readonly FileVersion[]> => {
    await ready();
    return fileLog({ url, gitDir, local, logger, deepened, serialize: options.serialize, network }, commit, file, limit);
  };

  return { url, gitDir, ready, resolve, fetch, cached, has, digests, log };
};

interface LogContext {
  readonly url: string;
  readonly gitDir: string;
  readonly local: RunGitOptions;
  readonly logger: Logger;
  readonly deepened: Set<string>;
  readonly serialize: Serialize;
  readonly network: () => Promise<RunGitOptions>;
}

/** Whether `commit`'s history stops at a shallow boundary of the cache. */
const isTruncated = async (context: LogContext, commit: string): Promise<boolean> => {
  const shallowFile = path.join(context.gitDir, 'shallow');
  const shallow = await readFile(shallowFile, 'utf8').catch(() => '');
  const boundaries = new Set(shallow.split('\n').filter((line) => line !== ''));
  if (boundaries.size === 0) return false;
  const history = await runGit(['rev-list', commit], context.local);
  return history.split('\n').some((line) => boundaries.has(line));
};

/** Fetches the whole history of `commit` when the cache holds only its tip (a warning, not a failure, when the remote cannot be reached). */
/**
 * Processes sharing the cache fetch into one repository one at a time: two shallow fetches at once
 * leave it without objects either needs ("remote did not send all necessary objects").
 */
const fetchLockFile = (gitDir: string): string => path.join(gitDir, 'promptyard-fetch');
const fetchLock = { staleMs: 30_000 };

const deepen = async (context: LogContext, commit: string): Promise<void> => {
  if (context.deepened.has(commit) || !(await isTruncated(context, commit))) return;
  context.logger.debug('fetching the history of a commit for its file log (the cache is shallow)', { url: context.url, commit });
  const args = ['fetch', '--unshallow', '--no-tags', '--no-write-fetch-head', 'origin'];
  try {
    const run = await context.network();
    try {
      await runGit([...args, commit], run);
    } catch (error) {
      if (!isRefusedWant(error)) throw error;
      const refs = [...(await readFetched(context.gitDir))].filter(([, entry]) => entry.commit === commit).map(([ref]) => ref);
      const names = refs.flatMap((ref) => candidateRefs(ref).map((candidate) => candidate.name));
      for (const name of names.length > 0 ? names : ['HEAD']) {
        const fetched = await runGit([...args, name], run).then(
          () => true,
          (failure: unknown) => {
            if (isRefusedWant(failure)) return false;
            throw failure;
          },
        );
        if (fetched) break;
      }
    }
    context.deepened.add(commit);
  } catch (error) {
    const reason = networkError(context.url, error, `fetching the history of ${commit}`);
    context.logger.warn('the file log is cut short: the history could not be fetched', {
      url: context.url,
      error: reason instanceof Error ? reason.message : String(reason),
    });
  }
};

const fileLog = async (context: LogContext, commit: string, file: string, limit: number): Promise<readonly FileVersion[]> => {
  await context.serialize(context.gitDir, () => withFileLock(fetchLockFile(context.gitDir), () => deepen(context, commit), fetchLock));
  let output: string;
  try {
    output = await runGit(['log', '--format=%H%x1f%cI%x1f%an%x1f%s', '-n', String(limit), commit, '--', file], context.local);
  } catch (error) {
    throw localError(context.url, error, `reading the history of ${file} at ${commit}`);
  }
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [hash = '', date = '', author = '', subject = ''] = line.split('\x1f');
      return { commit: hash, date, author, subject };
    });
};
