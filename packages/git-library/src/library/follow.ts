/**
 * Following a source: asking its remote where the ref points now and moving there (`checkSource`),
 * and the timer that does it every `pollMs` for a followed branch — or, after a failure, again with
 * exponential backoff (from 1 s up to min(pollMs, 5 min)) until the remote answers, logging once per
 * failure streak and once on recovery. With a cluster, one node per period polls (a claim), writes the
 * new commit for the others and moves.
 */
import { describeError } from '@promptyard/core';
import type { Cluster, Logger } from '@promptyard/core';
import { redactUrl } from '../git/urls.js';
import type { SharedCommits } from './shared-commits.js';
import { describeSource, moveSource, queued } from './source-state.js';
import type { SourceState } from './source-state.js';

const maxBackoffMs = 5 * 60_000;

export interface FollowContext {
  readonly logger: Logger;
  readonly cluster: Cluster | undefined;
  readonly shared: SharedCommits | undefined;
}

/** Whether the source follows its ref (a branch), or must retry until its remote answers (stale). */
export const isFollowed = (state: SourceState): boolean => !state.frozen && state.refKind === 'branch';

/**
 * Asks the remote where the source's ref points and moves there (writing the commit for the cluster
 * first). Resolves with whether it moved; rejects (and marks the source) when the remote fails.
 */
export const checkSource = (state: SourceState, context: FollowContext): Promise<boolean> => {
  // A check that has not started yet answers for this one too: SIGHUPs, pushes and sync requests
  // arriving together do not queue a check each.
  if (state.pendingCheck !== undefined) return state.pendingCheck;
  const check = queued(state, async () => {
    state.pendingCheck = undefined;
    const ref = state.config.ref;
    try {
      const now = await state.remote.resolve(ref);
      state.refKind = now.kind;
      if (now.commit === state.commit) {
        state.stale = false;
        state.lastError = undefined;
        return false;
      }
      await state.remote.fetch(ref, now.commit);
      const at = await announce(state, ref, now.commit, context);
      await waitUntil(at);
      return await moveSource(state, ref, now.commit, context.logger);
    } catch (error) {
      state.stale = true;
      state.lastError = redactUrl(describeError(error));
      throw error;
    }
  });
  state.pendingCheck = check;
  return check;
};

/**
 * How far ahead of a new commit's announcement the replicas switch to it: time for each to fetch it.
 * A replica still fetching at that moment holds its readers until it has moved (`moveLate`), so that
 * clients behind a round-robin balancer never see the old text again; a shallow fetch of one commit
 * took over a second on a loaded 2-core machine (the cluster test), so the replicas get two.
 */
const switchDelayMs = 2000;

/**
 * Resolves at `at` (epoch ms): at once when it has passed, and never later than twice the switch
 * delay from now (a node whose clock runs ahead, or a bad entry, does not hold the source back).
 */
export const waitUntil = (at: number): Promise<void> => {
  const wait = Math.min(at - Date.now(), 2 * switchDelayMs);
  return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
};

/**
 * Tells the cluster of a new commit, to switch to a moment ahead; resolves with when to move (now
 * without a cluster, or when it could not be told: this node does not wait for the others then).
 */
export const announce = async (state: SourceState, ref: string, commit: string, context: FollowContext): Promise<number> => {
  if (context.shared === undefined) return 0;
  const at = Date.now() + switchDelayMs;
  try {
    await context.shared.write(state.id, ref, commit, false, at);
    return at;
  } catch (error) {
    context.logger.warn('the cluster could not be told of a new commit', {
      source: describeSource(state.config),
      error: describeError(error),
    });
    return 0;
  }
};

/** The longest a replica holds its readers past the switch time while it still fetches; then they get the old commit. */
const holdReadersMs = 10_000;

/** Whether `fetched` settles within `ms` (rejects when it fails). */
const within = async (fetched: Promise<void>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      fetched.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Moves at the switch time a replica reached before its fetch ended: the other replicas serve the new
 * commit from then on, so this one's readers wait for its move (within `holdReadersMs`) rather than
 * get the old commit in between. The move asks for its swap while this one still holds the gate.
 */
const moveLate = async (state: SourceState, commit: string, fetched: Promise<void>, logger: Logger): Promise<boolean> => {
  let moving: Promise<boolean> | undefined;
  await state.gate.exclusive(async () => {
    if (await within(fetched, holdReadersMs)) moving = moveSource(state, state.config.ref, commit, logger, undefined, true);
  });
  if (moving !== undefined) return moving;
  await fetched;
  return moveSource(state, state.config.ref, commit, logger);
};

/** Moves the source to the commit the cluster agreed on (another node found it): fetched first, moved at the time it names. */
export const followCluster = (state: SourceState, commit: string, at: number, context: FollowContext): Promise<boolean> =>
  queued(state, async () => {
    try {
      const fetched = (async (): Promise<void> => {
        if (!(await state.remote.has(commit))) await state.remote.fetch(state.config.ref, commit);
      })();
      const late = await Promise.race([fetched.then(() => false), waitUntil(at).then(() => true)]);
      if (late) return await moveLate(state, commit, fetched, context.logger);
      await waitUntil(at);
      return await moveSource(state, state.config.ref, commit, context.logger);
    } catch (error) {
      state.lastError = redactUrl(describeError(error));
      throw error;
    }
  });

/** The polling timer of one source; `stop` ends it, `restart` takes a new pollMs or refKind into account. */
export interface Poller {
  restart(): void;
  stop(): void;
}

export const createPoller = (state: SourceState, context: FollowContext): Poller => {
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  let stopped = false;

  const schedule = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    const { pollMs } = state.config;
    const retrying = failures > 0 || state.stale;
    if (!retrying && !(isFollowed(state) && pollMs > 0)) return;
    const cap = Math.min(pollMs > 0 ? pollMs : maxBackoffMs, maxBackoffMs);
    const delay = retrying ? Math.min(1000 * 2 ** Math.max(0, failures - 1), cap) : pollMs;
    timer = setTimeout(() => void tick(), delay);
    timer.unref();
  };

  /** With a cluster, whether this node polls this period (a stale node retries for itself). */
  const ours = async (): Promise<boolean> => {
    const { cluster } = context;
    if (cluster === undefined || state.stale || failures > 0) return true;
    const { pollMs } = state.config;
    return cluster.claim(`git-poll:${state.id}:${Math.floor(Date.now() / pollMs)}`, pollMs).catch(() => true);
  };

  const tick = async (): Promise<void> => {
    try {
      const polling = await ours();
      if (stopped) return;
      if (polling) await checkSource(state, context);
      if (failures > 0) context.logger.notice('git remote answers again', { source: describeSource(state.config), commit: state.commit });
      failures = 0;
    } catch (error) {
      failures += 1;
      if (failures === 1) {
        context.logger.warn('git remote check failed: still serving the current commit, retrying with backoff', {
          source: describeSource(state.config),
          commit: state.commit,
          error: redactUrl(describeError(error)),
        });
      }
    }
    schedule();
  };

  return {
    restart: schedule,
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
};
