/**
 * `openGitLibrary`: the git sources of a binary, each opened at the commit it serves (in order, the
 * first failure refusing to start), then followed — by polling, `sync` (the command, SIGHUP, the
 * webhook), the sync-request folder and the cluster's shared commits — and reconfigured on a config
 * reload. Every move of a source is one version passed through its gate.
 */
import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { openGitCache } from '../git/open-git-cache.js';
import { normalizeRepositoryUrl, redactUrl, sourceId } from '../git/urls.js';
import { lockedSource, readLockFile } from '../lock/lock-file.js';
import type { GitCache, GitLibrary, GitLibraryOptions, GitSourceConfig, LockFile, PushEvent, SyncReport } from '../types.js';
import { pushMatches } from '../webhook/verify-push.js';
import { announce, checkSource, createPoller, followCluster, isFollowed, waitUntil } from './follow.js';
import type { FollowContext, Poller } from './follow.js';
import { openSource } from './open-source.js';
import { sharedCommits } from './shared-commits.js';
import type { SharedCommits } from './shared-commits.js';
import { describeSource, handleOf, moveSource, queued, sourceFailure, statusOf } from './source-state.js';
import type { SourceState } from './source-state.js';
import { watchSyncRequests } from './sync-requests.js';

/** Opens every source in order; on a failure, releases those already opened and rethrows. */
const openAll = async (options: GitLibraryOptions, cache: GitCache, shared: SharedCommits | undefined): Promise<SourceState[]> => {
  const frozen = options.frozen === true;
  let lock: LockFile | undefined;
  if (frozen) {
    if (options.lockFile === undefined) throw new Error('a frozen git library needs the lock file: pass lockFile (promptyard.lock)');
    lock = await readLockFile(options.lockFile);
  }
  const states: SourceState[] = [];
  try {
    for (const config of options.sources) {
      const locked = lock === undefined ? undefined : lockedSource(lock, config);
      states.push(
        await openSource(config, sourceId(config), {
          cache,
          logger: options.logger,
          locked,
          frozen,
          shared,
          lockFile: options.lockFile,
        }),
      );
    }
  } catch (error) {
    await Promise.all(states.map((state) => state.checkout.release().catch(() => undefined)));
    throw error;
  }
  return states;
};

/** Syncs `states` at once: each checked (a frozen one reports unchanged); the report of what moved. */
const syncStates = async (states: readonly SourceState[], context: FollowContext): Promise<SyncReport> => {
  const moved = new Map<string, string>();
  const unchanged: string[] = [];
  const failed = new Map<string, string>();
  await Promise.all(
    states.map(async (state) => {
      if (state.frozen) {
        context.logger.info('git source is frozen to the lock: not synced', { source: describeSource(state.config), commit: state.commit });
        unchanged.push(state.id);
        return;
      }
      try {
        if (await checkSource(state, context)) moved.set(state.id, state.commit ?? '');
        else unchanged.push(state.id);
      } catch (error) {
        const message = redactUrl(describeError(error));
        context.logger.warn('git source sync failed: still serving the current commit', {
          source: describeSource(state.config),
          error: message,
        });
        failed.set(state.id, message);
      }
    }),
  );
  return { moved, unchanged, failed };
};

/** A changed ref: resolve it and move there as one version; on a failure the source keeps its old ref and commit. */
const moveToRef = async (state: SourceState, config: GitSourceConfig, context: FollowContext): Promise<void> => {
  const previous = state.config;
  await queued(state, async () => {
    try {
      const now = await state.remote.resolve(config.ref);
      await state.remote.fetch(config.ref, now.commit);
      await waitUntil(await announce(state, config.ref, now.commit, context));
      await moveSource(state, config.ref, now.commit, context.logger, config);
      state.refKind = now.kind;
    } catch (error) {
      state.config = previous;
      const failure = sourceFailure(config, error, 'cannot move to the new ref; still serving the old one');
      state.lastError = failure.message;
      context.logger.error('git source cannot move to its new ref', { source: describeSource(config), error: failure.message });
    }
  });
};

/** What of a reloaded config applies only at the next start (added, removed, another URL spelling or credentials). */
const laterChanges = (states: readonly SourceState[], sources: readonly GitSourceConfig[]): string[] => {
  const messages: string[] = [];
  const ids = new Set(sources.map((config) => sourceId(config)));
  for (const config of sources) {
    const state = states.find((candidate) => candidate.id === sourceId(config));
    if (state === undefined) messages.push(`${describeSource(config)} was added: it applies at the next start`);
    else if (
      state.config.url !== config.url ||
      state.config.authTokenEnv !== config.authTokenEnv ||
      state.config.authUser !== config.authUser
    ) {
      messages.push(`${describeSource(config)}: a changed url or credentials applies at the next start`);
    } else if (state.frozen && state.config.ref !== config.ref) {
      messages.push(
        `${describeSource(config)} is frozen to the lock: a changed ref applies after promptyard-server lock and the next start`,
      );
    }
  }
  for (const state of states) {
    if (!ids.has(state.id)) messages.push(`${describeSource(state.config)} was removed: it applies at the next start`);
  }
  return messages;
};

export const openGitLibrary = async (options: GitLibraryOptions & { readonly cache?: GitCache | undefined }): Promise<GitLibrary> => {
  const logger: Logger = options.logger;
  const cache = options.cache ?? (await openGitCache({ dir: options.cacheDir, logger, env: options.env }));
  const shared = options.cluster === undefined ? undefined : sharedCommits(options.cluster);
  const states = await openAll(options, cache, shared);
  const context: FollowContext = { logger, cluster: options.cluster, shared };
  const pollers = new Map<string, Poller>(states.map((state) => [state.id, createPoller(state, context)]));
  const stops: (() => void)[] = [];
  let watching: Promise<void> | undefined;
  let started = false;

  const syncIds = (ids: readonly string[]): void => {
    const chosen = states.filter((state) => ids.includes(state.id));
    void syncStates(chosen, context).then((report) => {
      if (started) for (const id of report.failed.keys()) pollers.get(id)?.restart();
    });
  };

  const onClusterChange = async (ids: readonly string[]): Promise<void> => {
    for (const state of states.filter((candidate) => ids.includes(candidate.id) && !candidate.frozen)) {
      const agreed = await shared?.readSwitch(state.id, state.config.ref).catch(() => undefined);
      if (agreed === undefined || agreed.commit === state.commit) continue;
      const { commit, at } = agreed;
      await followCluster(state, commit, at, context).catch((error: unknown) => {
        logger.warn('git source cannot move to the commit the cluster serves', {
          source: describeSource(state.config),
          commit,
          error: redactUrl(describeError(error)),
        });
      });
    }
  };

  const start = (): void => {
    if (started) return;
    started = true;
    for (const poller of pollers.values()) poller.restart();
    if (shared !== undefined) stops.push(shared.onChange((ids) => void onClusterChange(ids)));
    const ids = new Set(states.map((state) => state.id));
    watching = watchSyncRequests(options.cacheDir, () => ids, syncIds, logger).then(
      (stop) => void stops.push(stop),
      (error: unknown) => logger.warn('git sync requests cannot be watched', { error: describeError(error) }),
    );
  };

  const reconfigure = async (sources: readonly GitSourceConfig[]): Promise<readonly string[]> => {
    const messages = laterChanges(states, sources);
    await Promise.all(
      sources.map(async (config) => {
        const state = states.find((candidate) => candidate.id === sourceId(config));
        if (state === undefined || state.frozen || state.config.url !== config.url) return;
        if (state.config.ref !== config.ref) await moveToRef(state, config, context);
        if (state.config.pollMs !== config.pollMs) state.config = { ...state.config, pollMs: config.pollMs };
        if (started) pollers.get(state.id)?.restart();
      }),
    );
    return messages;
  };

  const close = async (): Promise<void> => {
    for (const poller of pollers.values()) poller.stop();
    for (const state of states) state.closed = true;
    await watching;
    for (const stop of stops.splice(0)) stop();
    await Promise.all(states.map((state) => state.queue));
    await Promise.all(states.map((state) => state.checkout.release().catch(() => undefined)));
  };

  return {
    sources: states.map(handleOf),
    start,
    sync: async (push?: PushEvent) => {
      const chosen = states.filter((state) =>
        push === undefined ? isFollowed(state) || state.stale || state.frozen : pushMatches(push, state.config, normalizeRepositoryUrl),
      );
      const report = await syncStates(chosen, context);
      // A source the sync found unreachable retries with backoff until its remote answers.
      if (started) for (const id of report.failed.keys()) pollers.get(id)?.restart();
      return report;
    },
    reconfigure,
    status: () => states.map(statusOf),
    close,
  };
};
