/**
 * Prompt libraries served from git by version (the built binary against real git remotes on
 * loopback): a tag served with its commit in `_meta` and moved by a config edit, and a followed
 * branch moved by its poll, by `sync`, by SIGHUP and by signed push webhooks.
 */
import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitEnv, gitLibraryToml, gitMetaKey, makeRepository, promptFile, startGitDaemon } from '../../../test-support/git-server.js';
import type { GitServer, GitSourceTable, Repository } from '../../../test-support/git-server.js';
import { cleanup, connectHttp, eventually, makeFolder, runCli, startHttp, startStdio } from './harness.js';

afterEach(cleanup);

const prompt = (text: string): string => promptFile(text, 'Greets');

/** The text `greet` renders to. */
const greetText = async (client: Client): Promise<string> => {
  const result = await client.getPrompt({ name: 'greet' });
  const content = result.messages[0]?.content;
  return content?.type === 'text' ? content.text : JSON.stringify(content);
};

/** `_meta["dev.promptyard/git"]` of a listed prompt. */
const gitMetaOf = async (client: Client, name: string): Promise<unknown> => {
  const { prompts } = await client.listPrompts();
  return prompts.find((entry) => entry.name === name)?._meta?.[gitMetaKey];
};

/** Counts `notifications/prompts/list_changed`; `next()` resolves at the next one. */
const listChanges = (client: Client) => {
  let count = 0;
  let waiters: (() => void)[] = [];
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    count += 1;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  });
  return {
    get count() {
      return count;
    },
    /** Resolves at the next list_changed (rejects after `timeoutMs`). */
    next: (timeoutMs = 15_000): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no prompts/list_changed in ${timeoutMs} ms`)), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
};

/** A promptyard.toml for one `[[prompts.git]]` source, its cache in a fresh folder; returns its path. */
const configFile = async (
  source: GitSourceTable,
  more?: string,
): Promise<{ file: string; stateDir: string; write: (next: GitSourceTable) => Promise<void> }> => {
  const dir = await makeFolder({});
  const stateDir = join(dir, 'state');
  const file = join(dir, 'promptyard.toml');
  const write = (next: GitSourceTable): Promise<void> =>
    writeFile(file, gitLibraryToml({ stateDir, prompts: [next], ...(more === undefined ? {} : { more }) }));
  await write(source);
  return { file, stateDir, write };
};

describe('a tag served over git daemon', () => {
  let repo: Repository;
  let daemon: GitServer;
  let v1: string;
  let v2: string;

  beforeAll(async () => {
    repo = await makeRepository();
    v1 = await repo.commit({ 'prompts/greet.md': prompt('Hello from v1'), 'prompts/other.md': 'Other\n', 'README.md': 'library\n' }, 'v1');
    await repo.tag('v1');
    v2 = await repo.commit({ 'prompts/greet.md': prompt('Hello from v2') }, 'v2');
    await repo.tag('v2');
    await repo.push();
    daemon = await startGitDaemon(repo.base);
  });

  afterAll(async () => {
    await daemon?.stop();
    await repo?.remove();
  });

  it('serves v1 with its commit in _meta, and moves to v2 when the config says so with one list_changed', async () => {
    const url = daemon.url(repo.name);
    const config = await configFile({ url, ref: 'v1', path: 'prompts' });
    const { client } = await startStdio(['--config', config.file], { env: gitEnv });
    const changes = listChanges(client);

    expect(await greetText(client)).toBe('Hello from v1\n');
    expect(await gitMetaOf(client, 'greet')).toEqual({ repository: url, ref: 'v1', commit: v1, path: 'prompts/greet.md' });
    expect(await gitMetaOf(client, 'other')).toEqual({ repository: url, ref: 'v1', commit: v1, path: 'prompts/other.md' });

    const moved = changes.next();
    await config.write({ url, ref: 'v2', path: 'prompts' });
    await moved;
    expect(await greetText(client)).toBe('Hello from v2\n');
    expect(await gitMetaOf(client, 'greet')).toEqual({ repository: url, ref: 'v2', commit: v2, path: 'prompts/greet.md' });
    expect(await gitMetaOf(client, 'other')).toMatchObject({ ref: 'v2', commit: v2 });
    expect(changes.count).toBe(1);

    // Back to v1: a second move is a second list_changed, no more (nothing else announced the first one again meanwhile).
    const back = changes.next();
    await config.write({ url, ref: 'v1', path: 'prompts' });
    await back;
    expect(await greetText(client)).toBe('Hello from v1\n');
    expect(await gitMetaOf(client, 'greet')).toMatchObject({ ref: 'v1', commit: v1 });
    expect(changes.count).toBe(2);
  });
});

describe('a followed branch', () => {
  let repo: Repository;

  beforeAll(async () => {
    repo = await makeRepository();
    await repo.commit({ 'greet.md': prompt('Hello, first') }, 'first');
    await repo.push();
  });

  afterAll(async () => {
    await repo?.remove();
  });

  /** Commits and pushes a new text of greet.md on main; resolves with the commit. */
  let pushes = 0;
  const pushGreeting = async (): Promise<{ text: string; commit: string }> => {
    pushes += 1;
    const text = `Hello, push ${pushes}`;
    await repo.commit({ 'greet.md': prompt(text) }, `push ${pushes}`);
    return { text: `${text}\n`, commit: await repo.push() };
  };

  it('picks up a new commit by polling (poll = "1s")', async () => {
    const config = await configFile({ url: repo.bare, ref: 'main', poll: '1s' });
    const { client } = await startStdio(['--config', config.file], { env: gitEnv });
    const changes = listChanges(client);
    const before = await greetText(client);
    const moved = changes.next();
    const { text, commit } = await pushGreeting();
    expect(before).not.toBe(text);
    await moved;
    expect(await greetText(client)).toBe(text);
    expect(await gitMetaOf(client, 'greet')).toEqual({ repository: repo.bare, ref: 'main', commit, path: 'greet.md' });
  });

  it('picks up a new commit when `promptyard-server sync` runs on the same cache (poll = 0)', async () => {
    const config = await configFile({ url: repo.bare, ref: 'main', poll: 0 });
    const { client } = await startStdio(['--config', config.file], { env: gitEnv });
    const changes = listChanges(client);
    const { text, commit } = await pushGreeting();
    expect(await greetText(client)).not.toBe(text);
    const moved = changes.next();
    const sync = await runCli(['--config', config.file, 'sync'], { env: gitEnv });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain(commit);
    await moved;
    expect(await greetText(client)).toBe(text);
    expect(await gitMetaOf(client, 'greet')).toMatchObject({ commit });
    expect(changes.count).toBe(1);
  });

  it('picks up a new commit on SIGHUP (poll = 0)', async () => {
    const config = await configFile({ url: repo.bare, ref: 'main', poll: 0 });
    const { client, pid } = await startStdio(['--config', config.file], { env: gitEnv });
    const changes = listChanges(client);
    const { text, commit } = await pushGreeting();
    expect(await greetText(client)).not.toBe(text);
    const moved = changes.next();
    process.kill(pid, 'SIGHUP');
    await moved;
    expect(await greetText(client)).toBe(text);
    expect(await gitMetaOf(client, 'greet')).toMatchObject({ commit });
  });

  it('moves on a signed push webhook (GitHub, Gitea, GitLab) and refuses unsigned or wrongly signed ones with 401', async () => {
    const secret = 'webhook-secret-for-tests';
    const url = repo.fileUrl;
    const config = await configFile({ url, ref: 'main', poll: 0 });
    const server = await startHttp(['--config', config.file], { env: { ...gitEnv, PROMPTYARD_GIT_WEBHOOK_SECRET: secret } });
    const origin = new URL(server.url).origin;
    const client = await connectHttp(server.url);
    const served = async (): Promise<string | undefined> => {
      const response = await fetch(`${origin}/health`);
      const body = (await response.json()) as { git?: { commit?: string }[] };
      return body.git?.[0]?.commit;
    };
    const start = await served();
    const hook = (headers: Record<string, string>, body: string): Promise<Response> =>
      fetch(`${origin}/hooks/git`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const sign = (body: string, key = secret): string => createHmac('sha256', key).update(body).digest('hex');
    const githubBody = (after: string): string =>
      JSON.stringify({ ref: 'refs/heads/main', before: start, after, repository: { full_name: 'team/library', clone_url: url } });

    const first = await pushGreeting();
    const body = githubBody(first.commit);
    expect((await hook({ 'x-github-event': 'push' }, body)).status).toBe(401);
    expect((await hook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(body, 'another secret')}` }, body)).status).toBe(
      401,
    );
    expect(
      (await hook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(githubBody('0'.repeat(40)))}` }, body)).status,
    ).toBe(401);
    expect(await served()).toBe(start);
    expect(await greetText(client)).not.toBe(first.text);
    // Signed, but of another branch or another repository: accepted, nothing follows it, nothing moves.
    for (const other of [
      JSON.stringify({ ref: 'refs/heads/feature', after: first.commit, repository: { clone_url: url } }),
      JSON.stringify({ ref: 'refs/heads/main', after: first.commit, repository: { clone_url: 'https://git.example.com/other.git' } }),
    ]) {
      const response = await hook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(other)}` }, other);
      expect(response.status, await response.clone().text()).toBe(202);
    }
    expect(await served()).toBe(start);

    const github = await hook({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sign(body)}` }, body);
    expect(github.status, await github.clone().text()).toBe(200);
    expect(await served()).toBe(first.commit);
    expect(await greetText(client)).toBe(first.text);

    const second = await pushGreeting();
    const giteaBody = JSON.stringify({ ref: 'refs/heads/main', after: second.commit, repository: { clone_url: url } });
    const gitea = await hook({ 'x-gitea-event': 'push', 'x-gitea-signature': sign(giteaBody) }, giteaBody);
    expect(gitea.status, await gitea.clone().text()).toBe(200);
    expect(await served()).toBe(second.commit);
    expect(await greetText(client)).toBe(second.text);

    const third = await pushGreeting();
    const gitlabBody = JSON.stringify({
      object_kind: 'push',
      ref: 'refs/heads/main',
      checkout_sha: third.commit,
      after: third.commit,
      project: { git_http_url: url },
      repository: { git_http_url: url },
    });
    expect((await hook({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'not the secret' }, gitlabBody)).status).toBe(401);
    expect(await served()).toBe(second.commit);
    const gitlab = await hook({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }, gitlabBody);
    expect(gitlab.status, await gitlab.clone().text()).toBe(200);
    expect(await served()).toBe(third.commit);
    expect(await greetText(client)).toBe(third.text);
    expect(server.stderr.text).not.toContain(secret);
  });

  it('has no webhook without a secret in the environment', async () => {
    const config = await configFile({ url: repo.bare, ref: 'main', poll: 0 });
    const server = await startHttp(['--config', config.file], { env: gitEnv });
    const response = await fetch(`${new URL(server.url).origin}/hooks/git`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    await eventually(
      async () => server.stderr.text,
      (text) => /git webhook off: set PROMPTYARD_GIT_WEBHOOK_SECRET/.test(text),
    );
  });
});
