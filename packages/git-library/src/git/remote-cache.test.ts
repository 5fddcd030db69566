import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, rename } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '@promptyard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitCache } from '../types.js';
import { openGitCache } from './open-git-cache.js';
import { freePort, git, makeFixtureRepo, removeDir, startGitDaemon, tempDir, testEnv, type FixtureRepo } from './test-git.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const rejection = async (promise: Promise<unknown>): Promise<{ code?: string; message: string; data?: Record<string, unknown> }> => {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string; data?: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
};

let repo: FixtureRepo;
let cacheDir: string;
let cache: GitCache;
const temps: string[] = [];

beforeAll(async () => {
  repo = await makeFixtureRepo();
  cacheDir = await tempDir('git-cache');
  temps.push(repo.root, cacheDir);
  cache = await openGitCache({ dir: cacheDir, logger: silentLogger(), env: testEnv });
});

afterAll(async () => {
  await Promise.all(temps.map(removeDir));
});

describe('resolve', () => {
  it('names what a branch, a tag, HEAD and a commit point at', async () => {
    const remote = cache.remote(repo.bare);
    expect(await remote.resolve('main')).toEqual({ commit: repo.c3, kind: 'branch' });
    // v1 is annotated: the commit, not the tag object.
    expect(await remote.resolve('v1')).toEqual({ commit: repo.c1, kind: 'tag' });
    expect(await remote.resolve('v2')).toEqual({ commit: repo.c2, kind: 'tag' });
    expect(await remote.resolve('HEAD')).toEqual({ commit: repo.c3, kind: 'branch' });
    expect(await remote.resolve('dup')).toEqual({ commit: repo.c2, kind: 'branch' });
    expect(await remote.resolve('refs/tags/dup')).toEqual({ commit: repo.c1, kind: 'tag' });
  });

  it('takes a full commit id as given, without asking the remote', async () => {
    const remote = cache.remote(path.join(repo.root, 'no-such-repository'));
    expect(await remote.resolve(repo.c2.toUpperCase())).toEqual({ commit: repo.c2, kind: 'commit' });
  });

  it('lists branches and tags that exist when the ref does not', async () => {
    const error = await rejection(cache.remote(`file://${repo.bare}`).resolve('v9'));
    expect(error.code).toBe('SOURCE_ERROR');
    expect(error.data).toMatchObject({ reason: 'ref-not-found', source: `file://${repo.bare}` });
    expect(error.message).toContain('"v9"');
    expect(error.message).toMatch(/branches: .*main/);
    expect(error.message).toMatch(/tags: .*v1.*v2|tags: .*v2.*v1/);
  });

  it('says when the url is no repository', async () => {
    const notRepo = await tempDir('not-a-repo');
    temps.push(notRepo);
    const error = await rejection(cache.remote(notRepo).resolve('main'));
    expect(error.data).toMatchObject({ reason: 'not-a-repository' });
    const missing = await rejection(cache.remote(path.join(notRepo, 'missing')).resolve('main'));
    expect(missing.data).toMatchObject({ reason: 'not-a-repository' });
    expect(missing.message).toContain(path.join(notRepo, 'missing'));
  });

  it('says when the remote cannot be reached', async () => {
    const port = await freePort();
    const error = await rejection(cache.remote(`git://127.0.0.1:${String(port)}/x.git`).resolve('main'));
    expect(error.data).toMatchObject({ reason: 'unreachable' });
  });
});

describe('fetch and cached', () => {
  it('answers from the cache once the remote is gone', async () => {
    const fixture = await makeFixtureRepo();
    temps.push(fixture.root);
    const remote = cache.remote(fixture.bare);
    expect(await remote.cached('v1')).toBeUndefined();
    expect(await remote.has(fixture.c1)).toBe(false);
    await remote.fetch('v1', (await remote.resolve('v1')).commit);
    await remote.fetch('main', (await remote.resolve('main')).commit);
    await rename(fixture.bare, `${fixture.bare}.moved`);
    const v1 = await remote.cached('v1');
    expect(v1).toMatchObject({ commit: fixture.c1, kind: 'tag' });
    expect(Date.now() - (v1?.fetchedAt.getTime() ?? 0)).toBeLessThan(60_000);
    expect(await remote.cached('main')).toMatchObject({ commit: fixture.c3, kind: 'branch' });
    expect(await remote.cached('v2')).toBeUndefined();
    expect(await remote.has(fixture.c1)).toBe(true);
    expect(await remote.has(fixture.c2)).toBe(false);
    // A second cache on the same folder (another process) reads the same record.
    const other = await openGitCache({ dir: cacheDir, logger: silentLogger(), env: testEnv });
    expect(await other.remote(fixture.bare).cached('main')).toMatchObject({ commit: fixture.c3, kind: 'branch' });
    const unreachable = await rejection(remote.resolve('main'));
    expect(unreachable.data).toMatchObject({ reason: 'not-a-repository' });
  });

  it('fetches a commit given by id', async () => {
    const remote = cache.remote(repo.bare);
    await remote.fetch(repo.c2, repo.c2);
    expect(await remote.cached(repo.c2)).toMatchObject({ commit: repo.c2, kind: 'commit' });
  });
});

describe('digests', () => {
  it('match the SHA-256 of the files checked out at that commit, symlinks as their link text, keyed relative to the path', async () => {
    const remote = cache.remote(repo.bare);
    await remote.fetch('v1', repo.c1);
    const digests = await remote.digests(repo.c1, 'prompts');
    const checkout = await tempDir('v1-files');
    temps.push(checkout);
    await git(checkout, 'clone', '--quiet', '--branch', 'v1', repo.bare, 'v1');
    const onDisk = async (file: string): Promise<string> =>
      createHash('sha256')
        .update(await readFile(path.join(checkout, 'v1', 'prompts', file)))
        .digest('hex');
    const expected = new Map([
      ['a.md', await onDisk('a.md')],
      ['b.md', await onDisk('b.md')],
      ['sub/c.md', await onDisk('sub/c.md')],
      ['link', sha256(await readlink(path.join(checkout, 'v1', 'prompts', 'link')))],
    ]);
    expect(expected.get('b.md')).toBe(sha256('B1\n'));
    expect(digests).toEqual(expected);
    expect([...(await remote.digests(repo.c1, '')).keys()].sort()).toEqual([
      'README.md',
      'prompts/a.md',
      'prompts/b.md',
      'prompts/link',
      'prompts/sub/c.md',
    ]);
  });

  it('leave submodules out', async () => {
    const fixture = await makeFixtureRepo();
    temps.push(fixture.root);
    await git(fixture.work, 'update-index', '--add', '--cacheinfo', `160000,${fixture.c1},prompts/vendor`);
    await git(fixture.work, 'commit', '--quiet', '-m', 'a submodule');
    await git(fixture.work, 'push', '--quiet', fixture.bare, 'main');
    const withSubmodule = (await git(fixture.work, 'rev-parse', 'HEAD')).trim();
    const remote = cache.remote(fixture.bare);
    await remote.fetch('main', withSubmodule);
    expect(await git(fixture.bare, 'ls-tree', '-r', withSubmodule, 'prompts/vendor')).toMatch(/^160000 commit/);
    expect([...(await remote.digests(withSubmodule, 'prompts')).keys()].sort()).toEqual(['a.md', 'b.md', 'd.md', 'link']);
  });

  it('fail for a path that is not a folder at that commit', async () => {
    const remote = cache.remote(repo.bare);
    await remote.fetch('v2', repo.c2);
    const missing = await rejection(remote.digests(repo.c2, 'prompts/sub'));
    expect(missing.data).toMatchObject({ reason: 'path-not-found' });
    expect(missing.message).toContain('"prompts/sub"');
    expect(missing.message).toContain(repo.c2);
    const file = await rejection(remote.digests(repo.c2, 'prompts/a.md'));
    expect(file.data).toMatchObject({ reason: 'path-not-found' });
  });
});

describe('log', () => {
  it('lists the commits that changed a file, from a shallow cache', async () => {
    const fixture = await makeFixtureRepo();
    const dir = await tempDir('git-cache-log');
    temps.push(fixture.root, dir);
    const remote = (await openGitCache({ dir, logger: silentLogger(), env: testEnv })).remote(`file://${fixture.bare}`);
    await remote.fetch('main', fixture.c3);
    const shallow = await readFile(path.join(dir, 'repos', (await readdirOne(path.join(dir, 'repos'))) ?? '', 'shallow'), 'utf8');
    expect(shallow.trim()).toBe(fixture.c3);
    const a = await remote.log(fixture.c3, 'prompts/a.md', 10);
    expect(a.map((version) => version.commit)).toEqual([fixture.c3, fixture.c1]);
    expect(a[0]).toMatchObject({ author: 'Ada Tester', subject: 'third' });
    expect(Number.isNaN(Date.parse(a[0]?.date ?? ''))).toBe(false);
    expect((await remote.log(fixture.c3, 'prompts/b.md', 10)).map((version) => version.commit)).toEqual([fixture.c2, fixture.c1]);
    expect((await remote.log(fixture.c3, 'prompts/b.md', 1)).map((version) => version.commit)).toEqual([fixture.c2]);
  });
});

const readdirOne = async (dir: string): Promise<string | undefined> => (await readdir(dir))[0];

describe('over git daemon', () => {
  it('resolves and fetches', async () => {
    const base = await tempDir('git-daemon');
    temps.push(base);
    await mkdir(path.join(base, 'team'));
    await git(base, 'clone', '--quiet', '--bare', repo.bare, path.join(base, 'team', 'library.git'));
    const daemon = await startGitDaemon(base);
    try {
      const remote = cache.remote(`git://127.0.0.1:${String(daemon.port)}/team/library.git`);
      const v1 = await remote.resolve('v1');
      expect(v1).toEqual({ commit: repo.c1, kind: 'tag' });
      await remote.fetch('v1', v1.commit);
      expect(await remote.has(repo.c1)).toBe(true);
      expect([...(await remote.digests(repo.c1, 'prompts')).keys()].sort()).toEqual(['a.md', 'b.md', 'link', 'sub/c.md']);
      const missing = await rejection(cache.remote(`git://127.0.0.1:${String(daemon.port)}/team/none.git`).resolve('v1'));
      expect(missing.data).toMatchObject({ reason: 'not-a-repository' });
    } finally {
      await daemon.stop();
    }
  });
});

describe('a server that sends only advertised commits', () => {
  it('is asked for the ref instead, and a commit the ref moved away from is a clear error', async () => {
    const fixture = await makeFixtureRepo();
    const dir = await tempDir('git-cache-v0');
    temps.push(fixture.root, dir);
    // c1 is then only the commit of the annotated tag v1, and c2 no tip at all.
    await git(fixture.bare, 'tag', '-d', 'dup', 'v2');
    await git(fixture.bare, 'branch', '-D', 'dup');
    const daemon = await startGitDaemon(fixture.root);
    try {
      const v0 = { ...testEnv, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'protocol.version', GIT_CONFIG_VALUE_0: '0' };
      const remote = (await openGitCache({ dir, logger: silentLogger(), env: v0 })).remote(
        `git://127.0.0.1:${String(daemon.port)}/origin.git`,
      );
      const v1 = await remote.resolve('v1');
      await remote.fetch('v1', v1.commit);
      expect(await remote.cached('v1')).toMatchObject({ commit: fixture.c1, kind: 'tag' });
      const moved = await rejection(remote.fetch('main', fixture.c2));
      expect(moved.data).toMatchObject({ reason: 'commit-not-found' });
      expect(moved.message).toContain(fixture.c2);
      expect(await remote.cached('main')).toBeUndefined();
    } finally {
      await daemon.stop();
    }
  });
});

describe('two processes on one cache folder', () => {
  it('fetch at the same time', async () => {
    const fixture = await makeFixtureRepo();
    const dir = await tempDir('git-cache-shared');
    temps.push(fixture.root, dir);
    const [one, two] = await Promise.all([0, 1].map(() => openGitCache({ dir, logger: silentLogger(), env: testEnv })));
    const url = `file://${fixture.bare}`;
    const a = one?.remote(url);
    const b = two?.remote(url);
    await Promise.all([a?.fetch('v1', fixture.c1), b?.fetch('v2', fixture.c2), a?.fetch('main', fixture.c3), b?.fetch('HEAD', fixture.c3)]);
    for (const [ref, commit] of [
      ['v1', fixture.c1],
      ['v2', fixture.c2],
      ['main', fixture.c3],
    ] as const) {
      expect(await a?.has(commit)).toBe(true);
      expect((await b?.cached(ref))?.commit).toBe(commit);
    }
  });
});

describe('credentials', () => {
  it('never show the token nor URL userinfo', async () => {
    const port = await freePort();
    const token = 'ghp_secretTOKENvalue123';
    const env = { ...testEnv, PROMPTYARD_TEST_TOKEN: token };
    const tokenCache = await openGitCache({ dir: cacheDir, logger: silentLogger(), env });
    const remote = tokenCache.remote(`http://127.0.0.1:${String(port)}/team/library.git`, { tokenEnv: 'PROMPTYARD_TEST_TOKEN' });
    const error = await rejection(remote.resolve('main'));
    expect(error.data).toMatchObject({ reason: 'unreachable' });
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
    const seen = `${error.message} ${JSON.stringify(error.data)} ${String((error as { cause?: unknown }).cause)}`;
    expect(seen).not.toContain(token);
    expect(seen).not.toContain(basic);

    const withUserinfo = tokenCache.remote(`https://ada:pa55word@127.0.0.1:${String(port)}/team/library.git`);
    expect(withUserinfo.url).toBe(`https://127.0.0.1:${String(port)}/team/library.git`);
    const userinfoError = await rejection(withUserinfo.resolve('main'));
    expect(
      `${userinfoError.message} ${JSON.stringify(userinfoError.data)} ${String((userinfoError as { cause?: unknown }).cause)}`,
    ).not.toContain('pa55word');
    // Nor does it reach the cache: the repository's config holds the URL without it.
    const configs = await Promise.all(
      (await readdir(path.join(cacheDir, 'repos'))).map((name) =>
        readFile(path.join(cacheDir, 'repos', name, 'config'), 'utf8').catch(() => ''),
      ),
    );
    expect(configs.join('\n')).toContain(`https://127.0.0.1:${String(port)}/team/library.git`);
    expect(configs.join('\n')).not.toContain('pa55word');
  });

  it('says which variable is missing', async () => {
    const error = await rejection(
      cache.remote('https://git.example.com/team/x.git', { tokenEnv: 'PROMPTYARD_UNSET_TOKEN' }).resolve('main'),
    );
    expect(error.code).toBe('SOURCE_ERROR');
    expect(error.message).toContain('PROMPTYARD_UNSET_TOKEN');
  });
});
