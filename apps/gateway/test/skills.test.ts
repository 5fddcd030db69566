/**
 * Agent Skills through the gateway: a promptyard-server backend (the built apps/server binary)
 * serves a skill folder through the skills extension; the gateway serves it under the server's
 * prefix, its files read through the backend with their digests intact. A backend without the
 * extension contributes none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { cleanup, connectHttp, gatewayToml, Output, startHttpGateway, startStdioGateway, stdioBackendCommand } from './harness.js';
import type { Era, StdioCommand, TomlServer } from './harness.js';

const serverCli = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const folders: string[] = [];
const servers: ChildProcess[] = [];

afterEach(async () => {
  for (const child of servers.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await cleanup();
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const skillMd = (description: string): string =>
  `---\nname: review\ndescription: ${description}\n---\n\nReview the change. Read references/GUIDE.md first.\n`;

/** A folder with one prompt and one skill (a guide beside its SKILL.md), and the command serving it. */
const skillServer = async (): Promise<{ readonly dir: string; readonly command: StdioCommand }> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-gw-skills-'));
  folders.push(dir);
  const files = {
    'prompts/hello.md': '---\ndescription: Say hello\n---\nHello!\n',
    'skills/review/SKILL.md': skillMd('Review code the team way'),
    'skills/review/references/GUIDE.md': '# Guide\n\nSmall commits.\n',
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const command = {
    command: process.execPath,
    args: [serverCli, '--prompts', join(dir, 'prompts')],
    env: { PROMPTYARD_SKILLS_FOLDERS: join(dir, 'skills') },
  };
  return { dir, command };
};

/** The same server over Streamable HTTP, for the gateway to reach at 2026-07-28. */
const overHttp = async ({ command }: { readonly command: StdioCommand }): Promise<TomlServer> => {
  const child = spawn(command.command, [...command.args, '--transport', 'http', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...command.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servers.push(child);
  const stderr = new Output();
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const match = await stderr.waitFor(/listening on (http:\/\/\S+)/);
  return { url: match[1] as string, protocol: '2026-07-28' };
};

const config = (docs: TomlServer): string => gatewayToml({ docs, plain: { command: stdioBackendCommand({ name: 'plain' }) } });

const exercise = async (client: Client): Promise<void> => {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  const { skills: entries } = await skills.list();
  expect(entries.map((skill) => skill.uri)).toEqual(['skill://docs/review/SKILL.md']);
  const [entry] = entries;
  expect(entry?.resources).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ uri: 'skill://docs/review/references/GUIDE.md', digest: expect.stringMatching(/^sha256:/) }),
    ]),
  );

  const { skill } = await skills.get('skill://docs/review/SKILL.md');
  expect(await skills.read(skill)).toMatchObject({
    verified: true,
    frontmatter: { name: 'review', description: 'Review code the team way' },
  });
  expect(await skills.read(skill, 'references/GUIDE.md')).toMatchObject({ verified: true, text: '# Guide\n\nSmall commits.\n' });

  const { resources } = await skills.readDirectory('skill://docs/review');
  expect(resources.map((resource) => resource.uri)).toEqual(['skill://docs/review/SKILL.md', 'skill://docs/review/references']);

  // Nothing outside a served skill folder is read through the gateway.
  await expect(client.readResource({ uri: 'skill://docs/../secret' })).rejects.toThrow(/not found/i);
  await expect(client.readResource({ uri: 'skill://plain/anything/SKILL.md' })).rejects.toThrow(/not found/i);
  const listed = await client.listResources();
  expect(listed.resources.filter((resource) => resource.uri.includes('skill://')).map((resource) => resource.uri)).toEqual([
    'skill://docs/review/SKILL.md',
  ]);
};

describe('gateway: Agent Skills', () => {
  for (const era of ['legacy', 'modern'] as const satisfies readonly Era[]) {
    it(`serves a server's skills under its prefix, verified end to end (${era === 'modern' ? '2026-07-28' : '2025-11-25'} on both hops)`, async () => {
      const server = await skillServer();
      const gateway = await startHttpGateway({ config: config(era === 'modern' ? await overHttp(server) : { command: server.command }) });
      const client = await connectHttp(gateway.url, { era });
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      await exercise(client);
    });
  }

  it('passes a reloaded skill on to its clients', async () => {
    const { dir, command } = await skillServer();
    let notify: () => void = () => {};
    const { client, stderr } = await startStdioGateway({ config: config({ command }), args: ['--log-level', 'debug'] });
    // The server's log, passed on by the gateway: its watcher is ready.
    await stderr.waitFor(/watching skills/);
    client.setNotificationHandler('notifications/resources/list_changed', () => notify());
    const skills = new SkillsClient(client);
    const listed = async (): Promise<string[]> => (await skills.list()).skills.map((skill) => skill.frontmatter.description);
    expect(await listed()).toEqual(['Review code the team way']);

    const changed = new Promise<void>((resolve) => {
      notify = resolve;
    });
    await writeFile(join(dir, 'skills/review/SKILL.md'), skillMd('Review code, edited'));
    await changed;
    expect(await listed()).toEqual(['Review code, edited']);
    const { skill } = await skills.get('skill://docs/review/SKILL.md');
    expect((await skills.read(skill)).verified).toBe(true);

    // A file's content alone changed: its digest did, and clients hear of it too.
    const contentChanged = new Promise<void>((resolve) => {
      notify = resolve;
    });
    await writeFile(join(dir, 'skills/review/references/GUIDE.md'), '# Guide\n\nSmaller commits.\n');
    await contentChanged;
    const { skill: fresh } = await skills.get('skill://docs/review/SKILL.md');
    expect(await skills.read(fresh, 'references/GUIDE.md')).toMatchObject({ verified: true, text: '# Guide\n\nSmaller commits.\n' });
  });
});
