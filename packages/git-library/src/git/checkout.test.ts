import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '@promptyard/core';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Checkout, GitCache, RemoteCache } from '../types.js';
import { openGitCache } from './open-git-cache.js';
import { makeFixtureRepo, removeDir, tempDir, testEnv, type FixtureRepo } from './test-git.js';

let repo: FixtureRepo;
let cacheDir: string;
let cache: GitCache;
let remote: RemoteCache;
const open: Checkout[] = [];

beforeAll(async () => {
  repo = await makeFixtureRepo();
  cacheDir = await tempDir('git-checkouts');
  cache = await openGitCache({ dir: cacheDir, logger: silentLogger(), env: testEnv });
  remote = cache.remote(repo.bare);
  await remote.fetch('v1', repo.c1);
  await remote.fetch('v2', repo.c2);
  await remote.fetch('main', repo.c3);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((checkout) => checkout.release()));
});

afterAll(async () => {
  await Promise.all([removeDir(repo.root), removeDir(cacheDir)]);
});

const take = async (id: string): Promise<Checkout> => {
  const checkout = await cache.checkout(id, remote);
  open.push(checkout);
  return checkout;
};

const fileStat = async (file: string): Promise<{ ino: number; mtimeMs: number }> => {
  const { ino, mtimeMs } = await stat(file);
  return { ino, mtimeMs };
};

describe('checkout', () => {
  it('makes a checkout whose folder was removed again on the next move, everything new', async () => {
    const checkout = await take('prompts-removed');
    await checkout.moveTo(repo.c1);
    await rm(checkout.root, { recursive: true, force: true });
    expect(await checkout.moveTo(repo.c2)).toBeUndefined();
    expect(checkout.commit).toBe(repo.c2);
    expect(await readFile(path.join(checkout.root, 'prompts/b.md'), 'utf8')).toBe('B2\n');
  });

  it('moves in place: only the files that differ are written, and named', async () => {
    const checkout = await take('prompts-move');
    expect(checkout.commit).toBeUndefined();
    expect(await checkout.moveTo(repo.c1)).toBeUndefined();
    expect(checkout.commit).toBe(repo.c1);
    expect(checkout.root).toBe(path.join(cacheDir, 'checkouts', 'prompts-move-0'));
    expect(await readFile(path.join(checkout.root, 'prompts/b.md'), 'utf8')).toBe('B1\n');
    const untouched = await fileStat(path.join(checkout.root, 'prompts/a.md'));
    const changed = await checkout.moveTo(repo.c2);
    expect(changed).toEqual(['prompts/b.md', 'prompts/d.md', 'prompts/sub/c.md']);
    expect(await readFile(path.join(checkout.root, 'prompts/b.md'), 'utf8')).toBe('B2\n');
    expect(existsSync(path.join(checkout.root, 'prompts/sub/c.md'))).toBe(false);
    expect(await fileStat(path.join(checkout.root, 'prompts/a.md'))).toEqual(untouched);
    expect(await checkout.moveTo(repo.c2)).toEqual([]);
  });

  it('discards local edits and stray files', async () => {
    const checkout = await take('prompts-edits');
    await checkout.moveTo(repo.c1);
    await writeFile(path.join(checkout.root, 'prompts/a.md'), 'edited\n');
    await mkdir(path.join(checkout.root, 'stray'));
    await writeFile(path.join(checkout.root, 'stray/file.md'), 'stray\n');
    const changed = await checkout.moveTo(repo.c2);
    expect(changed).toEqual(['prompts/a.md', 'prompts/b.md', 'prompts/d.md', 'prompts/sub/c.md', 'stray/file.md']);
    expect(await readFile(path.join(checkout.root, 'prompts/a.md'), 'utf8')).toBe('A1\n');
    expect(existsSync(path.join(checkout.root, 'stray'))).toBe(false);
    const status = await execa('git', ['status', '--porcelain', '--ignored'], { cwd: checkout.root, env: testEnv });
    expect(status.stdout).toBe('');
  });

  it('reuses a folder left at the commit as it is, and cleans one that was edited', async () => {
    const first = await take('prompts-reuse');
    await first.moveTo(repo.c2);
    const before = await fileStat(path.join(first.root, 'prompts/a.md'));
    await first.release();
    const again = await take('prompts-reuse');
    expect(again.root).toBe(first.root);
    expect(await again.moveTo(repo.c2)).toBeUndefined();
    expect(await fileStat(path.join(again.root, 'prompts/a.md'))).toEqual(before);
    await writeFile(path.join(again.root, 'prompts/new.md'), 'new\n');
    await again.release();
    const third = await take('prompts-reuse');
    expect(await third.moveTo(repo.c2)).toBeUndefined();
    expect(existsSync(path.join(third.root, 'prompts/new.md'))).toBe(false);
  });

  it('makes the folder again when it was removed', async () => {
    const first = await take('prompts-removed');
    await first.moveTo(repo.c1);
    await first.release();
    await rm(first.root, { recursive: true, force: true });
    const again = await take('prompts-removed');
    expect(await again.moveTo(repo.c3)).toBeUndefined();
    expect(await readFile(path.join(again.root, 'prompts/a.md'), 'utf8')).toBe('A3\n');
  });

  it('gives a second holder another folder, and takes over the lock of a process that is gone', async () => {
    const first = await take('prompts-held');
    const second = await take('prompts-held');
    expect(second.root).not.toBe(first.root);
    await second.moveTo(repo.c1);
    await first.moveTo(repo.c2);
    expect(await readFile(path.join(second.root, 'prompts/b.md'), 'utf8')).toBe('B1\n');
    expect(await readFile(path.join(first.root, 'prompts/b.md'), 'utf8')).toBe('B2\n');

    const gone = await execa('node', ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(gone.stdout);
    const base = path.join(cacheDir, 'checkouts', 'prompts-dead');
    await writeFile(`${base}-0.lock`, `${String(deadPid)}\n`);
    const taken = await take('prompts-dead');
    expect(taken.root).toBe(`${base}-0`);
    expect((await readFile(`${base}-0.lock`, 'utf8')).trim()).toBe(String(process.pid));
    await taken.release();
    expect(existsSync(`${base}-0.lock`)).toBe(false);

    // A lock held by a live process (this test runner's parent) is left alone.
    await writeFile(`${base}-0.lock`, `${String(process.ppid)}\n`);
    const other = await take('prompts-dead');
    expect(other.root).toBe(`${base}-1`);
  });
});
