/**
 * The shapes of a library served from git: a source's config, its state for `/health` and
 * `list --versions`, the version being served, and the pieces below the library (a remote's cache,
 * a checkout, the gate a swap passes, a verified push). Credentials never appear in any of them.
 */
import type { Cluster, Logger } from '@promptyard/core';

export type GitSourceKind = 'prompts' | 'skills';

/** One `[[prompts.git]]` or `[[skills.git]]` table, checked. */
export interface GitSourceConfig {
  readonly kind: GitSourceKind;
  /** https, ssh (`ssh://…` or `user@host:path`), `git://`, `file://` or an absolute local path. */
  readonly url: string;
  /** A tag, a branch or a full commit id; `HEAD` is the remote's default branch. A branch is followed. */
  readonly ref: string;
  /** The folder inside the repository, `/`-separated, without `.` or `..` segments; `''` is the root. */
  readonly path: string;
  /** How often a followed branch is checked; 0: only on `sync`, SIGHUP or the webhook. */
  readonly pollMs: number;
  /** An environment variable holding a token for an https remote, sent as HTTP Basic credentials (`authUser`:token). */
  readonly authTokenEnv?: string | undefined;
  /** The user name sent with the token (default `x-access-token`, which GitHub, GitLab and Gitea accept). */
  readonly authUser?: string | undefined;
}

export type RefKind = 'branch' | 'tag' | 'commit';

/** What a remote's ref points at now. */
export interface RemoteRef {
  readonly commit: string;
  readonly kind: RefKind;
}

/** A source's state, for `/health`, `list --versions` and logs. */
export interface GitSourceStatus {
  /** Stable for a source's kind, URL and path (not its ref, which a config reload may move). */
  readonly id: string;
  readonly kind: GitSourceKind;
  /** The URL without credentials. */
  readonly url: string;
  readonly ref: string;
  /** Unknown until the remote (or the lock, or the cache) said. */
  readonly refKind: RefKind | undefined;
  readonly path: string;
  /** The commit served; undefined before the first one is checked out. */
  readonly commit: string | undefined;
  /** When the commit served was fetched (ISO 8601). */
  readonly fetchedAt: string | undefined;
  /** The remote could not be reached at the last try: the cached commit is served. */
  readonly stale: boolean;
  /** Serving the lock's commit (`--frozen`): the source does not move. */
  readonly frozen: boolean;
  /** The last failure (fetch, checkout, digest), credentials removed; undefined once a try succeeds. */
  readonly lastError: string | undefined;
}

/** The version of a source being served. */
export interface ServedVersion {
  readonly commit: string;
  /** The source's folder in its checkout, absolute: the same folder for every version of the source. */
  readonly dir: string;
  /**
   * Absolute paths under `dir` that differ from the previous version (added, modified, deleted, both
   * sides of a rename); undefined for the first version of the process (everything is read).
   */
  readonly changed: readonly string[] | undefined;
}

/** `_meta["dev.promptyard/git"]` of every prompt and skill served from git. */
export interface GitMeta {
  readonly repository: string;
  readonly ref: string;
  readonly commit: string;
  /** The file's path in the repository, `/`-separated. */
  readonly path: string;
}

/**
 * What renders and reads of a source pass through, so that a request is answered wholly from one
 * version: a swap waits for those in flight and holds back those that start meanwhile.
 */
export interface SwapGate {
  /** Runs `task` on the version served when it starts; a swap waits for it. */
  shared<T>(task: () => Promise<T>): Promise<T>;
  /** Runs `swap` once the tasks in flight are done (or `drainMs` passed, logged); tasks that start meanwhile wait for it. */
  exclusive<T>(swap: () => Promise<T>): Promise<T>;
}

/** One commit that changed a file, for `promptyard-server versions`. */
export interface FileVersion {
  readonly commit: string;
  /** Committer date, ISO 8601. */
  readonly date: string;
  readonly author: string;
  readonly subject: string;
}

/** Credentials of an https remote: read from the environment on every call, never logged. */
export interface GitCredentials {
  readonly tokenEnv?: string | undefined;
  readonly user?: string | undefined;
}

/** One remote's objects, kept in a bare repository under the cache folder, shared by the sources of that URL. */
export interface RemoteCache {
  /** The URL without credentials. */
  readonly url: string;
  /** What `ref` points at on the remote now (`git ls-remote`; a full commit id is taken as given). */
  resolve(ref: string): Promise<RemoteRef>;
  /**
   * Fetches `commit` (shallow, that one commit) unless the cache has it, and records it as what `ref`
   * last resolved to, with the time. Rejects when the remote does not offer it.
   */
  fetch(ref: string, commit: string): Promise<void>;
  /** What `ref` last resolved to and when, from the cache alone (no network). */
  cached(ref: string): Promise<{ readonly commit: string; readonly kind: RefKind; readonly fetchedAt: Date } | undefined>;
  /** Whether the cache holds `commit`. */
  has(commit: string): Promise<boolean>;
  /** Files under `path` at `commit`, relative to `path` (`/`-separated) → SHA-256 (hex) of their bytes, from the cache's objects. */
  digests(commit: string, path: string): Promise<Map<string, string>>;
  /** Commits that changed `file` (repository-relative) up to `commit`, newest first; deepens the shallow history as needed. */
  log(commit: string, file: string, limit: number): Promise<readonly FileVersion[]>;
}

/** A source's working folder: one checkout per source and process, moved in place by git. */
export interface Checkout {
  /** The checkout's root, absolute; the folder served is `path` inside it. */
  readonly root: string;
  /** The commit checked out; undefined before the first `moveTo`. */
  readonly commit: string | undefined;
  /**
   * Moves the checkout to `commit` (in the cache already): only the files that differ are written,
   * local edits are discarded and stray files removed. Resolves with the repository-relative paths
   * that differ from the previous commit, or undefined for the first checkout of the process.
   */
  moveTo(commit: string): Promise<readonly string[] | undefined>;
  /** Releases the checkout for another process (its folder stays, for a fast next start). */
  release(): Promise<void>;
}

/** The cache folder (`[state] dir` + `/git`): remotes' objects, checkouts, and sync requests. */
export interface GitCache {
  readonly dir: string;
  remote(url: string, credentials?: GitCredentials): RemoteCache;
  /** Takes this process's checkout of source `id` (one not held by another running process). */
  checkout(id: string, remote: RemoteCache): Promise<Checkout>;
}

/** A push a webhook told of, signature checked. */
export interface PushEvent {
  readonly provider: 'github' | 'gitlab' | 'gitea';
  /** The full ref pushed: `refs/heads/main`, `refs/tags/v2`. */
  readonly ref: string;
  /** The commit the ref points at after the push, when the payload says. */
  readonly after: string | undefined;
  /** Every URL the payload gives for the repository (clone, ssh, web). */
  readonly repositoryUrls: readonly string[];
}

/** What a sync did: sources moved (id → new commit), unchanged, and failed (id → reason). */
export interface SyncReport {
  readonly moved: ReadonlyMap<string, string>;
  readonly unchanged: readonly string[];
  readonly failed: ReadonlyMap<string, string>;
}

/** A source of the library as the binary serves it. */
export interface GitSourceHandle {
  readonly id: string;
  readonly config: GitSourceConfig;
  /** The folder served, absolute: the same for the life of the process. */
  readonly dir: string;
  readonly gate: SwapGate;
  status(): GitSourceStatus;
  /** `_meta["dev.promptyard/git"]` of the file `file` (absolute, inside `dir`) at the served commit. */
  metaOf(file: string): GitMeta;
  /**
   * Adds what applies a new version: re-reads `version.changed` and updates what is served. Each runs
   * in the order added, inside `gate.exclusive`, with the checkout already moved; a rejection is
   * logged and the source stays on the new commit (its files are what git says).
   */
  onVersion(apply: (version: ServedVersion) => Promise<void>): void;
}

export interface GitLibraryOptions {
  readonly sources: readonly GitSourceConfig[];
  /** The cache folder: `<[state] dir>/git`. */
  readonly cacheDir: string;
  readonly logger: Logger;
  /** `promptyard.lock`, read when `frozen`. */
  readonly lockFile?: string | undefined;
  /** Serve exactly the lock's commits and refuse files whose digest differs (`--frozen`, `[prompts] frozen`). */
  readonly frozen?: boolean | undefined;
  /** Replicas agree on each source's commit through it. */
  readonly cluster?: Cluster | undefined;
  /** Where tokens are read (`auth_token_env`); `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The git sources of one binary, each checked out at the version it serves. */
export interface GitLibrary {
  readonly sources: readonly GitSourceHandle[];
  /** Polls followed branches (each at its `pollMs`), listens for `sync` requests and the cluster's commits. */
  start(): void;
  /** Checks every followed source now (or only those `push` names) and moves those whose commit changed, one version each. */
  sync(push?: PushEvent): Promise<SyncReport>;
  /** A config reload: sources whose `ref` or `pollMs` changed move or poll anew; returns what applies only at the next start. */
  reconfigure(sources: readonly GitSourceConfig[]): Promise<readonly string[]>;
  status(): readonly GitSourceStatus[];
  close(): Promise<void>;
}

/** `promptyard.lock`: what `lock` wrote and `--frozen` serves. */
export interface LockFile {
  readonly lockfileVersion: 1;
  readonly sources: readonly LockedSource[];
}

export interface LockedSource {
  readonly kind: GitSourceKind;
  readonly url: string;
  readonly ref: string;
  readonly path: string;
  readonly commit: string;
  /** Files relative to `path` → SHA-256 (hex). */
  readonly files: Readonly<Record<string, string>>;
}
