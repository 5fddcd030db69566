import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptEntry } from '@promptyard/core';
import { createNativePromptSource } from '../native/native-prompt-source.js';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createFakeLiquid, testEngines, watchChanges, type CapturedLogs } from '../test-helpers.js';

let base: string;
let dir: string;
let logs: CapturedLogs;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'promptyard-symlinks-'));
  dir = join(base, 'prompts');
  logs = captureLogs();
  await mkdir(join(dir, 'inner'), { recursive: true });
  await mkdir(join(base, 'outside'), { recursive: true });
  await writeFile(join(base, 'secret.md'), 'SECRET');
  await writeFile(join(base, 'outside', 'theirs.md'), 'Theirs');
  await writeFile(join(dir, 'inner', 'real.md'), 'Real');
  await writeFile(join(dir, 'kept.md'), 'Kept\n<!-- resource: leak.txt -->');
  await writeFile(join(base, 'leak.txt'), 'LEAK');
  await symlink(join(base, 'secret.md'), join(dir, 'escape.md'));
  await symlink(join(base, 'outside'), join(dir, 'away'), 'dir');
  await symlink(join(base, 'leak.txt'), join(dir, 'leak.txt'));
  await symlink(join(dir, 'inner', 'real.md'), join(dir, 'alias.md'));
  await symlink(base, join(dir, 'up'), 'dir');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const names = (entries: readonly PromptEntry[]): string[] => entries.map((entry) => entry.name).sort();
const symlinkWarnings = (): unknown[] =>
  logs
    .warnings()
    .filter((record) => record.message.includes('symlink'))
    .map((record) => record.fields['path']);
const text = async (entries: readonly PromptEntry[], name: string): Promise<string> =>
  JSON.stringify((await entries.find((entry) => entry.name === name)?.render({}))?.messages);

describe('symlinks in a prompt folder', () => {
  it('skips links that lead outside with one warning each, keeps links that stay inside', async () => {
    const source = createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger });
    const entries = await source.load();
    expect(names(entries)).toEqual(['alias', 'inner/real', 'kept']);
    await source.load();
    expect(symlinkWarnings().sort()).toEqual([join(dir, 'away'), join(dir, 'escape.md'), join(dir, 'up')]);
  });

  it('does not embed a resource whose symlink leads outside, and says so once', async () => {
    const entries = await createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger }).load();
    expect(await text(entries, 'kept')).not.toContain('LEAK');
    await text(entries, 'kept');
    expect(logs.warnings().filter((record) => record.message.startsWith('not embedding'))).toHaveLength(1);
  });

  it('serves outside links when allowed, but never walks a folder that holds the prompt folder', async () => {
    const entries = await createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger, followExternalSymlinks: true }).load();
    expect(names(entries)).toEqual(['alias', 'away/theirs', 'escape', 'inner/real', 'kept']);
    expect(await text(entries, 'escape')).toContain('SECRET');
    expect(await text(entries, 'kept')).toContain('LEAK');
    expect(symlinkWarnings()).toEqual([join(dir, 'up')]);
  });

  it('hot reload: a new link that leads outside is not served', async () => {
    const source = createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger, debounceMs: 5 });
    await source.load();
    const changes = await watchChanges(source);
    try {
      await symlink(join(base, 'secret.md'), join(dir, 'late.md'));
      await writeFile(join(dir, 'marker.md'), 'Marker');
      const seen: string[] = [];
      while (!seen.includes('marker')) seen.push(...(await changes.next()).upserted.map((entry) => entry.name));
      expect(seen).not.toContain('late');
      await logs.waitFor((record) => record.fields['path'] === join(dir, 'late.md'));
    } finally {
      await source.close();
    }
  });
});

describe('symlinks in a twig library', () => {
  it('does not read a library whose prompts/ folder leads outside', async () => {
    await mkdir(join(dir, 'lib'));
    await writeFile(join(dir, 'lib', 'twig.toml'), 'name = "lib"\n');
    await symlink(join(base, 'outside'), join(dir, 'lib', 'prompts'), 'dir');
    const entries = await createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger }).load();
    expect(names(entries).filter((name) => name.startsWith('lib:'))).toEqual([]);
    expect(symlinkWarnings()).toContain(join(dir, 'lib', 'prompts'));
    const allowed = await createPromptFolderSource({ dir, engines: testEngines, logger: logs.logger, followExternalSymlinks: true }).load();
    expect(names(allowed)).toContain('lib:theirs');
  });
});

describe('symlinks in a native folder', () => {
  it('skips a skill folder linked from outside unless allowed', async () => {
    const skills = join(base, 'skills');
    await mkdir(join(base, 'shared', 'lint'), { recursive: true });
    await writeFile(join(base, 'shared', 'lint', 'SKILL.md'), '---\nname: lint\ndescription: Lint\n---\nLint it');
    await mkdir(skills);
    await symlink(join(base, 'shared', 'lint'), join(skills, 'lint'), 'dir');
    const make = (follow: boolean) =>
      createNativePromptSource({
        format: 'claude-skills',
        dir: skills,
        jinja: createFakeLiquid('jinja'),
        logger: logs.logger,
        followExternalSymlinks: follow,
      });
    expect(names(await make(false).load())).toEqual([]);
    expect(symlinkWarnings()).toEqual([join(skills, 'lint')]);
    expect(names(await make(true).load())).toEqual(['lint']);
  });
});
