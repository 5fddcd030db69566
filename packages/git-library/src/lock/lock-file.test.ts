import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPromptyardError } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitSourceConfig, LockFile } from '../types.js';
import { checkDigests, lockedSource, readLockFile, writeLockFile } from './lock-file.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const commit = 'a'.repeat(40);
/** Lower-cases and drops a trailing `.git`: enough to tell that the lock compares normalized URLs. */
const normalize = (url: string): string => url.toLowerCase().replace(/\.git$/, '');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'promptyard-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lock: LockFile = {
  lockfileVersion: 1,
  sources: [
    {
      kind: 'prompts',
      url: 'https://git.example.com/team/prompts.git',
      ref: 'main',
      path: 'prompts',
      commit,
      files: { 'b.md': sha('b'), 'a.md': sha('a') },
    },
  ],
};

const config: GitSourceConfig = { kind: 'prompts', url: 'https://Git.example.com/team/prompts', ref: 'main', path: 'prompts', pollMs: 0 };

const failure = async (work: Promise<unknown>): Promise<Error> => {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isPromptyardError(error)) throw new Error(`expected a PromptyardError, got ${String(error)}`);
  expect(error.code).toBe('CONFIG_INVALID');
  return error;
};

describe('lock file', () => {
  it('writes stable, sorted JSON and reads it back', async () => {
    const file = join(dir, 'promptyard.lock');
    await writeLockFile(file, lock);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('"a.md"')).toBeLessThan(text.indexOf('"b.md"'));
    expect(text).toContain('\n  "sources": [\n');
    expect(await readLockFile(file)).toEqual(lock);
  });

  it('says what is wrong and to lock again', async () => {
    const file = join(dir, 'promptyard.lock');
    expect((await failure(readLockFile(file))).message).toMatch(/promptyard\.lock: not found; run promptyard-server lock/);
    await writeFile(file, '{ nope');
    expect((await failure(readLockFile(file))).message).toMatch(/is not JSON.*run promptyard-server lock/);
    await writeFile(file, JSON.stringify({ lockfileVersion: 2, sources: [] }));
    expect((await failure(readLockFile(file))).message).toMatch(/lockfileVersion is 2/);
    await writeFile(file, JSON.stringify({ lockfileVersion: 1, sources: [{ ...lock.sources[0], commit: 'abc' }] }));
    expect((await failure(readLockFile(file))).message).toMatch(/sources\[0\]\.commit "abc" is not a full commit id/);
    await writeFile(file, JSON.stringify({ lockfileVersion: 1, sources: [{ ...lock.sources[0], files: { 'a.md': 'x' } }] }));
    expect((await failure(readLockFile(file))).message).toMatch(/files\["a.md"\] is not a SHA-256 digest/);
  });

  it('finds a source by kind, normalized URL and path, and reports another ref', async () => {
    expect(lockedSource(lock, config, normalize)?.commit).toBe(commit);
    expect(lockedSource(lock, { ...config, kind: 'skills' }, normalize)).toBeUndefined();
    expect(lockedSource(lock, { ...config, path: '' }, normalize)).toBeUndefined();
    const error = await failure(Promise.resolve().then(() => lockedSource(lock, { ...config, ref: 'v2' }, normalize)));
    expect(error.message).toMatch(/the lock was written for ref main.*run promptyard-server lock again/);
  });

  it('tells files that differ, files the lock does not name and locked files that are missing', async () => {
    await mkdir(join(dir, 'sub'));
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'ignored');
    await writeFile(join(dir, 'a.md'), 'a');
    await writeFile(join(dir, 'sub', 'c.md'), 'edited');
    await writeFile(join(dir, 'extra.md'), 'extra');
    const expected = { 'a.md': sha('a'), 'sub/c.md': sha('c'), 'gone.md': sha('gone') };
    expect(await checkDigests(dir, expected)).toEqual({ mismatched: ['sub/c.md'], unlocked: ['extra.md'], missing: ['gone.md'] });
    await writeFile(join(dir, 'sub', 'c.md'), 'c');
    await unlink(join(dir, 'extra.md'));
    await writeFile(join(dir, 'gone.md'), 'gone');
    expect(await checkDigests(dir, expected)).toEqual({ mismatched: [], unlocked: [], missing: [] });
  });
});
