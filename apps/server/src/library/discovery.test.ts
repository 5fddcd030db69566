import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config.js';
import { discoverFolders, discoverSkillFolders } from './discovery.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const folderWith = async (paths: readonly string[]): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-discovery-'));
  made.push(dir);
  for (const path of paths) await mkdir(join(dir, path), { recursive: true });
  return dir;
};

const prefixes = {
  claude: 'claude:',
  copilot: 'copilot:',
  continue: 'continue:',
  gemini: 'gemini:',
  codex: 'codex:',
  speckit: 'speckit:',
  prompty: 'prompty:',
};
const allFormats = configSchema.discovery.formats.default;

describe('discoverFolders', () => {
  it('finds existing well-known folders, project before home, with their prefixes and roots', async () => {
    const project = await folderWith(['.claude/commands', '.github/prompts', 'templates/commands']);
    const home = await folderWith([
      '.claude/commands',
      '.codex/prompts',
      '.gemini/commands',
      '.github/prompts',
      '.config/Code/User/prompts',
    ]);
    const found = await discoverFolders({ cwd: project, home, project: true, includeHome: true, formats: allFormats, prefixes });
    expect(found.map((folder) => [folder.scope, folder.format, folder.prefix])).toEqual([
      ['project', 'claude-commands', 'claude:'],
      ['project', 'copilot', 'copilot:'],
      ['project', 'speckit', 'speckit:'],
      ['project', 'prompty', 'prompty:'],
      ['home', 'claude-commands', 'claude:'],
      ['home', 'copilot', 'copilot:'],
      ['home', 'gemini', 'gemini:'],
      ['home', 'codex', 'codex:'],
    ]);
    expect(found[0]?.root).toBe(project);
    expect(found.at(-1)?.root).toBe(join(home, '.codex/prompts'));
  });

  it('serves a folder once when the project is the home, honours CODEX_HOME, formats and the switches', async () => {
    const home = await folderWith(['.claude/commands', 'codex-home/prompts']);
    const found = await discoverFolders({
      cwd: home,
      home,
      project: true,
      includeHome: true,
      formats: ['claude-commands', 'codex'],
      prefixes,
      codexHome: join(home, 'codex-home'),
    });
    expect(found.map((folder) => [folder.scope, folder.format, folder.dir])).toEqual([
      ['project', 'claude-commands', join(home, '.claude/commands')],
      ['home', 'codex', join(home, 'codex-home/prompts')],
    ]);
    expect(await discoverFolders({ cwd: home, home, project: false, includeHome: false, formats: allFormats, prefixes })).toEqual([]);
    await expect(discoverFolders({ cwd: home, home, project: true, includeHome: true, formats: ['cursor'], prefixes })).rejects.toThrow(
      /unknown "cursor"/,
    );
  });
});

describe('discoverSkillFolders', () => {
  it('finds .claude/skills and .agents/skills, project before home, each folder once', async () => {
    const project = await folderWith(['.claude/skills', '.agents/skills']);
    const home = await folderWith(['.agents/skills', '.claude/commands']);
    expect(await discoverSkillFolders({ cwd: project, home, project: true, includeHome: true })).toEqual([
      join(project, '.claude/skills'),
      join(project, '.agents/skills'),
      join(home, '.agents/skills'),
    ]);
    expect(await discoverSkillFolders({ cwd: project, home, project: false, includeHome: true })).toEqual([join(home, '.agents/skills')]);
    expect(await discoverSkillFolders({ cwd: home, home, project: true, includeHome: true })).toEqual([join(home, '.agents/skills')]);
  });
});
