/**
 * Git libraries held still and gone wrong (the built binary against real git remotes on loopback):
 * `lock` + `--frozen` serve the locked commit after the branch moved and refuse a tampered file;
 * a remote stopped at start serves the cached commit, stale, until it is back; clear errors naming the
 * source.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  gitEnv,
  gitLibraryToml,
  gitMetaKey,
  makeRepository,
  promptFile,
  promptText,
  sha256,
  startGitDaemon,
} from '../../../test-support/git-server.js';
import type { GitServer, GitSourceTable, Repository } from '../../../test-support/git-server.js';
import { cleanup, connectHttp, eventually, makeFolder, runCli, startHttp, waitForExit } from './harness.js';
import type { HttpServer } from './harness.js';

afterEach(cleanup);

const prompt = (text: string): string => promptFile(text);

const textOf = promptText;

interface GitHealth {
  readonly url: string;
  readonly ref: string;
  readonly commit?: string;
  readonly stale: boolean;
  readonly frozen: boolean;
  readonly fetchedAt?: string;
}

const gitHealth = async (server: HttpServer): Promise<GitHealth[]> => {
  const response = await fetch(`${new URL(server.url).origin}/health`);
  return ((await response.json()) as { git: GitHealth[] }).git;
};

/** promptyard.toml for `[[prompts.git]]` sources in a fresh folder, the cache in its `state`. */
const project = async (sources: readonly GitSourceTable[], more?: string): Promise<{ dir: string; file: string; stateDir: string }> => {
  const dir = await makeFolder({});
  const stateDir = join(dir, 'state');
  const file = join(dir, 'promptyard.toml');
  await writeFile(file, gitLibraryToml({ stateDir, prompts: sources, ...(more === undefined ? {} : { more }) }));
  return { dir, file, stateDir };
};

interface Lock {
  lockfileVersion: number;
  sources: { kind: string; url: string; ref: string; path: string; commit: string; files: Record<string, string> }[];
}

describe('lock and --frozen', () => {
  let repo: Repository;
  const greet = prompt('Greet, locked');
  const other = prompt('Other, locked');
  let locked: string;

  beforeAll(async () => {
    repo = await makeRepository();
    locked = await repo.commit({ 'prompts/greet.md': greet, 'prompts/other.md': other, 'extra/more.md': prompt('More') }, 'locked');
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  it('locks the commit and digests, then serves that commit frozen after the branch moved; a tampered digest refuses that file only', async () => {
    const { dir, file, stateDir } = await project([{ url: repo.bare, ref: 'main', path: 'prompts', poll: '1s' }]);
    const lock = await runCli(['--config', file, 'lock'], { env: gitEnv });
    expect(lock.code, lock.stderr).toBe(0);
    const lockFile = join(dir, 'promptyard.lock');
    const written = JSON.parse(await readFile(lockFile, 'utf8')) as Lock;
    expect(written).toEqual({
      lockfileVersion: 1,
      sources: [
        {
          kind: 'prompts',
          url: repo.bare,
          ref: 'main',
          path: 'prompts',
          commit: locked,
          files: { 'greet.md': sha256(greet), 'other.md': sha256(other) },
        },
      ],
    });
    const valid = await runCli(['--config', file, 'validate'], { env: gitEnv });
    expect(valid.code, valid.stderr + valid.stdout).toBe(0);

    // The branch moves on; a fresh cache (another machine) serves the locked commit all the same.
    await repo.commit({ 'prompts/greet.md': prompt('Greet, moved on') }, 'moved on');
    const moved = await repo.push();
    await rm(stateDir, { recursive: true, force: true });
    const frozen = await startHttp(['--config', file, '--frozen'], { env: gitEnv });
    const client = await connectHttp(frozen.url);
    expect(await textOf(client, 'greet')).toBe('Greet, locked\n');
    const { prompts } = await client.listPrompts();
    expect(prompts.find((entry) => entry.name === 'greet')?._meta?.[gitMetaKey]).toMatchObject({
      commit: locked,
      path: 'prompts/greet.md',
    });
    const [health] = await gitHealth(frozen);
    expect(health).toMatchObject({ commit: locked, frozen: true, stale: false });
    expect(health?.commit).not.toBe(moved);

    // One file's digest edited in the lock: that prompt is refused, the other served.
    written.sources[0]!.files['greet.md'] = sha256('something else');
    await writeFile(lockFile, JSON.stringify(written, null, 2));
    const tampered = await startHttp(['--config', file, '--frozen'], { env: gitEnv });
    const second = await connectHttp(tampered.url);
    const names = (await second.listPrompts()).prompts.map((entry) => entry.name);
    expect(names).toContain('other');
    expect(names).not.toContain('greet');
    expect(await textOf(second, 'other')).toBe('Other, locked\n');
    await expect(second.getPrompt({ name: 'greet' })).rejects.toThrow();
    expect(tampered.stderr.text).toMatch(/greet\.md/);
    expect(tampered.stderr.text).not.toMatch(/other\.md/);

    const invalid = await runCli(['--config', file, 'validate'], { env: gitEnv });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout + invalid.stderr).toMatch(/greet\.md/);
    expect(invalid.stdout + invalid.stderr).toMatch(/promptyard\.lock/);
  });

  it('a source missing from the lock: validate says so, and a frozen server does not start', async () => {
    const first: GitSourceTable = { url: repo.bare, ref: 'main', path: 'prompts', poll: 0 };
    const { file, stateDir } = await project([first]);
    const lock = await runCli(['--config', file, 'lock'], { env: gitEnv });
    expect(lock.code, lock.stderr).toBe(0);
    await writeFile(file, gitLibraryToml({ stateDir, prompts: [first, { url: repo.bare, ref: 'main', path: 'extra', poll: 0 }] }));
    const invalid = await runCli(['--config', file, 'validate'], { env: gitEnv });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout + invalid.stderr).toMatch(/extra[\s\S]*lock|lock[\s\S]*extra/);
    const failed = await startHttp(['--config', file, '--frozen'], { env: gitEnv }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/exited with [1-9]/);
    expect(failed).toMatch(/extra/);
    expect(failed).toMatch(/promptyard-server lock/);
  });

  it('refuses to start frozen when the locked commit cannot be had', async () => {
    const { dir, file } = await project([{ url: repo.bare, ref: 'main', path: 'prompts' }], '[prompts]\nfrozen = true');
    const missing = 'f'.repeat(40);
    const lock: Lock = {
      lockfileVersion: 1,
      sources: [{ kind: 'prompts', url: repo.bare, ref: 'main', path: 'prompts', commit: missing, files: {} }],
    };
    await writeFile(join(dir, 'promptyard.lock'), JSON.stringify(lock));
    await expect(startHttp(['--config', file], { env: gitEnv })).rejects.toThrow(new RegExp(`exited with [1-9][\\s\\S]*${missing}`));
  });
});

describe('a remote that cannot be reached', () => {
  let repo: Repository;
  let daemon: GitServer;
  let commit: string;

  beforeAll(async () => {
    repo = await makeRepository();
    commit = await repo.commit({ 'greet.md': prompt('Greet, cached') }, 'cached');
    await repo.push();
    daemon = await startGitDaemon(repo.base);
  });

  afterAll(async () => {
    await daemon?.stop();
    await repo?.remove();
  });

  it('serves the cached commit with a warning and /health stale when the remote is down at start, fresh once it is back; never fetched: exits naming the source', async () => {
    const url = daemon.url(repo.name);
    const { file } = await project([{ url, ref: 'main', poll: 0 }]);
    const first = await startHttp(['--config', file], { env: gitEnv });
    expect((await gitHealth(first))[0]).toMatchObject({ commit, stale: false });
    first.child.kill('SIGTERM');
    await waitForExit(first.child);
    await daemon.stop();

    const offline = await startHttp(['--config', file], { env: gitEnv });
    const client = await connectHttp(offline.url);
    expect(await textOf(client, 'greet')).toBe('Greet, cached\n');
    const [health] = await gitHealth(offline);
    expect(health).toMatchObject({ url, ref: 'main', commit, stale: true, frozen: false });
    expect(health?.fetchedAt).toEqual(expect.any(String));
    expect(offline.stderr.text).toMatch(/warn/i);
    expect(offline.stderr.text).toMatch(/unreachable|cannot reach|cached/i);

    const never = await project([{ url, ref: 'main', poll: 0 }]);
    const failed = await startHttp(['--config', never.file], { env: gitEnv }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/exited with [1-9]/);
    expect(failed).toContain(url);

    // The remote back (same address) with a new commit: a sync moves the stale server, fresh again.
    daemon = await startGitDaemon(repo.base, { port: daemon.port });
    await repo.commit({ 'greet.md': prompt('Greet, back online') }, 'back');
    const back = await repo.push();
    process.kill(offline.child.pid as number, 'SIGHUP');
    await eventually(
      async () => (await gitHealth(offline))[0],
      (source) => source?.commit === back && !source.stale,
      15_000,
    );
    expect(await textOf(client, 'greet')).toBe('Greet, back online\n');
  });
});

describe('clear errors naming the source', () => {
  let repo: Repository;

  beforeAll(async () => {
    repo = await makeRepository();
    await repo.commit({ 'prompts/greet.md': prompt('Greet') }, 'first');
    await repo.tag('v1');
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  it('a url that is not a git repository', async () => {
    const notARepository = await makeFolder({ 'greet.md': prompt('Not in git') });
    const { file } = await project([{ url: notARepository, ref: 'main' }]);
    const result = await runCli(['--config', file, 'list'], { env: gitEnv });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(notARepository);
    expect(result.stderr).toMatch(/not a git repository|repository/i);
  });

  it('a ref that does not exist, listing the refs there are', async () => {
    const { file } = await project([{ url: repo.bare, ref: 'v9', path: 'prompts' }]);
    const result = await runCli(['--config', file, 'list'], { env: gitEnv });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(repo.bare);
    expect(result.stderr).toContain('v9');
    expect(result.stderr).toContain('main');
    expect(result.stderr).toContain('v1');
  });

  it('a path outside the repository: exit 2, naming [[prompts.git]] #1', async () => {
    const { file } = await project([{ url: repo.bare, ref: 'main', path: '../x' }]);
    const result = await runCli(['--config', file, 'list'], { env: gitEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('[[prompts.git]] #1');
    expect(result.stderr).toContain('../x');
  });
});
