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
export { redactUrl, sourceId } from './git/urls.js';
export type { GitFailureReason } from './git/git-errors.js';

// lock/ — promptyard.lock
export { compareDigests, lockedSource, readLockFile, writeLockFile } from './lock/lock-file.js';
export type { DigestCheck } from './lock/lock-file.js';

// webhook/ — signed push payloads
export { verifyPush } from './webhook/verify-push.js';
export type { VerifiedPush, WebhookHeaders } from './webhook/verify-push.js';

// gate/ — swaps between versions: each source's gate is its handle's `gate`

// library/ — the sources of a binary
export { openGitLibrary } from './library/git-library.js';
export { requestSync } from './library/sync-requests.js';

// serve/ — what is served from a checkout
export { gitMetaKey, servePromptsFromGit } from './serve/git-prompt-source.js';
export type { CheckoutPromptSource } from './serve/git-prompt-source.js';
export { gateSkillTree, skillMetaOf } from './serve/gated-skill-tree.js';
