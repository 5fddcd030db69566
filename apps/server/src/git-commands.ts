/**
 * The commands of git libraries: `sync` (fetch now; running servers move), `lock` (write
 * promptyard.lock), `versions <prompt>` (the commits that changed it), what `list --versions` prints
 * first, and what `validate` checks of the lock.
 */
import { stat } from 'node:fs/promises';
import { describeError, isPathInside, PromptyardError } from '@promptyard/core';
import type { Logger, PromptEntry } from '@promptyard/core';
import {
  compareDigests,
  lockedSource,
  openGitCache,
  readLockFile,
  redactUrl,
  requestSync,
  sourceId,
  writeLockFile,
} from '@promptyard/git-library';
import type { GitCache, GitSourceConfig, GitSourceStatus, LockedSource, RemoteCache } from '@promptyard/git-library';
import { errorPrefix } from '@promptyard/host';
import type { Paint } from '@promptyard/host';
import type { ResolvedConfig } from './config.js';
import type { Library } from './library/library.js';

export interface GitCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** `prompts https://git.example.com/team/prompts.git#v1.4:prompts`: how a source is named to the user. */
const sourceLabel = (source: Pick<GitSourceConfig, 'kind' | 'url' | 'ref' | 'path'>): string =>
  `${source.kind} ${redactUrl(source.url)}#${source.ref}${source.path === '' ? '' : `:${source.path}`}`;

const requireSources = (resolved: ResolvedConfig, command: string): readonly GitSourceConfig[] => {
  const { sources } = resolved.git;
  if (sources.length === 0)
    throw new PromptyardError(
      'CONFIG_INVALID',
      `${command}: no git libraries are configured; add [[prompts.git]] or [[skills.git]] (url, ref, path) to promptyard.toml.`,
    );
  return sources;
};

const remoteOf = (cache: GitCache, source: GitSourceConfig): RemoteCache =>
  cache.remote(source.url, { tokenEnv: source.authTokenEnv, user: source.authUser });

/** What the source's ref points at on its remote now, fetched into the cache. */
const fetchNow = async (cache: GitCache, source: GitSourceConfig): Promise<{ readonly commit: string; readonly kind: string }> => {
  const remote = remoteOf(cache, source);
  const { commit, kind } = await remote.resolve(source.ref);
  await remote.fetch(source.ref, commit);
  return { commit, kind };
};

/** `sync`: fetches every source now, then asks servers running on the same cache to move to it. */
export const syncCommand = async (resolved: ResolvedConfig, io: GitCommandIo, logger: Logger): Promise<number> => {
  const sources = requireSources(resolved, 'sync');
  const cache = await openGitCache({ dir: resolved.git.cacheDir, logger });
  const fetched: string[] = [];
  for (const source of sources) {
    try {
      const { commit, kind } = await fetchNow(cache, source);
      fetched.push(sourceId(source));
      io.stdout(`${sourceLabel(source)}  ${commit} (${kind})\n`);
    } catch (error) {
      io.stderr(`${errorPrefix('promptyard-server')} ${sourceLabel(source)}: ${describeError(error)}\n`);
    }
  }
  await requestSync(resolved.git.cacheDir, fetched);
  io.stderr(
    `sync: fetched ${fetched.length} of ${sources.length} git librar${sources.length === 1 ? 'y' : 'ies'} into ${resolved.git.cacheDir}; servers running on it move to what was fetched\n`,
  );
  return fetched.length === sources.length ? 0 : 1;
};

/** `lock`: each source's commit now and the SHA-256 of every file it serves, written to promptyard.lock. */
export const lockCommand = async (resolved: ResolvedConfig, io: GitCommandIo, logger: Logger): Promise<number> => {
  const sources = requireSources(resolved, 'lock');
  const cache = await openGitCache({ dir: resolved.git.cacheDir, logger });
  const locked: LockedSource[] = [];
  for (const source of sources) {
    const { commit } = await fetchNow(cache, source);
    const digests = await remoteOf(cache, source).digests(commit, source.path);
    locked.push({
      kind: source.kind,
      url: redactUrl(source.url),
      ref: source.ref,
      path: source.path,
      commit,
      files: Object.fromEntries(digests),
    });
    io.stdout(`${sourceLabel(source)}  ${commit}  ${digests.size} file${digests.size === 1 ? '' : 's'}\n`);
  }
  await writeLockFile(resolved.git.lockFile, { lockfileVersion: 1, sources: locked });
  io.stderr(`lock: wrote ${resolved.git.lockFile}; serve exactly these commits with --frozen (or [prompts] frozen = true)\n`);
  return 0;
};

const statusLine = (status: GitSourceStatus, paint: Paint): string => {
  const state = status.frozen ? paint('hidden', 'frozen') : status.stale ? paint('warning', 'stale') : paint('ok', 'live');
  return `${sourceLabel(status)}  ${status.commit ?? '(none)'}  ${status.refKind ?? '?'}  fetched ${status.fetchedAt ?? 'never'}  ${state}${status.lastError === undefined ? '' : `  (${paint('failed', status.lastError)})`}`;
};

/** `list --versions`: each git source's commit and when it was fetched, before the prompts; its state coloured on a terminal. */
export const versionLines = (library: Library, paint: Paint): string[] =>
  (library.git?.status() ?? []).map((status) => statusLine(status, paint));

/** `versions <name>`: the commits of the prompt's git library that changed its file, newest first. */
export const versionsCommand = async (
  resolved: ResolvedConfig,
  library: Library,
  entry: PromptEntry,
  io: GitCommandIo,
  logger: Logger,
): Promise<number> => {
  const handle = library.git?.sources.find((candidate) => isPathInside(candidate.dir, entry.origin.file));
  if (handle === undefined) {
    io.stderr(
      `${errorPrefix('promptyard-server')} prompt "${entry.name}" is not served from a git library (it is read from ${entry.origin.file}).\n`,
    );
    return 1;
  }
  const meta = handle.metaOf(entry.origin.file);
  const cache = await openGitCache({ dir: resolved.git.cacheDir, logger });
  const versions = await remoteOf(cache, handle.config).log(meta.commit, meta.path, 50);
  io.stderr(`${entry.name}: ${meta.path} in ${meta.repository}, served at ${meta.commit}\n`);
  for (const version of versions) io.stdout(`${version.commit}  ${version.date}  ${version.author}  ${version.subject}\n`);
  return 0;
};

/** `validate`: the lock file, when there is one (or `--frozen` needs it), against the sources and their commits. */
export const lockFindings = async (
  resolved: ResolvedConfig,
  logger: Logger,
): Promise<{ readonly file: string; readonly severity: 'error'; readonly message: string }[]> => {
  const { git } = resolved;
  if (git.sources.length === 0) return [];
  const exists = (await stat(git.lockFile).catch(() => undefined)) !== undefined;
  if (!exists && !git.frozen) return [];
  const problem = (message: string) => ({ file: git.lockFile, severity: 'error' as const, message });
  let lock;
  try {
    lock = await readLockFile(git.lockFile);
  } catch (error) {
    return [problem(describeError(error))];
  }
  const cache = await openGitCache({ dir: git.cacheDir, logger });
  const findings = [];
  for (const source of git.sources) {
    let entry: LockedSource | undefined;
    try {
      entry = lockedSource(lock, source);
    } catch (error) {
      findings.push(problem(describeError(error)));
      continue;
    }
    if (entry === undefined) findings.push(problem(`${sourceLabel(source)} is not in the lock; run promptyard-server lock`));
    else findings.push(...(await lockedFileProblems(remoteOf(cache, source), source, entry)).map(problem));
  }
  return findings;
};

/** The locked files whose digest differs from the locked commit's, and the commit's files the lock lacks. */
const lockedFileProblems = async (remote: RemoteCache, source: GitSourceConfig, locked: LockedSource): Promise<string[]> => {
  try {
    if (!(await remote.has(locked.commit))) await remote.fetch(source.ref, locked.commit);
    const actual = await remote.digests(locked.commit, source.path);
    const check = await compareDigests(actual.keys(), locked.files, (name) => actual.get(name) ?? '');
    const say = (names: readonly string[], why: string): string[] => names.map((name) => `${sourceLabel(source)}: ${name} ${why}`);
    return [
      ...say(check.missing, `is locked but not in commit ${locked.commit}`),
      ...say(check.unlocked, `is in commit ${locked.commit} but not in the lock; run promptyard-server lock`),
      ...say(check.mismatched, 'differs from its locked SHA-256; run promptyard-server lock if the change is meant'),
    ].sort();
  } catch (error) {
    return [`${sourceLabel(source)}: the locked commit ${locked.commit} cannot be had: ${describeError(error)}`];
  }
};
