/**
 * `@promptyard/git-library`: prompt and skill libraries served from git by version. Below the library
 * (`library/`: opening every source, following branches, sync requests, replicas agreeing on a
 * commit) sit the remotes' cache and the checkouts (`git/`, the system git through execa), the
 * lockfile (`lock/`), signed push webhooks (`webhook/`) and the gate a swap passes (`gate/`);
 * `serve/` wraps what the prompt sources read so that it names its commit and passes the gate.
 */
export type * from './types.js';

// git/ — the system git: the cache of remotes and the checkouts

// lock/ — promptyard.lock

// webhook/ — signed push payloads

// gate/ — swaps between versions

// library/ — the sources of a binary

// serve/ — what is served from a checkout
export { gitMetaKey, servePromptsFromGit } from './serve/git-prompt-source.js';
export type { CheckoutPromptSource } from './serve/git-prompt-source.js';
export { gateSkillTree, skillMetaOf } from './serve/gated-skill-tree.js';
