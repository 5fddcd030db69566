import { Client } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createCatalog, createLogger, createPromptService } from '@promptyard/core';
import type { PromptEntry, SkillTree } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogHandlers } from '../catalog/catalog-handlers.js';
import { createMcpServerBlueprint } from './blueprint.js';
import { memoryTree } from './test-skill-tree.js';

const skillMd = (description: string): string => `---\nname: review\ndescription: ${description}\n---\n\nReview it.\n`;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const connect = async (files: Record<string, string>, tree: SkillTree = memoryTree(files)) => {
  const logger = createLogger({ level: 'debug', write: () => {} });
  const warnings: string[] = [];
  logger.subscribe((record) => {
    if (record.level === 'warning') warnings.push(record.message);
  });
  const prompts = createPromptService({
    catalog: createCatalog<PromptEntry>({ kind: 'prompt' }),
    logger,
    limits: { maxArgumentChars: 100, maxResponseBytes: 1000 },
    timeoutMs: 1000,
  });
  let reload: () => void = () => {};
  const blueprint = await createMcpServerBlueprint({
    ...createCatalogHandlers({ name: 'test', version: '1.0.0', logger, prompts }),
    skills: {
      tree,
      onChanged: (listener) => {
        reload = listener;
      },
    },
  });
  const server = blueprint.create({ live: true });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
  closers.push(() => client.close());
  return { client, reload: () => reload(), warnings };
};

describe('skills through the MCP seam', () => {
  it('declares the extension and resources, and serves entries and files a SkillsClient verifies', async () => {
    const { client } = await connect({ 'review/SKILL.md': skillMd('Review'), 'review/refs/GUIDE.md': '# Guide\n' });
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    const [entry] = entries;
    if (entry === undefined) throw new Error('no skill listed');
    expect(entry.uri).toBe('skill://review/SKILL.md');
    expect(await skills.read(entry, 'refs/GUIDE.md')).toMatchObject({ verified: true, text: '# Guide\n' });
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: 'skill://review/SKILL.md', name: 'review' })]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(client.readResource({ uri: 'note://elsewhere' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'skill://review/no such file' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'skill://review/refs' })).rejects.toThrow(/is a directory/);
  });

  it('rebuilds on a change and announces it; a file changed before the rebuild is refused, not served', async () => {
    const files = { 'review/SKILL.md': skillMd('Review') };
    const { client, reload } = await connect(files);
    const skills = new SkillsClient(client);
    const { skill: before } = await skills.get('skill://review/SKILL.md');

    files['review/SKILL.md'] = skillMd('Review, edited');
    await expect(skills.read(before)).rejects.toThrow();
    const announced = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    reload();
    await announced;
    const { skill: after } = await skills.get('skill://review/SKILL.md');
    expect(after.frontmatter.description).toBe('Review, edited');
    expect((await skills.read(after)).verified).toBe(true);
    // The old entry's digest no longer matches what the server sends.
    await expect(skills.read(before)).rejects.toBeInstanceOf(SkillVerificationError);
  });

  it('starts with no skills when the tree cannot be read, and serves them once a change reads it', async () => {
    const files = { 'review/SKILL.md': skillMd('Review') };
    const readable = memoryTree(files);
    let broken = true;
    const tree: SkillTree = {
      ...readable,
      read: (path) => (broken ? Promise.reject(new Error('EACCES: permission denied')) : readable.read(path)),
    };
    const { client, reload, warnings } = await connect(files, tree);
    const skills = new SkillsClient(client);
    expect((await skills.list()).skills).toEqual([]);
    expect(warnings).toContain('skills not served: the skill folders could not be read; fix the cause and save a skill to retry');

    broken = false;
    const announced = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    reload();
    await announced;
    expect((await skills.list()).skills.map((skill) => skill.uri)).toEqual(['skill://review/SKILL.md']);
  });
});
