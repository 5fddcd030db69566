/**
 * Which version is served, and from where (the built binary against real git remotes on loopback):
 * skills from git listed with their digests and commit, a library over smart HTTP (git http-backend
 * behind nginx) with and without a token, `versions <prompt>` and `list --versions`.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  gitEnv,
  gitHttpUnavailable,
  gitLibraryToml,
  gitMetaKey,
  htpasswdUnavailable,
  makeRepository,
  promptFile,
  promptText,
  sha256,
  startGitHttp,
} from '../../../test-support/git-server.js';
import type { GitHttpServer, GitSourceTable, Repository } from '../../../test-support/git-server.js';
import { cleanup, connectHttp, eventually, makeFolder, runCli, startHttp } from './harness.js';

afterEach(cleanup);

const prompt = (text: string): string => promptFile(text);

const textOf = promptText;

/** The files under `dir` whose bytes contain `text` (a token written to disk would be one). */
const filesContaining = async (dir: string, text: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const found = await Promise.all(files.map(async (path) => ((await readFile(path)).includes(text) ? [path] : [])));
  return found.flat();
};

const metaOf = async (client: Client, name: string): Promise<unknown> =>
  (await client.listPrompts()).prompts.find((entry) => entry.name === name)?._meta?.[gitMetaKey];

/** promptyard.toml for git sources in a fresh folder, the cache in its `state`. */
const project = async (sources: { prompts?: readonly GitSourceTable[]; skills?: readonly GitSourceTable[] }): Promise<string> => {
  const dir = await makeFolder({});
  const file = join(dir, 'promptyard.toml');
  await writeFile(file, gitLibraryToml({ stateDir: join(dir, 'state'), ...sources }));
  return file;
};

describe('skills from git', () => {
  let repo: Repository;
  let commit: string;
  const skillMd = '---\nname: review\ndescription: Review code the team way\n---\n\nReview the change. Read references/GUIDE.md first.\n';
  const guide = '# Guide\n\nSmall commits.\n';

  beforeAll(async () => {
    repo = await makeRepository();
    commit = await repo.commit(
      { 'skills/review/SKILL.md': skillMd, 'skills/review/references/GUIDE.md': guide, 'README.md': 'x\n' },
      'skills',
    );
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  it('lists a skill from [[skills.git]] with the SHA-256 of each file and its commit in _meta, and serves it as a prompt', async () => {
    const file = await project({ skills: [{ url: repo.fileUrl, ref: 'main', path: 'skills', poll: 0 }] });
    const server = await startHttp(['--config', file], { env: gitEnv });
    const client = await connectHttp(server.url);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const { skills: entries } = await skills.list();
    expect(entries.map((entry) => entry.uri)).toEqual(['skill://review/SKILL.md']);
    const [review] = entries;
    expect(review?.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: 'skill://review/SKILL.md', digest: `sha256:${sha256(skillMd)}`, size: Buffer.byteLength(skillMd) }),
        expect.objectContaining({
          uri: 'skill://review/references/GUIDE.md',
          digest: `sha256:${sha256(guide)}`,
          size: Buffer.byteLength(guide),
        }),
      ]),
    );
    expect(review?._meta?.[gitMetaKey]).toEqual({ repository: repo.fileUrl, ref: 'main', commit, path: 'skills/review/SKILL.md' });
    const read = await skills.read(review!, 'references/GUIDE.md');
    expect(read).toMatchObject({ verified: true, text: guide });

    const { prompts } = await client.listPrompts();
    const asPrompt = prompts.find((entry) => entry.name === 'skill:review');
    expect(asPrompt?._meta?.[gitMetaKey]).toMatchObject({ commit, path: 'skills/review/SKILL.md' });
    expect(await textOf(client, 'skill:review')).toContain('Review the change.');
  });
});

describe('skills from git, moved', () => {
  let repo: Repository;
  const skill = (description: string): string => `---\nname: lint\ndescription: ${description}\n---\n\n${description}.\n`;

  beforeAll(async () => {
    repo = await makeRepository();
    await repo.commit({ 'lint/SKILL.md': skill('Lint the old way') }, 'old');
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  it('a new commit (SIGHUP) changes the skill in skills/list, its digest and commit, and as the prompt skill:lint', async () => {
    const file = await project({ skills: [{ url: repo.bare, ref: 'main', poll: 0 }] });
    const server = await startHttp(['--config', file], { env: gitEnv });
    const client = await connectHttp(server.url);
    const skills = new SkillsClient(client);
    expect((await skills.list()).skills[0]?.frontmatter.description).toBe('Lint the old way');
    expect(await textOf(client, 'skill:lint')).toContain('Lint the old way.');

    const moved = skill('Lint the new way');
    await repo.commit({ 'lint/SKILL.md': moved }, 'new');
    const commit = await repo.push();
    process.kill(server.child.pid as number, 'SIGHUP');
    const [entry] = (
      await eventually(
        () => skills.list(),
        (listing) => listing.skills[0]?.frontmatter.description === 'Lint the new way',
        15_000,
      )
    ).skills;
    expect(entry?.resources).toContainEqual(expect.objectContaining({ uri: 'skill://lint/SKILL.md', digest: `sha256:${sha256(moved)}` }));
    expect(entry?._meta?.[gitMetaKey]).toMatchObject({ commit, path: 'lint/SKILL.md' });
    expect(await skills.read(entry!)).toMatchObject({ verified: true });
    await eventually(
      () => textOf(client, 'skill:lint'),
      (text) => text.includes('Lint the new way.'),
      15_000,
    );
    expect(await metaOf(client, 'skill:lint')).toMatchObject({ commit });
  });
});

const httpSkip = gitHttpUnavailable();
if (httpSkip !== undefined) console.warn(`git library over smart HTTP: skipped, ${httpSkip}`);

describe.skipIf(httpSkip !== undefined)('a library over smart HTTP (git http-backend behind nginx)', () => {
  let repo: Repository;
  let commit: string;
  const servers: GitHttpServer[] = [];

  beforeAll(async () => {
    repo = await makeRepository();
    commit = await repo.commit({ 'prompts/greet.md': prompt('Hello over HTTP') }, 'http');
    await repo.push();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await repo?.remove();
  });

  it('resolves the ref and serves it', async () => {
    const http = await startGitHttp(repo.base);
    servers.push(http);
    const url = http.url(repo.name);
    const file = await project({ prompts: [{ url, ref: 'main', path: 'prompts', poll: 0 }] });
    const server = await startHttp(['--config', file], { env: gitEnv });
    const client = await connectHttp(server.url);
    expect(await textOf(client, 'greet')).toBe('Hello over HTTP\n');
    expect(await metaOf(client, 'greet')).toEqual({ repository: url, ref: 'main', commit, path: 'prompts/greet.md' });
  });

  it('sends the token of auth_token_env, which never shows in logs, /health, _meta or errors', async (context) => {
    const noOpenssl = await htpasswdUnavailable();
    if (noOpenssl !== undefined) {
      console.warn(`auth_token_env over smart HTTP: skipped, ${noOpenssl}`);
      context.skip();
    }
    const token = 'tok-3f9a1c7e5b2d4e6f8a0b';
    const http = await startGitHttp(repo.base, { basicAuth: { user: 'x-access-token', password: token } });
    servers.push(http);
    const url = http.url(repo.name);
    const source = { url, ref: 'main', path: 'prompts', poll: 0, auth_token_env: 'LIBRARY_TOKEN' };

    const file = await project({ prompts: [source] });
    const server = await startHttp(['--config', file], { env: { ...gitEnv, LIBRARY_TOKEN: token } });
    const client = await connectHttp(server.url);
    expect(await textOf(client, 'greet')).toBe('Hello over HTTP\n');
    expect(JSON.stringify(await metaOf(client, 'greet'))).not.toContain(token);
    const health = await (await fetch(`${new URL(server.url).origin}/health`)).text();
    expect(health).toContain(commit);
    expect(health).not.toContain(token);
    const listed = await runCli(['--config', file, 'list', '--versions'], { env: { ...gitEnv, LIBRARY_TOKEN: token } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout + listed.stderr).not.toContain(token);
    expect(server.stderr.text).not.toContain(token);
    expect(await filesContaining(join(dirname(file), 'state'), token)).toEqual([]);

    // A wrong token (and a fresh cache): the server does not start, and says so without the token.
    const wrong = 'tok-wrong-9e8d7c6b5a4f3e2d';
    const refused = await project({ prompts: [source] });
    const failed = await startHttp(['--config', refused], { env: { ...gitEnv, LIBRARY_TOKEN: wrong } }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/exited with [1-9]/);
    expect(failed).toContain(url);
    expect(failed).not.toContain(wrong);
    // Without the variable set, the same: no prompt for a password, an error naming the source.
    const unset = await runCli(['--config', refused, 'list'], { env: gitEnv });
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain(url);
  });
});

describe('versions of a prompt', () => {
  let repo: Repository;
  const commits: Record<string, string> = {};

  beforeAll(async () => {
    repo = await makeRepository();
    commits['add greet'] = await repo.commit({ 'greet.md': prompt('Greet 1'), 'other.md': prompt('Other 1') }, 'add greet');
    commits['touch other'] = await repo.commit({ 'other.md': prompt('Other 2') }, 'touch other');
    commits['reword greet'] = await repo.commit({ 'greet.md': prompt('Greet 2') }, 'reword greet');
    commits['touch other again'] = await repo.commit({ 'other.md': prompt('Other 3') }, 'touch other again');
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  it('`versions greet` lists the commits that changed greet.md, newest first; `list --versions` starts with the source and its commit', async () => {
    const file = await project({ prompts: [{ url: repo.bare, ref: 'main', poll: 0 }] });
    const versions = await runCli(['--config', file, 'versions', 'greet'], { env: gitEnv });
    expect(versions.code, versions.stderr).toBe(0);
    const lines = versions.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s{2,}/))).toEqual([
      [commits['reword greet'], expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), 'Test', 'reword greet'],
      [commits['add greet'], expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), 'Test', 'add greet'],
    ]);

    const list = await runCli(['--config', file, 'list', '--versions'], { env: gitEnv });
    expect(list.code, list.stderr).toBe(0);
    const [first, ...rest] = list.stdout.trim().split('\n');
    expect(first).toContain(repo.bare);
    expect(first).toContain(commits['touch other again']);
    expect(first).toMatch(/\bbranch\b/);
    expect(first).toMatch(/fetched \d{4}-\d{2}-\d{2}T\S+/);
    expect(first).toMatch(/\blive\b/);
    expect(rest.join('\n')).toMatch(/^greet\b/m);
    expect(rest.join('\n')).toMatch(/^other\b/m);
  });
});
