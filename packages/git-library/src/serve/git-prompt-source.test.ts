import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { PromptEntry, PromptSourceDelta } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openGitLibrary } from '../library/git-library.js';
import { createTestRepo, gitEnv, recordingLogger } from '../library/test-library.js';
import type { TestRepo } from '../library/test-library.js';
import type { GitLibrary, GitSourceHandle } from '../types.js';
import { gitMetaKey, servePromptsFromGit } from './git-prompt-source.js';
import type { CheckoutPromptSource } from './git-prompt-source.js';

let repo: TestRepo;
let cacheDir: string;
let library: GitLibrary | undefined;

beforeEach(async () => {
  repo = await createTestRepo();
  cacheDir = await mkdtemp(join(tmpdir(), 'promptyard-git-serve-'));
});
afterEach(async () => {
  await library?.close();
  library = undefined;
  await repo.cleanup();
  await rm(cacheDir, { recursive: true, force: true });
});

/** A folder source of `*.md` files, read when asked: each renders its file's text as it was read. */
const markdownFolder = (dir: string): CheckoutPromptSource & { readonly reloaded: string[][] } => {
  const reloaded: string[][] = [];
  const entryOf = async (file: string): Promise<PromptEntry> => {
    const text = await readFile(file, 'utf8');
    return {
      name: basename(file, '.md'),
      description: text.split('\n')[0] ?? '',
      arguments: [],
      origin: { file },
      text,
      render: async () => ({ messages: [{ role: 'user', content: { type: 'text', text } }] }),
    };
  };
  return {
    id: dir,
    reloaded,
    load: async () => Promise.all((await readdir(dir)).filter((name) => name.endsWith('.md')).map((name) => entryOf(join(dir, name)))),
    reload: async (paths) => {
      reloaded.push([...paths]);
      const upserted: PromptEntry[] = [];
      const removed: string[] = [];
      for (const path of paths) {
        const entry = await entryOf(path).catch(() => undefined);
        if (entry === undefined) removed.push(basename(path, '.md'));
        else upserted.push(entry);
      }
      return { upserted, removed };
    },
  };
};

/** The entry with a required `topic` argument when its text asks for one. */
const needsTopic = (entry: PromptEntry): PromptEntry =>
  entry.text?.includes('needs a topic') === true ? { ...entry, arguments: [{ name: 'topic', required: true }] } : entry;

const open = async (): Promise<GitSourceHandle> => {
  library = await openGitLibrary({
    sources: [{ kind: 'prompts', url: repo.bare, ref: 'main', path: 'prompts', pollMs: 0 }],
    cacheDir,
    logger: recordingLogger().logger,
    env: gitEnv,
  });
  const [handle] = library.sources;
  if (handle === undefined) throw new Error('no source');
  return handle;
};

const textOf = async (entry: PromptEntry | undefined): Promise<string> => {
  const content = (await entry?.render({}))?.messages[0]?.content;
  return content?.type === 'text' ? content.text : '';
};

describe('servePromptsFromGit', () => {
  it('names the commit served in every prompt, and moves as one delta re-reading only the changed files', async () => {
    const first = await repo.commit({ 'prompts/a.md': 'a1', 'prompts/b.md': 'b1', 'prompts/c.md': 'c1' });
    const handle = await open();
    const inner = markdownFolder(handle.dir);
    const source = servePromptsFromGit(handle, inner);
    const loaded = await source.load();
    expect(loaded.map((entry) => entry.meta?.[gitMetaKey])).toEqual(
      ['a', 'b', 'c'].map((name) => ({ repository: repo.bare, ref: 'main', commit: first, path: `prompts/${name}.md` })),
    );
    const deltas: PromptSourceDelta[] = [];
    await source.watch?.((delta) => deltas.push(delta));

    const second = await repo.commit({ 'prompts/a.md': 'a2', 'prompts/c.md': undefined, 'README.md': 'elsewhere' });
    await library?.sync();
    expect(inner.reloaded).toEqual([[join(handle.dir, 'a.md'), join(handle.dir, 'c.md')]]);
    expect(deltas).toHaveLength(1);
    const [delta] = deltas;
    expect(delta?.removed).toEqual(['c']);
    // Every prompt names the new commit, so every one is in the delta.
    expect(delta?.upserted.map((entry) => [entry.name, (entry.meta?.[gitMetaKey] as { commit: string }).commit])).toEqual([
      ['a', second],
      ['b', second],
    ]);
    expect(await textOf(delta?.upserted.find((entry) => entry.name === 'a'))).toBe('a2');
  });

  it('answers a render that waited for a move from the new version, and says when its prompt is gone', async () => {
    await repo.commit({ 'prompts/a.md': 'a1', 'prompts/b.md': 'b1' });
    const handle = await open();
    const source = servePromptsFromGit(handle, markdownFolder(handle.dir));
    const [a, b] = await source.load();
    await source.watch?.(() => {});
    let waiting: Promise<string> | undefined;
    let gone: Promise<unknown> | undefined;
    // Added after the source's own: runs inside the move, once the new version is in place.
    handle.onVersion(async () => {
      waiting = textOf(a);
      gone = b?.render({}).catch((error: unknown) => error);
    });
    await repo.commit({ 'prompts/a.md': 'a2', 'prompts/b.md': undefined });
    await library?.sync();
    expect(await waiting).toBe('a2');
    expect(await gone).toMatchObject({ code: 'PROMPT_NOT_FOUND', message: expect.stringContaining('no longer served') });
  });

  it('refuses a render that waited for a move when the new version needs an argument the request lacks', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const handle = await open();
    const inner = markdownFolder(handle.dir);
    const source = servePromptsFromGit(handle, {
      ...inner,
      // The folder's a.md declares a required `topic` once its text says so.
      load: async () => (await inner.load()).map(needsTopic),
      reload: async (paths) => {
        const delta = await inner.reload(paths);
        return { ...delta, upserted: delta.upserted.map(needsTopic) };
      },
    });
    const [a] = await source.load();
    await source.watch?.(() => {});
    let refused: Promise<unknown> | undefined;
    handle.onVersion(async () => {
      refused = a?.render({}).catch((error: unknown) => error);
    });
    await repo.commit({ 'prompts/a.md': 'a2 needs a topic' });
    await library?.sync();
    expect(await refused).toMatchObject({ code: 'MISSING_ARGUMENTS', message: expect.stringContaining('now needs topic') });
    expect(await textOf(a).catch(() => 'refused')).toBe('refused');
  });
});
