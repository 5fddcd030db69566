import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPathInside, locateReal, resolveInside, resolveInsideSync } from './paths.js';

describe('path containment', () => {
  it('knows inside from outside by name, whatever the spelling', () => {
    expect(isPathInside('/a/b', '/a/b')).toBe(true);
    expect(isPathInside('/a/b', '/a/b/c/d.md')).toBe(true);
    expect(isPathInside('/a/b/', '/a/b/c')).toBe(true);
    expect(isPathInside('/a/b', '/a/bc')).toBe(false);
    expect(isPathInside('/a/b', '/a/b/../c')).toBe(false);
    expect(isPathInside('/a/b', '/a')).toBe(false);
    expect(isPathInside('/a/b', '/a/b/..hidden')).toBe(true);
  });

  let root: string;
  let outside: string;
  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), 'promptyard-paths-'));
    root = join(base, 'root');
    outside = join(base, 'outside.md');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'sub', 'in.md'), 'in');
    await writeFile(outside, 'secret');
    await symlink(outside, join(root, 'escape.md'));
    await symlink(join(root, 'sub', 'in.md'), join(root, 'alias.md'));
  });
  afterAll(async () => {
    await rm(join(root, '..'), { recursive: true, force: true });
  });

  it('follows symlinks: a link that points outside the root is refused, one inside is resolved', async () => {
    expect(await resolveInside(root, join(root, 'escape.md'))).toBeUndefined();
    expect(resolveInsideSync(root, join(root, 'escape.md'))).toBeUndefined();
    expect(await resolveInside(root, join(root, 'alias.md'))).toMatch(/sub[/\\]in\.md$/);
    expect(resolveInsideSync(root, join(root, 'sub', 'in.md'))).toMatch(/sub[/\\]in\.md$/);
    expect(await resolveInside(root, join(root, 'missing.md'))).toBeUndefined();
    expect(await resolveInside(root, outside)).toBeUndefined();
  });

  it('locates where a link really leads, inside or not', async () => {
    expect(await locateReal(root, join(root, 'escape.md'))).toEqual({ real: expect.stringMatching(/outside\.md$/), inside: false });
    expect(await locateReal(root, join(root, 'alias.md'))).toEqual({ real: expect.stringMatching(/in\.md$/), inside: true });
    expect(await locateReal(root, join(root, '..', 'outside.md'))).toBeUndefined();
    expect(await locateReal(root, join(root, 'missing.md'))).toBeUndefined();
  });
});
