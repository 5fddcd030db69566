import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from './write-atomically.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'promptyard-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomically', () => {
  it('replaces the file whole, with the mode asked, and leaves no temporary file', async () => {
    const file = join(dir, 'state.json');
    await writeFileAtomically(file, 'one');
    await writeFileAtomically(file, 'two', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('two');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('removes the temporary file when the rename fails', async () => {
    // A folder that is not empty where the file should be: the rename over it fails.
    const file = join(dir, 'taken');
    await mkdir(join(file, 'inside'), { recursive: true });
    await expect(writeFileAtomically(file, 'x')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });
});
