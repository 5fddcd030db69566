/**
 * Git remotes on loopback for the git library tests: a bare repository with a work clone to commit
 * from (the system git, no global or system config), served over `git daemon` (git://) or over smart
 * HTTP (`git http-backend` through fcgiwrap behind nginx, optionally with HTTP Basic auth). Every
 * process is ended by PID in `stop()`; every folder removed by `remove()`.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import { startNginxServer } from './nginx.js';
import type { Nginx } from './nginx.js';
import { startTool } from './output.js';
import type { Output } from './output.js';
import { freePort } from './prometheus.js';

const run = promisify(execFile);

/** What every git the tests run (and the servers they start) gets: no user's or system's config. */
export const gitEnv: Readonly<Record<string, string>> = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

const identity = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main'];

/** Runs the system git in `cwd`; resolves with its stdout, trimmed. */
const git = async (cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string> => {
  const { stdout } = await run('git', [...identity, ...args], { cwd, env: { ...process.env, ...gitEnv, ...env } });
  return stdout.trim();
};

export interface Repository {
  /** The folder holding the bare repository: the base path to serve it from. */
  readonly base: string;
  /** The bare repository's name in `base` (`library.git`): its path over git:// and smart HTTP. */
  readonly name: string;
  /** The bare repository, absolute. */
  readonly bare: string;
  /** `file://` URL of the bare repository. */
  readonly fileUrl: string;
  /** The clone commits are made in. */
  readonly work: string;
  /**
   * Writes `files` (relative path → content; `null` deletes) in the clone and commits them on the
   * current branch; resolves with the commit id. Not pushed: see `push`.
   */
  commit(files: Readonly<Record<string, string | null>>, message: string): Promise<string>;
  /** An annotated tag `name` on the clone's HEAD, pushed to the bare repository; resolves with the commit it tags. */
  tag(name: string): Promise<string>;
  /** Pushes `branch` (default `main`) to the bare repository; resolves with the commit pushed. */
  push(branch?: string): Promise<string>;
  /** Switches the clone to `branch`, made from HEAD when it does not exist. */
  checkout(branch: string): Promise<void>;
  /** Removes the bare repository and the clone. */
  remove(): Promise<void>;
}

/** A bare repository (default branch `main`) in a temporary folder, with a clone to commit from. */
export const makeRepository = async (name = 'library.git'): Promise<Repository> => {
  const base = await mkdtemp(join(tmpdir(), 'promptyard-git-remote-'));
  // As root, nginx's workers and git http-backend reach it as others may.
  await chmod(base, 0o755);
  const bare = join(base, name);
  const work = await mkdtemp(join(tmpdir(), 'promptyard-git-work-'));
  await git(base, ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  await git(work, ['init', '--quiet', '--initial-branch=main']);
  await git(work, ['remote', 'add', 'origin', bare]);
  const head = (): Promise<string> => git(work, ['rev-parse', 'HEAD']);
  return {
    base,
    name,
    bare,
    fileUrl: pathToFileURL(bare).href,
    work,
    commit: async (files, message) => {
      for (const [path, content] of Object.entries(files)) {
        const file = join(work, path);
        if (content === null) await rm(file, { force: true });
        else {
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, content);
        }
      }
      await git(work, ['add', '--all']);
      await git(work, ['commit', '--quiet', '--allow-empty', '-m', message]);
      return head();
    },
    tag: async (tag) => {
      await git(work, ['tag', '-a', '-m', `release ${tag}`, tag]);
      await git(work, ['push', '--quiet', 'origin', `refs/tags/${tag}`]);
      return head();
    },
    push: async (branch = 'main') => {
      await git(work, ['push', '--quiet', '--force', 'origin', `${branch}:${branch}`]);
      return git(work, ['rev-parse', branch]);
    },
    checkout: async (branch) => {
      const exists = await git(work, ['branch', '--list', branch]);
      await git(work, exists === '' ? ['checkout', '--quiet', '-b', branch] : ['checkout', '--quiet', branch]);
    },
    remove: async () => {
      await rm(base, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
    },
  };
};

export interface GitServer {
  readonly pid: number;
  readonly port: number;
  /** The URL of repository `name` in the served folder. */
  url(name: string): string;
  /** The server's output so far. */
  readonly log: Output;
  /** Ends the server by PID and waits for it. Idempotent. */
  stop(): Promise<void>;
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
const accepting = async (port: number, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing accepts connections on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * Ends `child` by PID (SIGTERM) and waits for it; with `group`, its whole process group (a child
 * spawned `detached`: fcgiwrap's preforked workers outlive their parent otherwise).
 */
const stopper =
  (child: ReturnType<typeof spawn>, group = false): (() => Promise<void>) =>
  async () => {
    const pid = child.pid as number;
    const running = child.exitCode === null && child.signalCode === null;
    const exited = running ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
    try {
      process.kill(group ? -pid : pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
    await exited;
  };

/**
 * `git daemon` serving every repository in `baseDir` on 127.0.0.1 (git://127.0.0.1:<port>/<name>), on
 * a free port or `port` (a remote back at the address it had).
 */
export const startGitDaemon = async (baseDir: string, options: { readonly port?: number } = {}): Promise<GitServer> => {
  const port = options.port ?? (await freePort());
  const { child, output } = await startTool(
    'git daemon',
    'git',
    [
      'daemon',
      '--reuseaddr',
      '--export-all',
      '--verbose',
      `--base-path=${baseDir}`,
      '--listen=127.0.0.1',
      `--port=${port}`,
      '--informative-errors',
      baseDir,
    ],
    /Ready to rumble/,
  );
  await accepting(port);
  return {
    pid: child.pid as number,
    port,
    url: (name) => `git://127.0.0.1:${port}/${name}`,
    log: output,
    stop: stopper(child),
  };
};

const fcgiwrapBinary = (): string | undefined =>
  ['/usr/sbin/fcgiwrap', '/usr/bin/fcgiwrap', '/usr/local/sbin/fcgiwrap'].find((path) => existsSync(path));

const httpBackend = '/usr/lib/git-core/git-http-backend';

/** Why smart HTTP cannot be served here (fcgiwrap or git http-backend missing), or undefined when it can. */
export const gitHttpUnavailable = (): string | undefined => {
  if (fcgiwrapBinary() === undefined) return 'fcgiwrap is not installed (bash scripts/ensure-tools.sh installs it)';
  if (!existsSync(httpBackend)) return `${httpBackend} is missing (the Debian package git brings it)`;
  return undefined;
};

/** Why HTTP Basic credentials cannot be made here (no openssl for the htpasswd line), or undefined. */
export const htpasswdUnavailable = async (): Promise<string | undefined> =>
  run('openssl', ['version']).then(
    () => undefined,
    () => 'openssl is not installed: no htpasswd line for nginx auth_basic can be made',
  );

export interface GitHttpServer extends GitServer {
  readonly nginx: Nginx;
}

/** The nginx `server` block passing every request to git http-backend through fcgiwrap. */
const gitHttpServerBlock = (listen: string, options: { root: string; socket: string; htpasswd: string | undefined }): string =>
  [
    'server {',
    `  listen ${listen};`,
    '  client_max_body_size 0;',
    '  location / {',
    ...(options.htpasswd === undefined ? [] : ['    auth_basic "git";', `    auth_basic_user_file ${options.htpasswd};`]),
    `    fastcgi_param SCRIPT_FILENAME ${httpBackend};`,
    `    fastcgi_param GIT_PROJECT_ROOT ${options.root};`,
    '    fastcgi_param GIT_HTTP_EXPORT_ALL 1;',
    '    fastcgi_param GIT_CONFIG_GLOBAL /dev/null;',
    '    fastcgi_param GIT_CONFIG_NOSYSTEM 1;',
    '    fastcgi_param GIT_PROTOCOL $http_git_protocol;',
    '    fastcgi_param PATH_INFO $uri;',
    '    fastcgi_param QUERY_STRING $args;',
    '    fastcgi_param REQUEST_METHOD $request_method;',
    '    fastcgi_param CONTENT_TYPE $content_type;',
    '    fastcgi_param CONTENT_LENGTH $content_length;',
    '    fastcgi_param REMOTE_USER $remote_user;',
    '    fastcgi_param REMOTE_ADDR $remote_addr;',
    '    fastcgi_param SERVER_PROTOCOL $server_protocol;',
    `    fastcgi_pass unix:${options.socket};`,
    '  }',
    '}',
    '',
  ].join('\n');

/** Resolves once the unix socket at `path` accepts connections. */
const socketAccepting = async (path: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ path }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`fcgiwrap does not accept on ${path} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/**
 * Smart HTTP for every repository in `baseDir` (http://127.0.0.1:<port>/<name>): nginx in front of
 * fcgiwrap running git http-backend. With `basicAuth`, nginx asks for that user and password (an
 * htpasswd line made with `openssl passwd -apr1`: check `htpasswdUnavailable()` first). Check
 * `gitHttpUnavailable()` before calling.
 */
export const startGitHttp = async (
  baseDir: string,
  options: { basicAuth?: { user: string; password: string } } = {},
): Promise<GitHttpServer> => {
  const fcgiwrap = fcgiwrapBinary();
  if (fcgiwrap === undefined) throw new Error(gitHttpUnavailable());
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-git-http-'));
  // As root, nginx's workers run as `nobody`: they must reach the socket and the password file.
  await chmod(dir, 0o755);
  let htpasswd: string | undefined;
  if (options.basicAuth !== undefined) {
    const { stdout } = await run('openssl', ['passwd', '-apr1', options.basicAuth.password]);
    htpasswd = join(dir, 'htpasswd');
    await writeFile(htpasswd, `${options.basicAuth.user}:${stdout.trim()}\n`, { mode: 0o644 });
  }
  const socket = join(dir, 'fcgiwrap.sock');
  // Its own process group: stopping it ends the workers it preforks too.
  const child = spawn(fcgiwrap, ['-c', '4', '-s', `unix:${socket}`], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  // Read all along (a full pipe would stall it), kept for the error when it exits early.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stopWrapper = stopper(child, true);
  let nginx: Nginx | undefined;
  try {
    const failed = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`fcgiwrap exited with ${code}: ${stderr}`))),
    );
    failed.catch(() => {});
    await Promise.race([socketAccepting(socket), failed]);
    await chmod(socket, 0o777);
    nginx = await startNginxServer((listen) => gitHttpServerBlock(listen, { root: baseDir, socket, htpasswd }));
  } catch (error) {
    await stopWrapper();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const started = nginx;
  let stopped = false;
  return {
    pid: started.pid,
    port: started.port,
    url: (name) => `${started.origin}/${name}`,
    log: started.log,
    nginx: started,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await started.stop();
      await stopWrapper();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/** One `[[prompts.git]]` or `[[skills.git]]` table. */
export interface GitSourceTable {
  readonly url: string;
  readonly ref?: string;
  readonly path?: string;
  /** `"1s"`, or 0 for never. */
  readonly poll?: string | number;
  readonly auth_token_env?: string;
  readonly auth_user?: string;
}

const tomlValue = (value: string | number | boolean): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

const tables = (name: string, sources: readonly GitSourceTable[]): string[] =>
  sources.flatMap((source) => [
    '',
    `[[${name}]]`,
    ...Object.entries(source)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key} = ${tomlValue(value as string | number)}`),
  ]);

/**
 * A promptyard.toml serving git libraries, its cache in `stateDir` (never the user's), with `more`
 * (further sections, as TOML text) after them.
 */
export const gitLibraryToml = (options: {
  readonly stateDir: string;
  readonly prompts?: readonly GitSourceTable[];
  readonly skills?: readonly GitSourceTable[];
  readonly more?: string;
}): string =>
  [
    '[state]',
    `dir = ${tomlValue(options.stateDir)}`,
    ...(options.more === undefined ? [] : ['', options.more]),
    ...tables('prompts.git', options.prompts ?? []),
    ...tables('skills.git', options.skills ?? []),
    '',
  ].join('\n');

/** The `_meta` key a prompt from git names its repository, ref, commit and path under. */
export const gitMetaKey = 'dev.promptyard/git';

/** A Markdown prompt file whose body is `text`. */
export const promptFile = (text: string, description = text): string => `---\ndescription: ${description}\n---\n${text}\n`;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The text of prompt `name` as the client gets it. */
export const promptText = async (client: Client, name: string): Promise<string> => {
  const content = (await client.getPrompt({ name })).messages[0]?.content;
  return content?.type === 'text' ? content.text : JSON.stringify(content);
};
