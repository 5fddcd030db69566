/**
 * Running the system git: one environment for every call (no prompts, no pager, C locale), a timeout
 * per call, the token of `auth_token_env` sent through the environment only, and `redact` for every
 * text that leaves the module (URL userinfo and token values removed).
 */
import { Buffer } from 'node:buffer';
import { PromptyardError } from '@promptyard/core';
import { execa, type ResultPromise } from 'execa';
import type { GitCredentials } from '../types.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Network commands (ls-remote, fetch) wait this long by default; local ones `localTimeoutMs`. */
export const networkTimeoutMs = 120_000;
const localTimeoutMs = 30_000;

const minimumVersion = [2, 31] as const;

/** A git command that failed: its arguments and stderr with credentials removed. */
export class GitCommandError extends Error {
  override readonly name = 'GitCommandError';
  readonly args: readonly string[];
  readonly stderr: string;
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;

  constructor(args: readonly string[], stderr: string, exitCode: number | undefined, timedOut: boolean) {
    super(`git ${args.join(' ')} ${timedOut ? 'timed out' : `failed (exit ${String(exitCode)})`}: ${stderr}`);
    this.args = args;
    this.stderr = stderr;
    this.exitCode = exitCode;
    this.timedOut = timedOut;
  }
}

/** Userinfo in URLs: removed everywhere, except a plain ssh user (`ssh://git@host`), which is not a secret. */
const userinfoPattern = /\b([a-z][a-z0-9+.-]*):\/\/([^/\s@]*)@/gi;

const stripUserinfo = (text: string): string =>
  text.replace(userinfoPattern, (_match, scheme: string, userinfo: string) =>
    /ssh/i.test(scheme) && !userinfo.includes(':') ? `${scheme}://${userinfo}@` : `${scheme}://`,
  );

/** `text` without URL credentials and without any of `secrets` (tokens and the headers made of them). */
export const redact = (text: string, secrets: readonly string[] = []): string => {
  let result = stripUserinfo(text);
  for (const secret of secrets) if (secret.length > 0) result = result.split(secret).join('***');
  return result;
};

/** The environment and the secrets to redact for a call with `credentials`. */
export interface GitAuth {
  readonly env: Record<string, string>;
  readonly secrets: readonly string[];
}

/**
 * The token of `credentials.tokenEnv`, as an `http.extraHeader` given through `GIT_CONFIG_*` (never
 * argv, never a file). Without `tokenEnv` git's own credential helpers answer as usual.
 */
export const gitAuth = (
  credentials: GitCredentials | undefined,
  env: Env,
  source: string,
  userinfo?: { readonly user: string; readonly password: string },
): GitAuth => {
  const tokenEnv = credentials?.tokenEnv;
  if (tokenEnv === undefined || tokenEnv === '')
    return userinfo === undefined ? { env: {}, secrets: [] } : basicAuth(env, userinfo.user, userinfo.password);
  const token = env[tokenEnv];
  if (token === undefined || token === '') {
    throw new PromptyardError(
      'SOURCE_ERROR',
      `git remote ${source}: auth_token_env names the environment variable ${tokenEnv}, which is not set — export it with the token, or remove auth_token_env to use git's credential helpers`,
      { data: { source, reason: 'token-missing' } },
    );
  }
  return basicAuth(env, credentials?.user ?? 'x-access-token', token);
};

/** `Authorization: Basic` for every request git makes, through `GIT_CONFIG_*` (never a command line). */
const basicAuth = (env: Env, user: string, password: string): GitAuth => {
  const basic = Buffer.from(`${user}:${password}`).toString('base64');
  const count = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  return {
    env: {
      GIT_CONFIG_COUNT: String(count + 1),
      [`GIT_CONFIG_KEY_${String(count)}`]: 'http.extraHeader',
      [`GIT_CONFIG_VALUE_${String(count)}`]: `Authorization: Basic ${basic}`,
    },
    // `https://<token>@host/…` carries its secret as the user name.
    secrets: [password === '' ? user : password, basic],
  };
};

export interface RunGitOptions {
  readonly env: Env;
  readonly auth?: GitAuth | undefined;
  readonly cwd?: string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly input?: string | undefined;
}

const baseOptions = (options: RunGitOptions) => ({
  env: callEnv(options),
  extendEnv: false,
  ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  timeout: options.timeoutMs ?? localTimeoutMs,
  ...(options.input === undefined ? {} : { input: options.input }),
});

const callEnv = (options: RunGitOptions): Record<string, string | undefined> => ({
  ...options.env,
  ...options.auth?.env,
  GIT_TERMINAL_PROMPT: '0',
  // Empty (not unset): git then asks no program either, whatever SSH_ASKPASS or core.askPass say.
  GIT_ASKPASS: '',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  LC_ALL: 'C',
  LANGUAGE: 'C',
});

/** Starts git with the module's environment; the caller reads its streams (`git cat-file --batch`). */
export const spawnGit = (args: readonly string[], options: RunGitOptions): ResultPromise<{ buffer: { stdout: false } }> =>
  execa('git', args, { ...baseOptions(options), buffer: { stdout: false } });

/** Runs git and resolves with its stdout (final newline kept off); rejects with a `GitCommandError`. */
export const runGit = async (args: readonly string[], options: RunGitOptions): Promise<string> => {
  const result = await execa('git', args, { ...baseOptions(options), reject: false });
  if (result.failed) throw commandError(args, options, result);
  return result.stdout;
};

export const commandError = (
  args: readonly string[],
  options: RunGitOptions,
  result: {
    readonly stderr?: unknown;
    readonly exitCode?: number | undefined;
    readonly timedOut?: boolean | undefined;
    readonly message?: string | undefined;
  },
): GitCommandError => {
  const secrets = options.auth?.secrets ?? [];
  const stderr = typeof result.stderr === 'string' && result.stderr.trim() !== '' ? result.stderr.trim() : (result.message ?? '');
  return new GitCommandError(
    args.map((arg) => redact(arg, secrets)),
    redact(stderr, secrets),
    result.exitCode,
    result.timedOut === true,
  );
};

/** One check per PATH (tests give another). */
const checked = new Map<string, Promise<string>>();

const gitMissing = (detail: string): PromptyardError =>
  new PromptyardError(
    'SOURCE_ERROR',
    `promptyard-server needs git on the PATH for [[prompts.git]] and [[skills.git]] (version ${minimumVersion.join('.')} or newer): ${detail} — install git (apt-get install git, apk add git, brew install git, or https://git-scm.com/downloads) and start again`,
    { data: { reason: 'git-missing' } },
  );

const checkGit = async (env: Env): Promise<string> => {
  let output: string;
  try {
    output = await runGit(['--version'], { env });
  } catch (error) {
    throw gitMissing(error instanceof GitCommandError ? error.stderr : 'git could not be run');
  }
  const match = /(\d+)\.(\d+)/.exec(output);
  const [major, minor] = [Number(match?.[1] ?? 0), Number(match?.[2] ?? 0)];
  if (major < minimumVersion[0] || (major === minimumVersion[0] && minor < minimumVersion[1])) {
    throw gitMissing(`found "${output.trim()}"`);
  }
  return output.trim();
};

/** Checks once per process that git runs and is recent enough (`GIT_CONFIG_COUNT` needs 2.31); resolves with its version line. */
export const ensureGit = (env: Env = process.env): Promise<string> => {
  const key = env.PATH ?? '';
  let check = checked.get(key);
  if (check === undefined) {
    check = checkGit(env);
    checked.set(key, check);
    check.catch(() => checked.delete(key));
  }
  return check;
};
