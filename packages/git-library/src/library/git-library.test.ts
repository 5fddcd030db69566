import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPromptyardError } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeLockFile } from '../lock/lock-file.js';
import type { GitLibrary, GitSourceConfig, ServedVersion } from '../types.js';
import { openGitLibrary } from './git-library.js';
import { requestSync } from './sync-requests.js';
import { createTestRepo, gitEnv, recordingLogger } from './test-library.js';
import type { TestRepo } from './test-library.js';

let repo: TestRepo;
let cacheDir: string;
const open: GitLibrary[] = [];

beforeEach(async () => {
  repo = await createTestRepo();
  cacheDir = await mkdtemp(join(tmpdir(), 'promptyard-git-cache-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((library) => library.close()));
  await repo.cleanup();
  await rm(cacheDir, { recursive: true, force: true });
});

const source = (overrides: Partial<GitSourceConfig> = {}): GitSourceConfig => ({
  kind: 'prompts',
  url: repo.bare,
  ref: 'main',
  path: 'prompts',
  pollMs: 0,
  ...overrides,
});

const library = async (sources: GitSourceConfig[], extra: { frozen?: boolean; lockFile?: string } = {}): Promise<GitLibrary> => {
  const { logger } = recordingLogger();
  const opened = await openGitLibrary({ sources, cacheDir, logger, env: gitEnv, ...extra });
  open.push(opened);
  return opened;
};

/** The first version `onVersion` is given after now. */
const nextVersion = (opened: GitLibrary, index = 0): Promise<ServedVersion> =>
  new Promise((resolve) => opened.sources[index]?.onVersion(async (version) => resolve(version)));

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

const failure = async (work: Promise<unknown>): Promise<Error & { code: string }> => {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isPromptyardError(error)) throw new Error(`expected a PromptyardError, got ${String(error)}`);
  return error;
};

describe('openGitLibrary', () => {
  it('serves a tag with its commit in status and _meta', async () => {
    const v1 = await repo.commit({ 'prompts/review.md': 'v1 text', 'README.md': 'not served' });
    await repo.tag('v1');
    await repo.commit({ 'prompts/review.md': 'v2 text' });
    const opened = await library([source({ ref: 'v1' })]);
    const [handle] = opened.sources;
    if (handle === undefined) throw new Error('no source');
    expect(await readFile(join(handle.dir, 'review.md'), 'utf8')).toBe('v1 text');
    expect(opened.status()).toEqual([
      expect.objectContaining({ id: handle.id, ref: 'v1', refKind: 'tag', commit: v1, stale: false, frozen: false, lastError: undefined }),
    ]);
    expect(handle.metaOf(join(handle.dir, 'review.md'))).toEqual({
      repository: repo.bare,
      ref: 'v1',
      commit: v1,
      path: 'prompts/review.md',
    });
    const report = await opened.sync();
    expect(report.moved.size).toBe(0);
  });

  it('moves a followed branch once on sync, with exactly the changed files, applied inside the gate', async () => {
    await repo.commit({ 'prompts/a.md': 'a1', 'prompts/b.md': 'b1', 'other.md': 'o1' });
    const opened = await library([source()]);
    const [handle] = opened.sources;
    if (handle === undefined) throw new Error('no source');
    const applied: ServedVersion[] = [];
    let readDuringApply: Promise<string> | undefined;
    handle.onVersion(async (version) => {
      applied.push(version);
      let ran = false;
      readDuringApply = handle.gate.shared(async () => {
        ran = true;
        return readFile(join(handle.dir, 'a.md'), 'utf8');
      });
      await Promise.resolve();
      expect(ran).toBe(false);
    });
    const next = await repo.commit({ 'prompts/a.md': 'a2', 'prompts/c.md': 'c1', 'prompts/b.md': undefined, 'other.md': 'o2' });
    const report = await opened.sync();
    expect([...report.moved]).toEqual([[handle.id, next]]);
    expect(applied).toHaveLength(1);
    expect(applied[0]?.commit).toBe(next);
    expect([...(applied[0]?.changed ?? [])].sort()).toEqual([join(handle.dir, 'a.md'), join(handle.dir, 'b.md'), join(handle.dir, 'c.md')]);
    expect(await readDuringApply).toBe('a2');
    expect(existsSync(join(handle.dir, 'b.md'))).toBe(false);
    expect(opened.status()[0]?.commit).toBe(next);
    expect((await opened.sync()).unchanged).toEqual([handle.id]);
    expect(applied).toHaveLength(1);
  });

  it('syncs on a push only the sources it names', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const opened = await library([source()]);
    const id = opened.sources[0]?.id ?? '';
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    const push = { provider: 'github' as const, ref: 'refs/heads/other', after: next, repositoryUrls: [`file://${repo.bare}`] };
    const other = await opened.sync(push);
    expect([other.moved.size, other.unchanged.length, other.failed.size]).toEqual([0, 0, 0]);
    const report = await opened.sync({ ...push, ref: 'refs/heads/main' });
    expect([...report.moved]).toEqual([[id, next]]);
  });

  it('stays on the new commit when applying it fails, and logs it', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const { logger, records } = recordingLogger();
    const opened = await openGitLibrary({ sources: [source()], cacheDir, logger, env: gitEnv });
    open.push(opened);
    opened.sources[0]?.onVersion(() => Promise.reject(new Error('the catalog refused it')));
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    expect((await opened.sync()).moved.size).toBe(1);
    expect(opened.status()[0]?.commit).toBe(next);
    expect(records.some((record) => record.level === 'error' && record.fields['error'] === 'the catalog refused it')).toBe(true);
    expect(records.some((record) => record.message === 'library moved' && record.fields['to'] === next)).toBe(true);
  });

  it('frozen: serves the lock commit after the branch moved, and removes a file whose digest the lock does not match', async () => {
    const locked = await repo.commit({ 'prompts/a.md': 'a1', 'prompts/b.md': 'b1' });
    await repo.commit({ 'prompts/a.md': 'a2' });
    const lockFile = join(cacheDir, 'promptyard.lock');
    const entry = { kind: 'prompts' as const, url: repo.bare, ref: 'main', path: 'prompts', commit: locked };
    await writeLockFile(lockFile, { lockfileVersion: 1, sources: [{ ...entry, files: { 'a.md': sha('a1'), 'b.md': sha('b1') } }] });
    const first = await library([source()], { frozen: true, lockFile });
    const dir = first.sources[0]?.dir ?? '';
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a1');
    expect(first.status()[0]).toMatchObject({ commit: locked, frozen: true, lastError: undefined });
    const report = await first.sync();
    expect(report.unchanged).toEqual([first.sources[0]?.id]);
    expect(first.status()[0]?.commit).toBe(locked);
    await first.close();
    open.splice(0);

    await writeLockFile(lockFile, { lockfileVersion: 1, sources: [{ ...entry, files: { 'a.md': sha('tampered'), 'b.md': sha('b1') } }] });
    const second = await library([source()], { frozen: true, lockFile });
    expect(existsSync(join(dir, 'a.md'))).toBe(false);
    expect(await readFile(join(dir, 'b.md'), 'utf8')).toBe('b1');
    expect(second.status()[0]?.lastError).toMatch(/1 file\(s\) refused/);
    await second.close();
    open.splice(0);

    // The next start restores the file from git (and checks it again).
    await writeLockFile(lockFile, { lockfileVersion: 1, sources: [{ ...entry, files: { 'a.md': sha('a1'), 'b.md': sha('b1') } }] });
    const third = await library([source()], { frozen: true, lockFile });
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a1');
    expect(third.status()[0]?.lastError).toBeUndefined();
  });

  it('frozen without an entry in the lock refuses to start', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const lockFile = join(cacheDir, 'promptyard.lock');
    await writeLockFile(lockFile, { lockfileVersion: 1, sources: [] });
    const error = await failure(library([source()], { frozen: true, lockFile }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/is not in the lock file .*run promptyard-server lock/);
  });

  it('refuses to open a ref that does not exist, naming the source', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const error = await failure(library([source(), source({ kind: 'skills', ref: 'nope' })]));
    expect(error.code).toBe('SOURCE_ERROR');
    expect(error.message).toContain(`skills git source ${repo.bare} (ref nope, path "prompts")`);
  });

  it('refuses a path the commit does not have', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const error = await failure(library([source({ path: 'missing' })]));
    expect(error.message).toMatch(/has no folder "missing"/);
  });

  it('refuses a path that is a symlink leading out of the repository, at start and on a move', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'promptyard-outside-'));
    try {
      await writeFile(join(outside, 'secret.md'), 'not in the repository');
      const work = join(repo.root, 'work');
      const commitLink = async (target: string): Promise<void> => {
        await rm(join(work, 'prompts'), { recursive: true, force: true });
        await symlink(target, join(work, 'prompts'));
        await repo.commit({}, 'prompts is a link');
      };
      await commitLink(outside);
      expect((await failure(library([source()]))).message).toMatch(/"prompts" is a symlink leading out of the repository/);

      await rm(join(work, 'prompts'), { force: true });
      const served = await repo.commit({ 'prompts/a.md': 'a1' });
      const opened = await library([source()]);
      await commitLink(outside);
      const report = await opened.sync();
      expect([...report.failed.values()].join()).toMatch(/symlink leading out of the repository/);
      expect(opened.status()[0]).toMatchObject({ commit: served });
      expect(await readFile(join(opened.sources[0]?.dir ?? '', 'a.md'), 'utf8')).toBe('a1');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('syncs a source of every running library on the cache on a sync request', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    // Two servers on one cache: each has its own checkout, and each sees the request.
    const [one, two] = [await library([source()]), await library([source()])];
    one.start();
    two.start();
    expect(one.sources[0]?.dir).not.toBe(two.sources[0]?.dir);
    const moved = [nextVersion(one), nextVersion(two)];
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    await requestSync(cacheDir, [one.sources[0]?.id ?? '']);
    expect((await Promise.all(moved)).map((version) => version.commit)).toEqual([next, next]);
  });

  it('polls a followed branch', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const opened = await library([source({ pollMs: 50 })]);
    opened.start();
    const moved = nextVersion(opened);
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    expect((await moved).commit).toBe(next);
  });

  it('moves from v1 to v2 when the config changes the ref, and says what applies at the next start', async () => {
    await repo.commit({ 'prompts/a.md': 'v1' });
    await repo.tag('v1');
    const v2 = await repo.commit({ 'prompts/a.md': 'v2' });
    await repo.tag('v2');
    const opened = await library([source({ ref: 'v1' })]);
    const applied: ServedVersion[] = [];
    opened.sources[0]?.onVersion(async (version) => void applied.push(version));
    const messages = await opened.reconfigure([source({ ref: 'v2' }), source({ kind: 'skills', path: '' })]);
    expect(messages).toEqual([expect.stringMatching(/^skills git source .* was added: it applies at the next start$/)]);
    expect(applied.map((version) => version.commit)).toEqual([v2]);
    expect(opened.status()[0]).toMatchObject({ ref: 'v2', refKind: 'tag', commit: v2 });
    expect(await readFile(join(opened.sources[0]?.dir ?? '', 'a.md'), 'utf8')).toBe('v2');
  });

  it('keeps the old ref when the new one does not exist', async () => {
    const v1 = await repo.commit({ 'prompts/a.md': 'v1' });
    await repo.tag('v1');
    const opened = await library([source({ ref: 'v1' })]);
    await opened.reconfigure([source({ ref: 'v9' })]);
    expect(opened.status()[0]).toMatchObject({ ref: 'v1', commit: v1, lastError: expect.stringMatching(/ref v9/) });
  });
});

describe('requestSync', () => {
  it('writes a request per source id', async () => {
    await requestSync(cacheDir, ['prompts-abc', 'skills-def']);
    expect(await readFile(join(cacheDir, 'sync-requests', 'prompts-abc'), 'utf8')).toMatch(/^\d{4}-/);
    expect(await readFile(join(cacheDir, 'sync-requests', 'skills-def'), 'utf8')).toMatch(/^\d{4}-/);
  });
});
