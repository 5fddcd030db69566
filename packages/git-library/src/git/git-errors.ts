/**
 * The errors of the git layer: `SOURCE_ERROR` with `data: { source, reason }`, the source being the
 * remote's URL without credentials, and a message that says what to do.
 */
import { PromptyardError } from '@promptyard/core';
import { GitCommandError } from './run-git.js';

export type GitFailureReason =
  | 'git-missing'
  | 'token-missing'
  | 'unreachable'
  | 'auth-failed'
  | 'not-a-repository'
  | 'ref-not-found'
  | 'commit-not-found'
  | 'path-not-found'
  | 'checkout-failed'
  | 'git-failed';

export const sourceError = (source: string, reason: GitFailureReason, message: string, cause?: unknown): PromptyardError =>
  new PromptyardError('SOURCE_ERROR', `git remote ${source}: ${message}`, {
    data: { source, reason },
    ...(cause === undefined ? {} : { cause }),
  });

const notARepository =
  /not a git repository|does not appear to be a git repository|repository not found|repository '[^']*' not found|not exported|no such (file|repository)|does not exist/i;
const authFailed =
  /authentication failed|could not read (username|password)|terminal prompts disabled|permission denied \(publickey|http 40[13]|returned error: 40[13]/i;
const refused = /not our ref|unadvertised object|couldn't find remote ref|no such remote ref|upload-pack: not our ref/i;
const locked = /index\.lock|shallow\.lock|cannot lock ref|could not lock config file|unable to create '[^']*\.lock'|\.lock': file exists/i;

/** Whether the server refused to send a commit it does not advertise (git daemon without allowReachableSHA1InWant). */
export const isRefusedWant = (error: unknown): boolean => error instanceof GitCommandError && refused.test(error.stderr);

/** Whether git failed on a lock another process holds (worth a retry after a short pause). */
export const isLockContention = (error: unknown): boolean => error instanceof GitCommandError && locked.test(error.stderr);

const lastLines = (text: string): string =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-3)
    .join(' / ');

/** A network command's failure (`ls-remote`, `fetch`) as the error a user reads. */
export const networkError = (source: string, error: unknown, doing: string): unknown => {
  if (!(error instanceof GitCommandError)) return error;
  if (error.timedOut) {
    return sourceError(source, 'unreachable', `${doing} timed out — check that the remote is reachable from this machine`, error);
  }
  if (notARepository.test(error.stderr)) {
    return sourceError(source, 'not-a-repository', `${doing}: no git repository there (${lastLines(error.stderr)}) — check the url`, error);
  }
  if (authFailed.test(error.stderr)) {
    return sourceError(
      source,
      'auth-failed',
      `${doing}: the remote refused the credentials (${lastLines(error.stderr)}) — set auth_token_env to a variable holding a token, or configure a git credential helper or ssh key`,
      error,
    );
  }
  return sourceError(source, 'unreachable', `${doing} failed: ${lastLines(error.stderr)} — check the url and the network`, error);
};

/** A local command's failure, for the cases no better reason fits. */
export const localError = (source: string, error: unknown, doing: string, reason: GitFailureReason = 'git-failed'): unknown =>
  error instanceof GitCommandError ? sourceError(source, reason, `${doing} failed: ${lastLines(error.stderr)}`, error) : error;
