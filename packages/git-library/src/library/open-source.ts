/**
 * Opening one source at start: which commit to serve (the lock's with `--frozen`; the cluster's when
 * replicas already agreed; else the ref resolved now, or the cache's when the remote cannot be
 * reached), then its checkout moved there and, when frozen, every file checked against the lock.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PromptyardError, describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { isCommitId } from '../git/remote-refs.js';
import { redactUrl } from '../git/urls.js';
import { createSwapGate } from '../gate/swap-gate.js';
import { checkDigests } from '../lock/lock-file.js';
import type { GitCache, GitSourceConfig, LockedSource, RefKind, RemoteCache } from '../types.js';
import type { SharedCommits } from './shared-commits.js';
import { describeSource, failureReason, servedFolderProblem, sourceFailure } from './source-state.js';
import type { SourceState } from './source-state.js';

export interface OpenSourceContext {
  readonly cache: GitCache;
  readonly logger: Logger;
  /** The lock's entry of the source when frozen (found by the caller, which read the lock). */
  readonly locked: LockedSource | undefined;
  readonly frozen: boolean;
  readonly shared: SharedCommits | undefined;
  readonly lockFile: string | undefined;
}

/** What to check out at start. */
interface Choice {
  readonly commit: string;
  readonly refKind: RefKind | undefined;
  readonly fetchedAt: string;
  readonly stale: boolean;
  readonly lastError: string | undefined;
}

const fresh = (commit: string, refKind: RefKind | undefined): Choice => ({
  commit,
  refKind,
  fetchedAt: new Date().toISOString(),
  stale: false,
  lastError: undefined,
});

/** `--frozen`: the lock's commit, from the cache or fetched; none to be had refuses to start. */
const lockedChoice = async (config: GitSourceConfig, remote: RemoteCache, locked: LockedSource): Promise<Choice> => {
  if (!(await remote.has(locked.commit))) {
    try {
      await remote.fetch(locked.ref, locked.commit);
    } catch (error) {
      throw sourceFailure(config, error, `the locked commit ${locked.commit} cannot be had (the server is frozen to the lock)`);
    }
  }
  return fresh(locked.commit, isCommitId(config.ref) ? 'commit' : undefined);
};

/** The remote cannot be reached: the commit last fetched for the ref, or a refusal to start. */
const cachedChoice = async (
  config: GitSourceConfig,
  remote: RemoteCache,
  cacheDir: string,
  error: unknown,
  logger: Logger,
): Promise<Choice> => {
  const cached = await remote.cached(config.ref);
  const reason = redactUrl(describeError(error));
  if (cached === undefined) {
    throw new PromptyardError(
      'SOURCE_ERROR',
      `${describeSource(config)}: cannot reach ${redactUrl(config.url)} and nothing is cached in ${cacheDir}: ${reason}; check the URL and the network, then start again`,
      { cause: error, data: { source: redactUrl(config.url), reason: 'unreachable' } },
    );
  }
  logger.warn('git remote unreachable: serving the cached commit', {
    source: describeSource(config),
    commit: cached.commit,
    fetchedAt: cached.fetchedAt.toISOString(),
    error: reason,
  });
  return { commit: cached.commit, refKind: cached.kind, fetchedAt: cached.fetchedAt.toISOString(), stale: true, lastError: reason };
};

/**
 * The commit the replicas agreed on for the source (`known`: whether the cluster has one) and whether
 * it was fetched: a commit the remote no longer offers (a force-push) is logged and resolved anew.
 */
const agreedCommit = async (
  config: GitSourceConfig,
  id: string,
  remote: RemoteCache,
  { shared, logger }: OpenSourceContext,
): Promise<{ readonly known: boolean; readonly fetched: string | undefined }> => {
  const source = describeSource(config);
  const agreed = await shared?.read(id, config.ref).catch((error: unknown) => {
    logger.warn('the cluster cannot say which commit replicas serve; resolving alone', { source, error: describeError(error) });
    return undefined;
  });
  if (agreed === undefined) return { known: false, fetched: undefined };
  try {
    await remote.fetch(config.ref, agreed);
    return { known: true, fetched: agreed };
  } catch (error) {
    if (failureReason(error) === 'unreachable') throw error;
    logger.warn('the commit replicas serve cannot be fetched; resolving the ref anew', {
      source,
      commit: agreed,
      error: redactUrl(describeError(error)),
    });
    return { known: true, fetched: undefined };
  }
};

/** The commit to serve: the lock's, the cluster's, the remote's now, or the cache's. */
const chooseCommit = async (config: GitSourceConfig, id: string, remote: RemoteCache, context: OpenSourceContext): Promise<Choice> => {
  if (context.frozen) {
    if (context.locked === undefined) {
      throw new PromptyardError(
        'CONFIG_INVALID',
        `${describeSource(config)} is not in the lock file ${context.lockFile ?? 'promptyard.lock'}, and the server is frozen to it; run promptyard-server lock`,
        { data: { source: redactUrl(config.url) } },
      );
    }
    return lockedChoice(config, remote, context.locked);
  }
  try {
    const agreed = await agreedCommit(config, id, remote, context);
    if (agreed.fetched !== undefined) return fresh(agreed.fetched, (await remote.cached(config.ref))?.kind);
    const resolved = await remote.resolve(config.ref);
    // The first node to resolve the ref announces it; one that found the agreed commit gone replaces it.
    const announced = await context.shared?.write(id, config.ref, resolved.commit, !agreed.known).catch(() => undefined);
    const commit = announced ?? resolved.commit;
    await remote.fetch(config.ref, commit);
    return fresh(commit, resolved.kind);
  } catch (error) {
    if (failureReason(error) === 'unreachable') return cachedChoice(config, remote, context.cache.dir, error, context.logger);
    throw sourceFailure(config, error, 'cannot open it');
  }
};

/** Removes the files whose digest is not the lock's (so nothing serves them) and logs them, and the locked files missing. */
const enforceLock = async (state: SourceState, locked: LockedSource, lockFile: string, logger: Logger): Promise<void> => {
  const check = await checkDigests(state.dir, locked.files);
  const source = describeSource(state.config);
  for (const file of [...check.mismatched, ...check.unlocked]) {
    const why = check.mismatched.includes(file) ? 'its SHA-256 differs from the lock' : 'the lock does not name it';
    logger.error('git file refused: not served', { source, file, lock: lockFile, reason: why });
    await rm(join(state.dir, file), { force: true });
  }
  for (const file of check.missing) logger.error('locked git file missing', { source, file, lock: lockFile });
  const refused = check.mismatched.length + check.unlocked.length;
  if (refused > 0 || check.missing.length > 0) {
    state.lastError = `${refused} file(s) refused and ${check.missing.length} missing against ${lockFile}; run promptyard-server lock after reviewing the changes`;
  }
};

/** Opens source `config` (id `id`): checkout taken and moved to the commit chosen. */
export const openSource = async (config: GitSourceConfig, id: string, context: OpenSourceContext): Promise<SourceState> => {
  const remote = context.cache.remote(config.url, { tokenEnv: config.authTokenEnv, user: config.authUser });
  const choice = await chooseCommit(config, id, remote, context);
  const checkout = await context.cache.checkout(id, remote);
  const dir = join(checkout.root, ...config.path.split('/').filter((part) => part !== ''));
  const state: SourceState = {
    id,
    config,
    remote,
    checkout,
    gate: createSwapGate({ logger: context.logger, name: describeSource(config) }),
    dir,
    frozen: context.frozen,
    refKind: choice.refKind,
    commit: undefined,
    fetchedAt: choice.fetchedAt,
    stale: choice.stale,
    lastError: choice.lastError,
    applies: [],
    queue: Promise.resolve(),
    closed: false,
  };
  try {
    await checkout.moveTo(choice.commit);
    state.commit = choice.commit;
    const problem = await servedFolderProblem(state, choice.commit);
    if (problem !== undefined) throw problem;
    if (context.frozen && context.locked !== undefined)
      await enforceLock(state, context.locked, context.lockFile ?? 'promptyard.lock', context.logger);
  } catch (error) {
    await checkout.release().catch(() => undefined);
    throw error instanceof PromptyardError && error.message.includes(describeSource(config))
      ? error
      : sourceFailure(config, error, 'cannot check it out');
  }
  return state;
};
