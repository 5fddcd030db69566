import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@promptyard/core';
import { createSkillTools } from '../tools/skill-tools.js';
import { createSkillTree } from './skill-tree.js';
import { captureLogs, createTempFolder, type CapturedLogs, type TempFolder } from '../test-helpers.js';

let folder: TempFolder;
let logs: CapturedLogs;

beforeEach(async () => {
  folder = await createTempFolder();
  logs = captureLogs();
  await folder.writeAll({
    'project/review/SKILL.md': '---\nname: review\ndescription: Review\n---\nRead references/GUIDE.md.\n',
    'project/review/references/GUIDE.md': '# Guide\n',
    'project/review/big.txt': 'x'.repeat(200),
    'project/notes.md': 'not a skill folder',
    'project/empty/README.md': 'no SKILL.md here',
    'home/review/SKILL.md': '---\nname: review\ndescription: Home review\n---\n',
    'home/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy\n---\n',
    'outside/secret.txt': 'hunter2\n',
    'outside/shared/SKILL.md': '---\nname: shared\ndescription: Shared\n---\n',
  });
});

afterEach(() => folder.cleanup());

const tree = () =>
  createSkillTree({
    folders: [join(folder.dir, 'project'), join(folder.dir, 'home')],
    maxFileBytes: 100,
    debounceMs: 10,
    logger: logs.logger,
  });

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('createSkillTree', () => {
  it('lists the skill folders of every folder, the first winning a name clash', async () => {
    const skills = tree();
    expect(await skills.list('')).toEqual([
      { name: 'review', kind: 'directory' },
      { name: 'deploy', kind: 'directory' },
    ]);
    expect(logs.warnings().map((record) => record.message)).toContain('duplicate skill name: the first folder wins');
    expect(text(await skills.read('review/SKILL.md'))).toContain('Read references/GUIDE.md.');
    expect(text(await skills.read('deploy/SKILL.md'))).toContain('description: Deploy');
  });

  it('lists a skill folder without files over the size limit, and refuses to read them', async () => {
    const skills = tree();
    await skills.list('');
    expect(await skills.list('review')).toEqual(
      expect.arrayContaining([
        { name: 'SKILL.md', kind: 'file' },
        { name: 'references', kind: 'directory' },
      ]),
    );
    expect((await skills.list('review')).map((entry) => entry.name)).not.toContain('big.txt');
    await expect(skills.read('review/big.txt')).rejects.toThrow(/max_file_bytes/);
  });

  it('never lists nor reads through a symlink out of a skill, nor past ".."', async () => {
    await symlink(join(folder.dir, 'outside/secret.txt'), join(folder.dir, 'project/review/references/leak.md'));
    await symlink(join(folder.dir, 'outside'), join(folder.dir, 'project/review/escape'));
    await symlink(join(folder.dir, 'outside/shared'), join(folder.dir, 'project/shared'));
    const skills = tree();
    expect((await skills.list('')).map((entry) => entry.name)).not.toContain('shared');
    expect((await skills.list('review/references')).map((entry) => entry.name)).toEqual(['GUIDE.md']);
    expect((await skills.list('review')).map((entry) => entry.name)).not.toContain('escape');
    await expect(skills.read('review/references/leak.md')).rejects.toThrow(/outside its skill folder/);
    await expect(skills.read('review/escape/secret.txt')).rejects.toThrow(/outside its skill folder/);
    await expect(skills.read('review/../../outside/secret.txt')).rejects.toThrow(/".."/);
    await expect(skills.list('review/..')).rejects.toThrow(/".."/);
    expect(logs.warnings().map((record) => record.message)).toEqual(
      expect.arrayContaining([
        'skill folder skipped: it is a symlink that leads outside its folder; copy the skill in or set [prompts] follow_external_symlinks = true',
        'skill file skipped: it is a symlink that leads outside its skill folder; copy the file instead',
      ]),
    );
  });

  it('reports a change to a skill file once watching', async () => {
    const skills = tree();
    let changed: () => void = () => {};
    const change = new Promise<void>((resolve) => {
      changed = resolve;
    });
    await skills.watch?.(() => changed());
    try {
      await folder.write('project/review/references/GUIDE.md', '# Guide, edited\n');
      await change;
    } finally {
      await skills.close?.();
    }
  });
});

describe('read_skill_file (the tools fallback)', () => {
  const context = { signal: new AbortController().signal } as ToolContext;

  it('reads a skill file, lists a folder, and refuses a path out of the skill', async () => {
    const [tool] = createSkillTools({ tree: tree(), maxOutputBytes: 10_000 });
    if (tool === undefined) throw new Error('no tool');
    expect(await tool.execute({ path: 'review/references/GUIDE.md' }, context)).toEqual({ content: [{ type: 'text', text: '# Guide\n' }] });
    expect(await tool.execute({ path: 'review/references' }, context)).toEqual({
      content: [{ type: 'text', text: 'review/references/GUIDE.md' }],
    });
    await mkdir(join(folder.dir, 'project/review/scripts'));
    await symlink(join(folder.dir, 'outside/secret.txt'), join(folder.dir, 'project/review/scripts/leak.sh'));
    await expect(tool.execute({ path: 'review/scripts/leak.sh' }, context)).rejects.toThrow(/outside its skill folder/);
    await expect(tool.execute({ path: 'review/../outside/secret.txt' }, context)).rejects.toThrow(/".."/);
  });
});
