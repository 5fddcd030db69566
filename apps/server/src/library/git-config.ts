/**
 * The config of libraries served from git: `[[prompts.git]]`, `[[skills.git]]`, `[state] dir` (the
 * cache), `[prompts] frozen` and `lock_file`, and `[git] webhook_secret_env`, checked into the
 * settings `@promptyard/git-library` takes.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, posix, resolve } from 'node:path';
import { PromptyardError } from '@promptyard/core';
import type { GitSourceConfig, GitSourceKind } from '@promptyard/git-library';

const gitSourceFields = (kind: GitSourceKind) =>
  ({
    url: {
      type: 'string',
      required: true,
      doc: `The repository of the ${kind}: https, ssh, git://, file:// or a local path (relative to the config file).`,
    },
    ref: {
      type: 'string',
      default: 'HEAD',
      doc: "A tag, a branch or a commit id; a branch is followed (default: the remote's default branch).",
    },
    path: { type: 'string', default: '', doc: 'The folder inside the repository to serve (default: its root).' },
    poll: {
      type: 'duration',
      min: 1000,
      default: 60_000,
      doc: 'How often a followed branch is checked, e.g. "60s"; 0: only on `sync`, SIGHUP or the webhook.',
    },
    auth_token_env: {
      type: 'string',
      doc: "An environment variable holding a token for an https remote (else git's own credential helpers answer).",
    },
    auth_user: { type: 'string', default: 'x-access-token', doc: 'The user name sent with the token.' },
  }) as const;

/** The sections and keys, spread into the server's config schema. */
export const gitConfigSections = {
  'prompts.git[]': gitSourceFields('prompts'),
  'skills.git[]': gitSourceFields('skills'),
  state: {
    dir: {
      type: 'string',
      doc: 'Where the server keeps what it fetched (git libraries under git/): default $XDG_CACHE_HOME/promptyard, else ~/.cache/promptyard.',
    },
  },
  git: {
    webhook_secret_env: {
      type: 'string',
      default: 'PROMPTYARD_GIT_WEBHOOK_SECRET',
      doc: 'The environment variable holding the secret of POST /hooks/git (GitHub, Gitea: HMAC-SHA256 signature; GitLab: its secret token); unset: no webhook.',
    },
  },
} as const;

/** The `[prompts]` keys of git libraries, spread into that section. */
export const gitPromptKeys = {
  frozen: {
    type: 'boolean',
    default: false,
    doc: 'Serve exactly the commits of the lock file and refuse files whose digest differs (also --frozen).',
  },
  lock_file: {
    type: 'string',
    default: 'promptyard.lock',
    doc: 'The lock file `promptyard-server lock` writes (relative to the config file).',
  },
} as const;

type SourceTable = {
  readonly url?: string | undefined;
  readonly ref: string;
  readonly path: string;
  readonly poll: number;
  readonly auth_token_env?: string | undefined;
  readonly auth_user: string;
};

/** The settings of git libraries, checked. */
export interface GitSettings {
  readonly sources: readonly GitSourceConfig[];
  /** `[state] dir` + `/git`, absolute. */
  readonly cacheDir: string;
  readonly lockFile: string;
  readonly frozen: boolean;
  /** The webhook's secret, from the environment only; undefined: no `/hooks/git`. */
  readonly webhookSecret: string | undefined;
  /** The variable it is read from, for the message saying the webhook is off. */
  readonly webhookSecretEnv: string;
}

const remoteForm = /^[a-z][a-z0-9+.-]*:\/\/|^[^/@\s]+@[^/:\s]+:/i;

/** A URL as given, or a local path made absolute against the config file's folder. */
const repositoryUrl = (url: string, base: string): string => (remoteForm.test(url) || isAbsolute(url) ? url : resolve(base, url));

/** `path` as a `/`-separated folder inside the repository, or why it is not one. */
const folderInside = (path: string, where: string): string => {
  // Only a leading `./` and a trailing `/` go: `../x` must stay what it is to be refused.
  const normalized = posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\/|\/$/g, '');
  if (posix.isAbsolute(normalized) || normalized === '..' || normalized.startsWith('../'))
    throw new PromptyardError(
      'CONFIG_INVALID',
      `${where} path "${path}" leaves the repository: give a folder inside it (or "" for its root).`,
    );
  return normalized === '.' ? '' : normalized;
};

const sourcesOf = (kind: GitSourceKind, tables: readonly SourceTable[], base: string): GitSourceConfig[] =>
  tables.map((table, index) => {
    const where = `[[${kind}.git]] #${index + 1}`;
    const url = table.url?.trim() ?? '';
    if (url === '') throw new PromptyardError('CONFIG_INVALID', `${where} needs url = "<repository URL or path>".`);
    if (table.ref.trim() === '') throw new PromptyardError('CONFIG_INVALID', `${where} ref is empty: give a tag, a branch or a commit.`);
    return {
      kind,
      url: repositoryUrl(url, base),
      ref: table.ref.trim(),
      path: folderInside(table.path, where),
      pollMs: table.poll,
      ...(table.auth_token_env === undefined ? {} : { authTokenEnv: table.auth_token_env }),
      authUser: table.auth_user,
    };
  });

/** The default cache: `$XDG_CACHE_HOME/promptyard`, `%LOCALAPPDATA%\promptyard` on Windows, else `~/.cache/promptyard`. */
const defaultStateDir = (env: Readonly<Record<string, string | undefined>>): string => {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'promptyard');
  if (process.platform === 'win32' && env['LOCALAPPDATA'] !== undefined) return join(env['LOCALAPPDATA'], 'promptyard');
  return join(env['HOME'] ?? homedir(), '.cache', 'promptyard');
};

/** The sections of the server's config these settings are read from. */
export interface GitConfigInput {
  readonly 'prompts.git[]': readonly SourceTable[];
  readonly 'skills.git[]': readonly SourceTable[];
  readonly state: { readonly dir?: string | undefined };
  readonly prompts: { readonly lock_file: string; readonly frozen: boolean };
  readonly git: { readonly webhook_secret_env: string };
}

/** The git settings; relative paths resolve against the config file's folder (else the working folder); `--frozen` wins. */
export const resolveGitSettings = (
  config: GitConfigInput,
  context: {
    readonly file: string | undefined;
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly frozen?: boolean | undefined;
  },
): GitSettings => {
  const base = context.file === undefined ? context.cwd : dirname(context.file);
  const secretEnv = config.git.webhook_secret_env;
  const secret = context.env[secretEnv];
  const stateDir = config.state.dir;
  return {
    sources: [...sourcesOf('prompts', config['prompts.git[]'], base), ...sourcesOf('skills', config['skills.git[]'], base)],
    cacheDir: join(stateDir === undefined ? defaultStateDir(context.env) : resolve(base, stateDir), 'git'),
    lockFile: resolve(base, config.prompts.lock_file),
    frozen: context.frozen ?? config.prompts.frozen,
    webhookSecret: secret === undefined || secret === '' ? undefined : secret,
    webhookSecretEnv: secretEnv,
  };
};
