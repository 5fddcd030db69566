/**
 * Test helpers: real git repositories in temp folders (a bare one with tags v1 and v2 and a branch
 * main), `git daemon` on loopback, a loopback port nothing listens on.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/** What the tests give git: no user or system config. */
export const testEnv: Record<string, string | undefined> = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

export const git = async (cwd: string, ...args: string[]): Promise<string> =>
  (await execa('git', ['-c', 'user.name=Ada Tester', '-c', 'user.email=ada@example.com', ...args], { cwd, env: testEnv })).stdout;

export const tempDir = (prefix: string): Promise<string> => mkdtemp(path.join(os.tmpdir(), `promptyard-${prefix}-`));

export const removeDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });

export interface FixtureRepo {
  /** The folder holding everything (`work/` and `origin.git`). */
  readonly root: string;
  /** The working repository the commits were made in. */
  readonly work: string;
  /** The bare repository the tests fetch from. */
  readonly bare: string;
  /** v1 (annotated tag): prompts/a.md, b.md, sub/c.md, link → a.md; README.md. */
  readonly c1: string;
  /** v2 (lightweight tag): b.md changed, d.md added, sub/c.md deleted. */
  readonly c2: string;
  /** main: a.md changed. */
  readonly c3: string;
  /** Commits on main, in the working repository, pushed to the bare one. */
  commit(files: Readonly<Record<string, string | null>>, message: string): Promise<string>;
}

const writeFiles = async (work: string, files: Readonly<Record<string, string | null>>): Promise<void> => {
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(work, file);
    if (text === null) {
      await unlink(target);
    } else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
};

/** A bare repository `origin.git` with v1 (annotated), v2 (lightweight), main ahead of v2, and a branch and tag both named `dup`. */
export const makeFixtureRepo = async (): Promise<FixtureRepo> => {
  const root = await tempDir('git-fixture');
  const work = path.join(root, 'work');
  const bare = path.join(root, 'origin.git');
  await mkdir(work);
  await git(work, 'init', '--quiet', '--initial-branch=main');
  const commit = async (files: Readonly<Record<string, string | null>>, message: string): Promise<string> => {
    await writeFiles(work, files);
    await git(work, 'add', '--all');
    await git(work, 'commit', '--quiet', '-m', message);
    const id = (await git(work, 'rev-parse', 'HEAD')).trim();
    if (existsSync(bare)) await git(work, 'push', '--quiet', bare, 'main', '--force');
    return id;
  };
  await writeFiles(work, { 'README.md': '# library\n', 'prompts/a.md': 'A1\n', 'prompts/b.md': 'B1\n', 'prompts/sub/c.md': 'C1\n' });
  await symlink('a.md', path.join(work, 'prompts/link'));
  const c1 = await commit({}, 'first');
  await git(work, 'tag', '-a', 'v1', '-m', 'version 1');
  const c2 = await commit({ 'prompts/b.md': 'B2\n', 'prompts/d.md': 'D2\n', 'prompts/sub/c.md': null }, 'second');
  await git(work, 'tag', 'v2');
  await git(work, 'tag', 'dup', c1);
  await git(work, 'branch', 'dup', c2);
  const c3 = await commit({ 'prompts/a.md': 'A3\n' }, 'third');
  await git(root, 'clone', '--quiet', '--bare', work, bare);
  return { root, work, bare, c1, c2, c3, commit };
};

/** A loopback port that was free a moment ago (bound, then closed). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });

/** `git daemon` serving every repository under `base` on 127.0.0.1; resolves once it accepts connections. */
export const startGitDaemon = async (base: string): Promise<{ readonly port: number; stop(): Promise<void> }> => {
  const port = await freePort();
  const daemon = execa(
    'git',
    ['daemon', '--export-all', '--reuseaddr', '--verbose', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${String(port)}`, base],
    { env: testEnv, reject: false, buffer: false },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    daemon.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to rumble')) resolve();
    });
    void daemon.then((result) => {
      reject(new Error(`git daemon exited: ${seen} ${String(result.exitCode)}`));
    });
  });
  return {
    port,
    stop: async () => {
      daemon.kill();
      await daemon;
    },
  };
};
