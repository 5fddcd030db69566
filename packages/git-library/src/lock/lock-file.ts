/**
 * `promptyard.lock`: what `promptyard-server lock` writes (each git source's URL, ref, resolved commit
 * and the SHA-256 of every file served from it) and what `--frozen` serves. Reading checks the shape
 * and says how to fix it; writing is stable (sorted keys and files) and atomic; `checkDigests`
 * compares a served folder with the lock's digests.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PromptyardError, writeFileAtomically } from '@promptyard/core';
import { normalizeRepositoryUrl, redactUrl } from '../git/urls.js';
import { isCommitId } from '../git/remote-refs.js';
import type { GitSourceConfig, GitSourceKind, LockFile, LockedSource } from '../types.js';

const fix = 'run promptyard-server lock to write it again';

const invalid = (file: string, what: string, cause?: unknown): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `lock file ${file}: ${what}; ${fix}`, {
    ...(cause === undefined ? {} : { cause }),
    data: { file },
  });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const kinds: ReadonlySet<string> = new Set<GitSourceKind>(['prompts', 'skills']);

/** The entry `value` (the `index`th of `file`) checked, or the error saying what is wrong with it. */
const checkEntry = (file: string, value: unknown, index: number): LockedSource => {
  const where = `sources[${index}]`;
  if (!isRecord(value)) throw invalid(file, `${where} is not a table`);
  for (const key of ['kind', 'url', 'ref', 'path', 'commit'] as const) {
    if (typeof value[key] !== 'string') throw invalid(file, `${where}.${key} is missing or not a string`);
  }
  const { kind, url, ref, path, commit } = value as Record<'kind' | 'url' | 'ref' | 'path' | 'commit', string>;
  const files = value['files'];
  if (!kinds.has(kind)) throw invalid(file, `${where}.kind is "${kind}", expected "prompts" or "skills"`);
  if (!isCommitId(commit) || commit !== commit.toLowerCase()) throw invalid(file, `${where}.commit "${commit}" is not a full commit id`);
  if (!isRecord(files)) throw invalid(file, `${where}.files is missing or not a table`);
  for (const [name, digest] of Object.entries(files)) {
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) {
      throw invalid(file, `${where}.files["${name}"] is not a SHA-256 digest`);
    }
  }
  return { kind: kind as GitSourceKind, url, ref, path, commit, files: files as Record<string, string> };
};

/** Reads and checks `file`; a missing file, bad JSON, another `lockfileVersion` or a malformed entry → CONFIG_INVALID. */
export const readLockFile = async (file: string): Promise<LockFile> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw invalid(file, missing ? 'not found' : `cannot be read (${(error as Error).message})`, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `is not JSON (${(error as Error).message})`, error);
  }
  if (!isRecord(value)) throw invalid(file, 'is not a JSON object');
  if (value['lockfileVersion'] !== 1) {
    throw invalid(file, `lockfileVersion is ${JSON.stringify(value['lockfileVersion'])}, this version of promptyard reads 1`);
  }
  const sources = value['sources'];
  if (!Array.isArray(sources)) throw invalid(file, 'sources is missing or not a list');
  return { lockfileVersion: 1, sources: sources.map((entry, index) => checkEntry(file, entry, index)) };
};

const sortedFiles = (files: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Writes `lock` to `file`: keys in a stable order, files sorted, 2-space JSON and a newline, through a temporary file renamed over it. */
export const writeLockFile = async (file: string, lock: LockFile): Promise<void> => {
  const stable = {
    lockfileVersion: lock.lockfileVersion,
    sources: lock.sources.map((entry) => ({
      kind: entry.kind,
      url: entry.url,
      ref: entry.ref,
      path: entry.path,
      commit: entry.commit,
      files: sortedFiles(entry.files),
    })),
  };
  await writeFileAtomically(file, `${JSON.stringify(stable, null, 2)}\n`);
};

/**
 * The lock's entry for `config` (same kind, URL once normalized — by `normalizeRepositoryUrl` unless
 * told otherwise — and path), or undefined when the lock has none. An entry written for another `ref` is a CONFIG_INVALID error saying to lock again.
 */
export const lockedSource = (
  lock: LockFile,
  config: GitSourceConfig,
  normalize: (url: string) => string = normalizeRepositoryUrl,
): LockedSource | undefined => {
  const url = normalize(config.url);
  const entry = lock.sources.find(
    (candidate) => candidate.kind === config.kind && candidate.path === config.path && normalize(candidate.url) === url,
  );
  if (entry !== undefined && entry.ref !== config.ref) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `the lock was written for ref ${entry.ref} of ${config.kind} source ${redactUrl(entry.url)} (path "${config.path}"), the config says ${config.ref}; run promptyard-server lock again`,
      { data: { source: redactUrl(entry.url), lockRef: entry.ref, ref: config.ref } },
    );
  }
  return entry;
};

/** What differs between a folder and the lock's digests of it (paths relative to the folder, `/`-separated, sorted). */
export interface DigestCheck {
  /** Files whose SHA-256 is not the lock's. */
  readonly mismatched: readonly string[];
  /** Files the lock does not name. */
  readonly unlocked: readonly string[];
  /** Files the lock names that are not there. */
  readonly missing: readonly string[];
}

/** SHA-256 (hex) of a file's bytes, or of a symbolic link's target text (what git stores for it). */
const digestOf = async (file: string, isLink: boolean): Promise<string> => {
  const bytes = isLink ? Buffer.from(await readlink(file), 'utf8') : await readFile(file);
  return createHash('sha256').update(bytes).digest('hex');
};

/** Every file under `dir` (not `.git`), relative and `/`-separated → whether it is a symbolic link. */
const walk = async (dir: string, prefix = '', into = new Map<string, boolean>()): Promise<Map<string, boolean>> => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) await walk(join(dir, entry.name), relative, into);
    else if (entry.isFile() || entry.isSymbolicLink()) into.set(relative, entry.isSymbolicLink());
  }
  return into;
};

/**
 * Compares files (relative path → SHA-256, or `undefined` while not read) with the lock's `expected`;
 * `digestOf` reads a file only when the lock names it.
 */
export const compareDigests = async (
  found: Iterable<string>,
  expected: Readonly<Record<string, string>>,
  digestOf: (relative: string) => string | Promise<string>,
): Promise<DigestCheck> => {
  const present = new Set(found);
  const mismatched: string[] = [];
  const unlocked: string[] = [];
  for (const relative of present) {
    const want = Object.hasOwn(expected, relative) ? expected[relative] : undefined;
    if (want === undefined) unlocked.push(relative);
    else if ((await digestOf(relative)) !== want) mismatched.push(relative);
  }
  const missing = Object.keys(expected).filter((relative) => !present.has(relative));
  return { mismatched: mismatched.sort(), unlocked: unlocked.sort(), missing: missing.sort() };
};

/** Compares the files under `dir` with `expected` (relative path → SHA-256); `dir` missing counts as empty. */
export const checkDigests = async (dir: string, expected: Readonly<Record<string, string>>): Promise<DigestCheck> => {
  const found = await lstat(dir).then(
    (stats) => (stats.isDirectory() ? walk(dir) : new Map<string, boolean>()),
    () => new Map<string, boolean>(),
  );
  return compareDigests(found.keys(), expected, (relative) => digestOf(join(dir, relative), found.get(relative) === true));
};
