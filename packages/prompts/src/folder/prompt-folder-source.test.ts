import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptEntry } from '@promptyard/core';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createFakeLiquid, createTempFolder, testEngines, type CapturedLogs, type TempFolder } from '../test-helpers.js';
import type { PromptFolderOptions } from './types.js';

let folder: TempFolder;
let logs: CapturedLogs;

beforeEach(async () => {
  folder = await createTempFolder();
  logs = captureLogs();
});

afterEach(async () => {
  await folder.cleanup();
});

const load = (options: Partial<PromptFolderOptions> = {}): Promise<readonly PromptEntry[]> =>
  createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger, ...options }).load();

const names = (entries: readonly PromptEntry[]): string[] => entries.map((entry) => entry.name);

const byName = (entries: readonly PromptEntry[], name: string): PromptEntry => {
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no prompt ${name} in ${names(entries).join(', ')}`);
  return entry;
};

const warningFor = (file: string) => logs.warnings().filter((record) => record.fields.file === join(folder.dir, file));

describe('createPromptFolderSource: load', () => {
  it('names prompts by their path, with / between folders', async () => {
    await folder.writeAll({
      'review.md': 'Review',
      'git/commit.md': 'Commit',
      'git/pr/describe.md': 'Describe',
      'notes.txt': 'not a prompt',
    });
    const entries = await load();
    expect(names(entries)).toEqual(['git/commit', 'git/pr/describe', 'review']);
    expect(byName(entries, 'git/pr/describe')).toMatchObject({
      origin: { file: join(folder.dir, 'git/pr/describe.md'), line: 1 },
      meta: { 'dev.promptyard/source': 'git/pr/describe.md' },
    });
  });

  it('skips hidden entries, node_modules and symlinked folders', async () => {
    await folder.writeAll({
      'kept.md': 'Kept',
      '.hidden.md': 'Hidden',
      '.git/info.md': 'Git',
      'node_modules/pkg/readme.md': 'Dependency',
      'elsewhere/linked.md': 'Linked',
    });
    await symlink(join(folder.dir, 'elsewhere'), join(folder.dir, 'link'), 'dir');
    expect(names(await load())).toEqual(['elsewhere/linked', 'kept']);
  });

  it('exposes frontmatter, extra keys as meta and a derived description', async () => {
    await folder.writeAll({
      'with.md': '---\ndescription: Explicit\ntags: [a]\n---\n# Heading',
      'without.md': '\n# Summarise the thread\nBody',
    });
    const entries = await load();
    expect(byName(entries, 'with')).toMatchObject({ description: 'Explicit', meta: { tags: ['a'], 'dev.promptyard/source': 'with.md' } });
    expect(byName(entries, 'without').description).toBe('Summarise the thread');
  });

  it('skips malformed files with one warning each and loads the rest', async () => {
    await folder.writeAll({
      'good.md': 'Good {{ x }}',
      'js.md': '---js\n{ description: "x" }\n---\nBody',
      'yaml.md': '---\ndescription: [unclosed\n---\nBody',
      'list.md': '---\n- a\n---\nBody',
      'args.md': '---\narguments: nope\n---\nBody',
      'template.md': 'Hello {{ broken',
    });
    expect(names(await load())).toEqual(['good']);
    for (const file of ['js.md', 'yaml.md', 'list.md', 'args.md', 'template.md']) {
      expect(warningFor(file), file).toHaveLength(1);
    }
    expect(warningFor('js.md')[0]).toMatchObject({
      message: 'invalid prompt file; skipping it',
      fields: { line: 1, reason: expect.stringContaining('only YAML frontmatter is supported') },
    });
  });

  it('skips files over the size limit without reading them', async () => {
    await folder.writeAll({ 'small.md': 'Small', 'large.md': 'x'.repeat(2048) });
    expect(names(await load({ maxFileBytes: 1024 }))).toEqual(['small']);
    expect(warningFor('large.md')[0]?.fields.reason).toBe('the file has 2048 bytes, over the limit of 1024');
  });

  it('decodes invalid UTF-8 as Latin-1 with a warning, and strips a BOM', async () => {
    await folder.writeAll({
      'latin.md': Buffer.from('Caf\xe9 {{ x }}', 'latin1'),
      'bom.md': '\uFEFF---\ndescription: With BOM\n---\nBody',
    });
    const entries = await load();
    const rendered = await byName(entries, 'latin').render({ x: '!' });
    expect(rendered.messages[0]?.content).toEqual({ type: 'text', text: 'Café !' });
    expect(warningFor('latin.md')[0]?.message).toBe('prompt file is not valid UTF-8; decoded it as Latin-1');
    expect(byName(entries, 'bom').description).toBe('With BOM');
  });

  it('uses the $ARGUMENTS engine for bodies that mention $ARGUMENTS', async () => {
    await folder.write('fix.md', 'Fix $ARGUMENTS');
    const [entry] = await load();
    expect(entry?.arguments.map((argument) => argument.name)).toEqual(['arguments']);
    expect((await entry?.render({ arguments: 'bug 7' }))?.messages[0]?.content).toMatchObject({ text: 'Fix bug 7' });
  });

  it('fails clearly when the folder does not exist', async () => {
    await expect(load({ dir: join(folder.dir, 'missing') })).rejects.toMatchObject({ code: 'SOURCE_ERROR' });
  });

  it('requires the liquid and arguments engines', () => {
    expect(() => createPromptFolderSource({ dir: folder.dir, engines: { liquid: testEngines.liquid } })).toThrow(
      'a prompt folder needs the template engines "arguments"',
    );
  });
});

describe('createPromptFolderSource: twig libraries', () => {
  const manifest = [
    '[prompts.commit]',
    'description = "Write a commit message"',
    '[[prompts.commit.arguments]]',
    'name = "diff"',
    'description = "The staged diff"',
    'required = true',
  ].join('\n');

  it('serves library prompts as library:prompt with declared arguments', async () => {
    await folder.writeAll({
      'libs/Git Tools/twig.toml': manifest,
      'libs/Git Tools/prompts/commit.md': 'Commit {{ diff }} in {{ style }}',
      'libs/Git Tools/prompts/review/deep.md': '# Deep review\n{{ code }}',
    });
    const entries = await load();
    expect(names(entries)).toEqual(['git_tools:commit', 'git_tools:review/deep']);
    expect(byName(entries, 'git_tools:commit')).toMatchObject({
      description: 'Write a commit message',
      arguments: [
        { name: 'diff', description: 'The staged diff', required: true },
        { name: 'style', description: 'Template variable "style"', required: false },
      ],
      meta: { 'dev.promptyard/source': 'libs/Git Tools/prompts/commit.md' },
    });
    expect(byName(entries, 'git_tools:review/deep')).toMatchObject({
      description: 'Deep review',
      arguments: [{ name: 'code', required: false }],
    });
  });

  it('uses the name key of twig.toml, normalised', async () => {
    await folder.writeAll({ 'lib/twig.toml': 'name = "Team-Docs!"', 'lib/prompts/a.md': 'A' });
    expect(names(await load())).toEqual(['team_docs:a']);
  });

  it('never loads a file under a library folder as a plain prompt', async () => {
    await folder.writeAll({
      'git/twig.toml': manifest,
      'git/prompts/commit.md': 'Commit',
      'git/README.md': 'About this library',
      'git/other/notes.md': 'Notes',
      'plain.md': 'Plain',
    });
    expect(names(await load())).toEqual(['git:commit', 'plain']);
  });

  it('treats the folder itself as a library when it holds a twig.toml', async () => {
    await folder.writeAll({ 'My Lib/twig.toml': '', 'My Lib/prompts/x.md': 'X' });
    expect(names(await load({ dir: join(folder.dir, 'My Lib') }))).toEqual(['my_lib:x']);
  });

  it('renders library prompts with the engine made for that library', async () => {
    const roots: string[] = [];
    await folder.writeAll({ 'git/twig.toml': manifest, 'git/prompts/commit.md': 'Commit {{ diff }}', 'plain.md': 'Plain {{ x }}' });
    const entries = await load({
      createLibraryEngine: (root) => {
        roots.push(root);
        return createFakeLiquid('liquid', '[git] ');
      },
    });
    expect(roots).toEqual([join(folder.dir, 'git')]);
    expect((await byName(entries, 'git:commit').render({ diff: 'D' })).messages[0]?.content).toMatchObject({ text: '[git] Commit D' });
    expect((await byName(entries, 'plain').render({ x: 'X' })).messages[0]?.content).toMatchObject({ text: 'Plain X' });
  });

  it('skips a broken library with its file and line, and loads everything else', async () => {
    await folder.writeAll({
      'broken/twig.toml': '[prompts.a]\ndescription = \n',
      'broken/prompts/a.md': 'A',
      'typed/twig.toml': '[prompts.a]\ndescription = 1\n',
      'typed/prompts/a.md': 'A',
      'good/twig.toml': manifest,
      'good/prompts/commit.md': 'Commit',
      'plain.md': 'Plain',
    });
    expect(names(await load())).toEqual(['good:commit', 'plain']);
    expect(warningFor('broken/twig.toml')).toMatchObject([
      { message: 'invalid twig library; skipping it', fields: { line: 2, reason: expect.stringContaining('invalid TOML') } },
    ]);
    expect(warningFor('typed/twig.toml')).toMatchObject([
      { fields: { line: 1, reason: 'prompts.a.description must be a string, not the number 1' } },
    ]);
  });

  it('serves a prompt file with no [prompts.<name>] table, deriving its description', async () => {
    await folder.writeAll({
      'git/twig.toml': manifest,
      'git/prompts/commit.md': 'Commit',
      'git/prompts/squash.md': 'Squash {{ n }} commits',
    });
    expect(byName(await load(), 'git:squash')).toMatchObject({
      description: 'Squash {{ n }} commits',
      arguments: [{ name: 'n', required: false }],
    });
  });

  it('serves the first library by path when two libraries share a name', async () => {
    await folder.writeAll({ 'a/git/twig.toml': '', 'a/git/prompts/x.md': 'From a', 'b/git/twig.toml': '', 'b/git/prompts/x.md': 'From b' });
    const entries = await load();
    expect(entries.map((entry) => [entry.name, entry.origin.file])).toEqual([['git:x', join(folder.dir, 'a/git/prompts/x.md')]]);
    expect(logs.warnings()).toMatchObject([
      { message: 'duplicate prompt name; serving the first file by path', fields: { name: 'git:x' } },
    ]);
  });
});

describe('createPromptFolderSource: many files', () => {
  const manyFiles = (): Record<string, string | Uint8Array> => {
    const files: Record<string, string | Uint8Array> = {};
    for (let index = 0; index < 150; index++)
      files[`bulk/${index % 5}/p${index}.md`] = `---\ndescription: Prompt ${index}\n---\nUse {{ v${index} }}`;
    files['bulk/broken.md'] = '---js\n---\n';
    files['bulk/large.md'] = 'x'.repeat(5000);
    files['bulk/latin.md'] = Buffer.from('Caf\xe9', 'latin1');
    return files;
  };

  it('loads a large folder (read on a reader thread) with the same results and warnings', async () => {
    await folder.writeAll(manyFiles());
    const entries = await load({ maxFileBytes: 4096 });
    expect(entries).toHaveLength(151);
    expect(byName(entries, 'bulk/2/p42')).toMatchObject({ description: 'Prompt 42', arguments: [{ name: 'v42' }] });
    expect((await byName(entries, 'bulk/latin').render({})).messages[0]?.content).toMatchObject({ text: 'Café' });
    expect(logs.warnings().map((record) => [record.message, record.fields.file])).toEqual(
      expect.arrayContaining([
        ['invalid prompt file; skipping it', join(folder.dir, 'bulk/broken.md')],
        ['invalid prompt file; skipping it', join(folder.dir, 'bulk/large.md')],
        ['prompt file is not valid UTF-8; decoded it as Latin-1', join(folder.dir, 'bulk/latin.md')],
      ]),
    );
    expect(logs.warnings()).toHaveLength(3);
  });
});

describe('createPromptFolderSource: reload', () => {
  it('re-reads only the paths it is given, as one delta', async () => {
    await folder.writeAll({ 'a.md': 'A one', 'b.md': 'B one', 'c.md': 'C one' });
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    await source.load();
    await folder.writeAll({ 'a.md': 'A two', 'b.md': 'B two', 'd.md': 'D one' });
    await folder.remove('c.md');
    // b.md changed on disk too, but is not named: it keeps what was read.
    const delta = await source.reload([join(folder.dir, 'a.md'), join(folder.dir, 'c.md'), join(folder.dir, 'd.md')]);
    expect(names(delta.upserted).sort()).toEqual(['a', 'd']);
    expect(delta.removed).toEqual(['c']);
    expect(byName(delta.upserted, 'a').text).toContain('A two');
    expect(names(await source.load()).sort()).toEqual(['a', 'b', 'd']);
  });
});
