/**
 * `@promptyard/git-library`: prompt and skill libraries served from git by version. Below the library
 * (`library/`: opening every source, following branches, sync requests, replicas agreeing on a
 * commit) sit the remotes' cache and the checkouts (`git/`, the system git through execa), the
 * lockfile (`lock/`), signed push webhooks (`webhook/`) and the gate a swap passes (`gate/`);
 * `serve/` wraps what the prompt sources read so that it names its commit and passes the gate.
 */
export type * from './types.js';

// git/ — the system git: the cache of remotes and the checkouts
export { openGitCache } from './git/open-git-cache.js';
export type { GitCacheOptions } from './git/open-git-cache.js';
export { normalizeRepositoryUrl, redactUrl, sourceId } from './git/urls.js';
export { ensureGit, redact } from './git/run-git.js';
export { isCommitId } from './git/remote-refs.js';
export type { GitFailureReason } from './git/git-errors.js';

// lock/ — promptyard.lock

// webhook/ — signed push payloads

// gate/ — swaps between versions

// library/ — the sources of a binary

// serve/ — what is served from a checkout
