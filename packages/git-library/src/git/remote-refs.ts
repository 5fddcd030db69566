/**
 * What a ref names on the remote (`git ls-remote`): a branch before a tag of the same name, an
 * annotated tag's commit, `HEAD` as the default branch; a ref that is not there is an error listing
 * some that are.
 */
import type { RemoteRef } from '../types.js';
import { networkError, sourceError } from './git-errors.js';
import { networkTimeoutMs, runGit, type RunGitOptions } from './run-git.js';

/** A full commit id (SHA-1 or SHA-256), taken as given without asking the remote. */
export const isCommitId = (ref: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(ref);

const parseLsRemote = (output: string): Map<string, string> => {
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [commit, name] = line.split('\t');
    if (commit !== undefined && name !== undefined && /^[0-9a-f]+$/.test(commit)) refs.set(name, commit);
  }
  return refs;
};

/** The full ref names `ref` may stand for, in the order they are preferred. */
export const candidateRefs = (ref: string): readonly { readonly name: string; readonly kind: 'branch' | 'tag' }[] => {
  if (ref === 'HEAD') return [{ name: 'HEAD', kind: 'branch' }];
  if (ref.startsWith('refs/heads/')) return [{ name: ref, kind: 'branch' }];
  if (ref.startsWith('refs/tags/')) return [{ name: ref, kind: 'tag' }];
  return [
    { name: `refs/heads/${ref}`, kind: 'branch' },
    { name: `refs/tags/${ref}`, kind: 'tag' },
  ];
};

const listSome = async (source: string, options: RunGitOptions): Promise<string> => {
  try {
    const refs = [...parseLsRemote(await runGit(['ls-remote', '--heads', '--tags', 'origin'], options)).keys()];
    const some = (prefix: string): string => {
      const names = refs.filter((name) => name.startsWith(prefix) && !name.endsWith('^{}')).map((name) => name.slice(prefix.length));
      return names.length === 0
        ? '(none)'
        : names.slice(0, 8).join(', ') + (names.length > 8 ? ` and ${String(names.length - 8)} more` : '');
    };
    return `branches: ${some('refs/heads/')}; tags: ${some('refs/tags/')}`;
  } catch (error) {
    throw networkError(source, error, 'listing the remote refs');
  }
};

/** Asks the remote what `ref` points at now (the bare repository's `origin`). */
export const lsRemoteRef = async (source: string, ref: string, options: RunGitOptions): Promise<RemoteRef> => {
  if (isCommitId(ref)) return { commit: ref.toLowerCase(), kind: 'commit' };
  const candidates = candidateRefs(ref);
  const patterns = candidates.flatMap(({ name }) => [name, `${name}^{}`]);
  let refs: Map<string, string>;
  try {
    refs = parseLsRemote(
      await runGit(['ls-remote', 'origin', ...patterns], { ...options, timeoutMs: options.timeoutMs ?? networkTimeoutMs }),
    );
  } catch (error) {
    throw networkError(source, error, `asking for ref "${ref}"`);
  }
  for (const { name, kind } of candidates) {
    const commit = refs.get(`${name}^{}`) ?? refs.get(name);
    if (commit !== undefined) return { commit, kind };
  }
  const existing = await listSome(source, { ...options, timeoutMs: options.timeoutMs ?? networkTimeoutMs });
  throw sourceError(
    source,
    'ref-not-found',
    `ref "${ref}" is neither a branch nor a tag there (${existing}) — set ref to one of them or to a full commit id`,
  );
};
