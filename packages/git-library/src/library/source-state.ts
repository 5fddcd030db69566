/**
 * One source of a running library: what it serves now (commit, when fetched, stale, last error), its
 * checkout and gate, and the one way it moves — fetch, then the checkout moved and the new version
 * applied inside the gate's exclusive section, one move at a time.
 */
import { realpath, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { PromptyardError, describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { redactUrl } from '../git/urls.js';
import type {
  Checkout,
  GitMeta,
  GitSourceConfig,
  GitSourceHandle,
  GitSourceStatus,
  RefKind,
  RemoteCache,
  ServedVersion,
  SwapGate,
} from '../types.js';

export interface SourceState {
  readonly id: string;
  /** Its ref and pollMs change on a config reload. */
  config: GitSourceConfig;
  readonly remote: RemoteCache;
  readonly checkout: Checkout;
  readonly gate: SwapGate;
  /** The folder served, absolute. */
  readonly dir: string;
  readonly frozen: boolean;
  refKind: RefKind | undefined;
  commit: string | undefined;
  fetchedAt: string | undefined;
  stale: boolean;
  lastError: string | undefined;
  /** What applies a new version, in the order given (the prompts over the checkout, then the skills). */
  readonly applies: ((version: ServedVersion) => Promise<void>)[];
  /** A check of the remote queued but not started yet (the next asked joins it). */
  pendingCheck?: Promise<boolean> | undefined;
  /** The last move asked: the next starts after it. */
  queue: Promise<unknown>;
  /** Set by `close`: no move starts any more. */
  closed: boolean;
}

/** How messages and logs name a source: kind, URL without credentials, ref and path. */
export const describeSource = (config: GitSourceConfig): string =>
  `${config.kind} git source ${redactUrl(config.url)} (ref ${config.ref}${config.path === '' ? '' : `, path "${config.path}"`})`;

/** `error` as a `SOURCE_ERROR` whose message names the source (and keeps the git layer's reason). */
export const sourceFailure = (config: GitSourceConfig, error: unknown, doing: string): PromptyardError => {
  const reason = error instanceof PromptyardError ? error.data?.['reason'] : undefined;
  return new PromptyardError('SOURCE_ERROR', `${describeSource(config)}: ${doing}: ${redactUrl(describeError(error))}`, {
    cause: error,
    data: { source: redactUrl(config.url), reason: typeof reason === 'string' ? reason : 'git-failed' },
  });
};

/** The reason a git failure gives (`unreachable`, `ref-not-found` …), if any. */
export const failureReason = (error: unknown): string | undefined => {
  const reason = error instanceof PromptyardError ? error.data?.['reason'] : undefined;
  return typeof reason === 'string' ? reason : undefined;
};

export const statusOf = (state: SourceState): GitSourceStatus => ({
  id: state.id,
  kind: state.config.kind,
  url: redactUrl(state.config.url),
  ref: state.config.ref,
  refKind: state.refKind,
  path: state.config.path,
  commit: state.commit,
  fetchedAt: state.fetchedAt,
  stale: state.stale,
  frozen: state.frozen,
  lastError: state.lastError,
});

/** A repository-relative path, `/`-separated, of `file` (absolute) in the checkout. */
const repositoryPath = (state: SourceState, file: string): string => relative(state.checkout.root, file).split(sep).join('/');

export const handleOf = (state: SourceState): GitSourceHandle => ({
  id: state.id,
  get config() {
    return state.config;
  },
  dir: state.dir,
  gate: state.gate,
  status: () => statusOf(state),
  metaOf: (file: string): GitMeta => ({
    repository: redactUrl(state.config.url),
    ref: state.config.ref,
    commit: state.commit ?? '',
    path: repositoryPath(state, file),
  }),
  onVersion: (apply) => {
    state.applies.push(apply);
  },
});

/**
 * Why the source's folder cannot be served at `commit` (the checkout at it): it is not a folder there,
 * or it is a symlink (or under one) leading out of the checkout — a repository may not serve what
 * lies outside it. Undefined when it can be served.
 */
export const servedFolderProblem = async (state: SourceState, commit: string): Promise<PromptyardError | undefined> => {
  const { config, dir, checkout } = state;
  const data = { source: redactUrl(config.url), reason: 'path-not-found' };
  const [real, root] = await Promise.all([realpath(dir).catch(() => undefined), realpath(checkout.root).catch(() => checkout.root)]);
  const isFolder =
    real !== undefined &&
    (await stat(real).then(
      (stats) => stats.isDirectory(),
      () => false,
    ));
  if (!isFolder)
    return new PromptyardError('SOURCE_ERROR', `${describeSource(config)}: commit ${commit} has no folder "${config.path}"; fix \`path\``, {
      data,
    });
  if (real !== root && !real.startsWith(`${root}${sep}`))
    return new PromptyardError(
      'SOURCE_ERROR',
      `${describeSource(config)}: at commit ${commit}, "${config.path}" is a symlink leading out of the repository; serve a real folder of it`,
      { data: { ...data, reason: 'path-outside' } },
    );
  return undefined;
};

/** Runs `work` after the source's previous move (whatever it did): two moves of a source never overlap. */
export const queued = <T>(state: SourceState, work: () => Promise<T>): Promise<T> => {
  const guarded = (): Promise<T> =>
    state.closed ? Promise.reject(new Error(`${describeSource(state.config)}: the library is closed`)) : work();
  const run = state.queue.then(guarded, guarded);
  state.queue = run.catch(() => undefined);
  return run;
};

/** The changed repository paths under the source's folder, absolute. */
const changedUnder = (state: SourceState, paths: readonly string[]): string[] => {
  const prefix = state.config.path === '' ? '' : `${state.config.path}/`;
  return paths.filter((path) => path.startsWith(prefix)).map((path) => `${state.checkout.root}${sep}${path.split('/').join(sep)}`);
};

/**
 * Moves the source to `commit` (fetched for `ref` unless the cache has it): the checkout and the
 * served state change inside the gate, then the new version is applied there. Resolves with whether
 * it moved (not when `commit` is already served). Call it through `queued`.
 */
export const moveSource = async (
  state: SourceState,
  ref: string,
  commit: string,
  logger: Logger,
  /** A new config (a changed ref): served from the same moment as the commit, a new version even at the same commit. */
  config?: GitSourceConfig,
  /** The cache has the commit: the swap is asked for at once (a caller holding the gate hands it over without a gap). */
  fetched = false,
): Promise<boolean> => {
  if (commit === state.commit && config === undefined) return false;
  if (!fetched && !(await state.remote.has(commit))) await state.remote.fetch(ref, commit);
  const from = state.commit;
  let files = 0;
  await state.gate.exclusive(async () => {
    const paths = await state.checkout.moveTo(commit);
    const problem = await servedFolderProblem(state, commit);
    if (problem !== undefined) {
      // The served version stays: back to it before anything reads the new one.
      if (from !== undefined) await state.checkout.moveTo(from);
      throw problem;
    }
    const changed = paths === undefined ? undefined : changedUnder(state, paths);
    files = changed?.length ?? 0;
    state.commit = commit;
    if (config !== undefined) state.config = config;
    state.fetchedAt = new Date().toISOString();
    for (const apply of state.applies) {
      try {
        await apply({ commit, dir: state.dir, changed });
      } catch (error) {
        logger.error('the new version of a git source could not be applied; its files are those of the new commit', {
          source: describeSource(state.config),
          commit,
          error: redactUrl(describeError(error)),
        });
      }
    }
  });
  state.stale = false;
  state.lastError = undefined;
  logger.notice('library moved', { source: describeSource(state.config), from, to: commit, files });
  return true;
};
