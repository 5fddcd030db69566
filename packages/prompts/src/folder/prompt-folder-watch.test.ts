import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptEntry } from '@promptyard/core';
import { createPromptFolderSource } from './prompt-folder-source.js';
import {
  captureLogs,
  createTempFolder,
  testEngines,
  watchChanges,
  type CapturedLogs,
  type ChangeQueue,
  type TempFolder,
} from '../test-helpers.js';
import type { PromptDelta, PromptFolderSource } from './types.js';

let folder: TempFolder;
let logs: CapturedLogs;
let source: PromptFolderSource;

beforeEach(async () => {
  folder = await createTempFolder();
  logs = captureLogs();
  source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger, debounceMs: 20 });
});

afterEach(async () => {
  await source.close();
  await folder.cleanup();
});

/** Loads the folder, then watches it. */
const start = async (files: Readonly<Record<string, string>>): Promise<{ entries: readonly PromptEntry[]; changes: ChangeQueue }> => {
  await folder.writeAll(files);
  const entries = await source.load();
  return { entries, changes: await watchChanges(source) };
};

const summary = (delta: PromptDelta) => ({
  upserted: delta.upserted.map((entry) => entry.name),
  removed: delta.removed,
  ...(delta.failed === undefined ? {} : { failed: delta.failed }),
});

const textOf = async (entry: PromptEntry | undefined, args: Record<string, string> = {}): Promise<unknown> =>
  (await entry?.render(args))?.messages[0]?.content;

describe('createPromptFolderSource: watch', () => {
  it('logs that it is watching', async () => {
    await start({});
    expect(logs.records).toContainEqual(expect.objectContaining({ level: 'info', message: 'watching', fields: { dir: folder.dir } }));
  });

  it('reports an edited file as upserted', async () => {
    const { changes } = await start({ 'a.md': 'Old {{ x }}', 'b.md': 'B' });
    await folder.write('a.md', 'New {{ y }}');
    const delta = await changes.next();
    expect(summary(delta)).toEqual({ upserted: ['a'], removed: [] });
    expect(delta.upserted[0]?.arguments.map((argument) => argument.name)).toEqual(['y']);
    expect(await textOf(delta.upserted[0], { y: '1' })).toMatchObject({ text: 'New 1' });
  });

  it('reports an added and a deleted file', async () => {
    const { changes } = await start({ 'a.md': 'A' });
    await folder.write('git/commit.md', 'Commit');
    expect(summary(await changes.next())).toEqual({ upserted: ['git/commit'], removed: [] });
    await folder.remove('a.md');
    expect(summary(await changes.next())).toEqual({ upserted: [], removed: ['a'] });
  });

  it('picks up a folder created after watching started', async () => {
    const { changes } = await start({ 'a.md': 'A' });
    await folder.writeAll({ 'new/deeper/one.md': 'One' });
    const seen = new Set<string>();
    while (!seen.has('new/deeper/one')) for (const name of summary(await changes.next()).upserted) seen.add(name);
    await folder.write('new/deeper/two.md', 'Two');
    expect(summary(await changes.next())).toEqual({ upserted: ['new/deeper/two'], removed: [] });
  });

  it('removes every prompt under a deleted folder', async () => {
    const { changes } = await start({ 'keep.md': 'Keep', 'gone/a.md': 'A', 'gone/sub/b.md': 'B' });
    await folder.remove('gone');
    const removed = new Set<string>();
    while (removed.size < 2) for (const name of (await changes.next()).removed) removed.add(name);
    expect([...removed].sort()).toEqual(['gone/a', 'gone/sub/b']);
  });

  it('watches a folder made again under the name of one just removed', async () => {
    const { changes } = await start({ 'sub/a.md': 'A' });
    await folder.remove('sub');
    await folder.write('sub/b.md', 'B');
    const upserted = new Set<string>();
    const removed = new Set<string>();
    while (!upserted.has('sub/b') || !removed.has('sub/a')) {
      const delta = summary(await changes.next());
      delta.upserted.forEach((name) => upserted.add(name));
      delta.removed.forEach((name) => removed.add(name));
    }
    // The new folder has a watch of its own: a later file in it is noticed.
    await folder.write('sub/c.md', 'C');
    let delta = summary(await changes.next());
    while (!delta.upserted.includes('sub/c')) delta = summary(await changes.next());
    expect(delta.removed).toEqual([]);
  });

  it('follows a folder moved in from outside, and what is written into it later', async () => {
    const { changes } = await start({ 'a.md': 'A' });
    const outside = await mkdtemp(join(tmpdir(), 'promptyard-outside-'));
    try {
      await mkdir(join(outside, 'deep'));
      await writeFile(join(outside, 'deep', 'one.md'), 'One');
      await rename(outside, join(folder.dir, 'moved'));
      const seen = new Set<string>();
      while (!seen.has('moved/deep/one')) for (const name of summary(await changes.next()).upserted) seen.add(name);
      await folder.write('moved/deep/two.md', 'Two');
      expect(summary(await changes.next())).toEqual({ upserted: ['moved/deep/two'], removed: [] });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('keeps the last good version of a broken file and logs the error once', async () => {
    const { changes } = await start({ 'a.md': 'Good {{ x }}', 'other.md': 'Other' });
    const isBroken = (record: { message: string; fields: Record<string, unknown> }) =>
      record.message === 'invalid prompt file; keeping its last good version' && record.fields.file === join(folder.dir, 'a.md');

    await folder.write('a.md', '---\ndescription: [unclosed\n---\nBroken');
    await logs.waitFor(isBroken);
    // The batch changes nothing served, and says a file failed (for the reload-error count).
    expect(summary(await changes.next())).toEqual({ upserted: [], removed: [], failed: 1 });
    // Writing the same broken content again, then a real change elsewhere: no second warning.
    await folder.write('a.md', '---\ndescription: [unclosed\n---\nBroken');
    await folder.write('other.md', 'Other, edited');
    expect(summary(await changes.next())).toEqual({ upserted: ['other'], removed: [] });
    expect(logs.records.filter(isBroken)).toHaveLength(1);

    await folder.write('a.md', 'Fixed {{ x }}');
    const delta = await changes.next();
    expect(summary(delta)).toEqual({ upserted: ['a'], removed: [] });
    expect(await textOf(delta.upserted[0], { x: '!' })).toMatchObject({ text: 'Fixed !' });
  });

  it('catches a second save right after the first', async () => {
    const { changes } = await start({ 'a.md': 'One' });
    await folder.write('a.md', 'Two');
    expect(summary(await changes.next())).toEqual({ upserted: ['a'], removed: [] });
    await folder.write('a.md', 'Three');
    const delta = await changes.next();
    expect(await textOf(delta.upserted[0])).toMatchObject({ text: 'Three' });
  });

  it('counts a changed file as upserted even when it would render the same', async () => {
    const { changes } = await start({ 'a.md': 'Same' });
    await folder.write('a.md', '---\ntags: [x]\n---\nSame');
    expect(summary(await changes.next())).toEqual({ upserted: ['a'], removed: [] });
  });

  it('follows a file renamed into another folder', async () => {
    const { changes } = await start({ 'a.md': 'A', 'sub/keep.md': 'Keep' });
    await rename(join(folder.dir, 'a.md'), join(folder.dir, 'sub/a.md'));
    const upserted = new Set<string>();
    const removed = new Set<string>();
    while (!upserted.has('sub/a') || !removed.has('a')) {
      const delta = summary(await changes.next());
      delta.upserted.forEach((name) => upserted.add(name));
      delta.removed.forEach((name) => removed.add(name));
    }
    expect(upserted.has('sub/keep')).toBe(false);
  });
});

describe('createPromptFolderSource: watching twig libraries', () => {
  const manifest = (description: string): string => `[prompts.commit]\ndescription = "${description}"\n`;

  it('reloads a library when its twig.toml changes', async () => {
    const { changes } = await start({ 'git/twig.toml': manifest('Old'), 'git/prompts/commit.md': 'Commit', 'plain.md': 'Plain' });
    await folder.write('git/twig.toml', manifest('New'));
    const delta = await changes.next();
    expect(summary(delta)).toEqual({ upserted: ['git:commit'], removed: [] });
    expect(delta.upserted[0]?.description).toBe('New');
  });

  it('keeps a library whose twig.toml breaks, and logs it once', async () => {
    const { changes } = await start({ 'git/twig.toml': manifest('Old'), 'git/prompts/commit.md': 'Commit' });
    await folder.write('git/twig.toml', '[prompts.commit\n');
    await logs.waitFor((record) => record.message === 'invalid twig library; keeping its last good version');
    expect(summary(await changes.next())).toEqual({ upserted: [], removed: [], failed: 1 });
    await folder.write('git/prompts/commit.md', 'Commit, edited');
    expect(summary(await changes.next())).toEqual({ upserted: ['git:commit'], removed: [] });
  });

  it('turns a folder into a library when a twig.toml appears, and back when it goes', async () => {
    const { changes } = await start({ 'git/prompts/commit.md': 'Commit', 'git/README.md': 'Readme' });
    await folder.write('git/twig.toml', manifest('Commit'));
    expect(summary(await changes.next())).toEqual({ upserted: ['git:commit'], removed: ['git/README', 'git/prompts/commit'] });
    await folder.remove('git/twig.toml');
    expect(summary(await changes.next())).toEqual({ upserted: ['git/README', 'git/prompts/commit'], removed: ['git:commit'] });
  });

  it('reports added, edited and deleted library prompts', async () => {
    const { changes } = await start({ 'git/twig.toml': manifest('Commit'), 'git/prompts/commit.md': 'Commit' });
    await folder.write('git/prompts/squash.md', 'Squash');
    expect(summary(await changes.next())).toEqual({ upserted: ['git:squash'], removed: [] });
    await folder.write('git/notes.md', 'Not a prompt');
    await folder.remove('git/prompts/commit.md');
    expect(summary(await changes.next())).toEqual({ upserted: [], removed: ['git:commit'] });
  });
});
