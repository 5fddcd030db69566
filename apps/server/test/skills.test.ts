import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, startHttp, startStdio, type Era } from './harness.js';

afterEach(cleanup);

const skillMd = (description: string): string =>
  `---\nname: review\ndescription: ${description}\n---\n\nReview the change. Read references/GUIDE.md first.\n`;

/** A project with prompts, a `skills` folder (one skill, a guide, a script) and a secret beside it. */
const project = async (): Promise<{ readonly dir: string; readonly args: string[] }> => {
  const dir = await makeFolder({
    ...promptFiles,
    'skills/review/SKILL.md': skillMd('Review code the team way'),
    'skills/review/references/GUIDE.md': '# Guide\n\nSmall commits.\n',
    'skills/review/scripts/check.sh': '#!/bin/sh\necho ok\n',
    'secret.txt': 'hunter2\n',
    'promptyard.toml': '[skills]\nfolders = ["skills"]\n',
  });
  // A symlink out of the skill folder is neither listed nor read.
  await symlink(join(dir, 'secret.txt'), join(dir, 'skills/review/references/leak.md'));
  return { dir, args: ['--config', join(dir, 'promptyard.toml'), '--prompts', dir] };
};

const exercise = async (client: Client): Promise<void> => {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  expect(skills.directoryRead).toBe(true);
  const { skills: entries } = await skills.list();
  expect(entries.map((skill) => [skill.uri, skill.frontmatter.description])).toEqual([
    ['skill://review/SKILL.md', 'Review code the team way'],
  ]);

  const { skill } = await skills.get('skill://review/SKILL.md');
  const manifest = await skills.read(skill);
  expect(manifest).toMatchObject({ verified: true, frontmatter: { name: 'review' } });
  expect(manifest.body).toContain('Review the change.');
  const guide = await skills.read(skill, 'references/GUIDE.md');
  expect(guide).toMatchObject({ verified: true, text: '# Guide\n\nSmall commits.\n' });

  const { resources } = await skills.readDirectory('skill://review/references');
  expect(resources.map((resource) => resource.name)).toEqual(['GUIDE.md']);
  const root = await skills.readDirectory('skill://review');
  expect(root.resources.map((resource) => [resource.name, resource.mimeType])).toEqual([
    ['SKILL.md', 'text/markdown'],
    ['references', 'inode/directory'],
    ['scripts', 'inode/directory'],
  ]);

  // Escapes: a symlink out of the skill, and `..` past its folder.
  await expect(client.readResource({ uri: 'skill://review/references/leak.md' })).rejects.toThrow(/not found/i);
  await expect(client.readResource({ uri: 'skill://review/%2E%2E/%2E%2E/secret.txt' })).rejects.toThrow(/not found/i);
  await expect(client.readResource({ uri: 'skill://review/../secret.txt' })).rejects.toThrow(/not found/i);

  // Clients without the extension still find the skill's SKILL.md among the resources.
  const listed = await client.listResources();
  expect(listed.resources).toContainEqual(expect.objectContaining({ uri: 'skill://review/SKILL.md', name: 'review' }));
};

describe('Agent Skills over the MCP skills extension', () => {
  for (const era of ['legacy', 'modern'] as const satisfies readonly Era[]) {
    it(`lists, gets and reads a skill with digest checks, and refuses escapes (${era === 'modern' ? '2026-07-28' : '2025-11-25'})`, async () => {
      const { args } = await project();
      const server = await startHttp(args);
      await exercise(await connectHttp(server.url, { era }));
      expect(server.stderr.text).toMatch(/skill file skipped: it is a symlink that leads outside its skill folder/);
    });
  }

  it('serves skills as prompts and through the tools fallback, for clients without the extension', async () => {
    const { args } = await project();
    const { client } = await startStdio(args, { env: { PROMPTYARD_FALLBACK_TOOLS: 'true' } });
    const { prompts } = await client.listPrompts();
    expect(prompts).toContainEqual(expect.objectContaining({ name: 'skill:review', description: 'Review code the team way' }));
    const text = (result: { content?: unknown }): string => (result.content as { text: string }[])[0]?.text ?? '';
    expect(text(await client.callTool({ name: 'get_prompt', arguments: { name: 'skill:review' } }))).toContain('Review the change.');
    expect(text(await client.callTool({ name: 'read_skill_file', arguments: { path: 'review/references/GUIDE.md' } }))).toBe(
      '# Guide\n\nSmall commits.\n',
    );
    expect(text(await client.callTool({ name: 'read_skill_file', arguments: { path: 'review' } })).split('\n')).toEqual(
      expect.arrayContaining(['review/SKILL.md', 'review/references/', 'review/scripts/']),
    );
    const escape = await client.callTool({ name: 'read_skill_file', arguments: { path: 'review/references/leak.md' } });
    expect(escape.isError).toBe(true);
    expect(text(escape)).not.toContain('hunter2');
  });

  it('reloads an edited skill and tells the client (stdio)', async () => {
    const { dir, args } = await project();
    const { client, stderr } = await startStdio(args);
    await stderr.waitFor(/watching skills/);
    const skills = new SkillsClient(client);
    let notify: () => void = () => {};
    client.setNotificationHandler('notifications/resources/list_changed', () => notify());

    const changed = new Promise<void>((resolve) => {
      notify = resolve;
    });
    await writeFile(join(dir, 'skills/review/SKILL.md'), skillMd('Review code, edited'));
    await changed;
    const { skill } = await skills.get('skill://review/SKILL.md');
    expect(skill.frontmatter.description).toBe('Review code, edited');
    expect((await skills.read(skill)).verified).toBe(true);

    const added = new Promise<void>((resolve) => {
      notify = resolve;
    });
    await makeSkill(dir, 'lint', 'Lint before review');
    await added;
    expect((await skills.list()).skills.map((entry) => entry.frontmatter.name)).toEqual(['lint', 'review']);
  });

  it('announces an edited skill to a 2025 session and to a 2026 subscription (HTTP)', async () => {
    const { dir, args } = await project();
    const server = await startHttp(args);
    await server.stderr.waitFor(/watching skills/);
    const legacy = await connectHttp(server.url, { era: 'legacy' });
    const modern = await connectHttp(server.url, { era: 'modern' });
    const legacyChanged = new Promise<void>((resolve) =>
      legacy.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    const modernChanged = new Promise<void>((resolve) =>
      modern.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    await legacy.listResources();
    const subscription = await modern.listen({ resourcesListChanged: true });
    await writeFile(join(dir, 'skills/review/SKILL.md'), skillMd('Review code, edited over HTTP'));
    await Promise.all([legacyChanged, modernChanged]);
    const { skill } = await new SkillsClient(modern).get('skill://review/SKILL.md');
    expect(skill.frontmatter.description).toBe('Review code, edited over HTTP');
    await subscription.close();
  });

  it('serves the well-known .claude/skills and .agents/skills when discovering, and the skill stays a prompt', async () => {
    const dir = await makeFolder({
      '.claude/skills/review/SKILL.md': skillMd('Review code the team way'),
      '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app\n---\n\nDeploy.\n',
    });
    const home = await makeFolder({ '.agents/skills/notes/SKILL.md': '---\nname: notes\ndescription: Take notes\n---\n\nNotes.\n' });
    const { client } = await startStdio([], { cwd: dir, env: { HOME: home } });
    const { skills } = await new SkillsClient(client).list();
    expect(skills.map((skill) => skill.uri)).toEqual(['skill://deploy/SKILL.md', 'skill://notes/SKILL.md', 'skill://review/SKILL.md']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('claude:review');
  });
});

const makeSkill = async (dir: string, name: string, description: string): Promise<void> => {
  await mkdir(join(dir, 'skills', name));
  await writeFile(join(dir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it.\n`);
};
