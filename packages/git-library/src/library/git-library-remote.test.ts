/**
 * The library against a remote that goes away (served by `git daemon` on 127.0.0.1) and replicas
 * agreeing on a commit through an in-memory stand-in for the cluster's shared map and claims (the
 * Redis-backed cluster is covered by the cluster black-box tests).
 */
import { execa } from 'execa';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPromptyardError } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitLibrary, GitSourceConfig, ServedVersion } from '../types.js';
import { openGitLibrary } from './git-library.js';
import { createMemoryStore, createTestRepo, gitEnv, memoryCluster, recordingLogger } from './test-library.js';
import type { TestRepo } from './test-library.js';

let repo: TestRepo;
const folders: string[] = [];
const open: GitLibrary[] = [];
/** The running `git daemon`: how to stop it and its end. */
let daemon: { readonly pid: number | undefined; readonly kill: () => void; readonly done: Promise<unknown> } | undefined;

const folder = async (): Promise<string> => {
  const made = await mkdtemp(join(tmpdir(), 'promptyard-git-cache-'));
  folders.push(made);
  return made;
};

beforeEach(async () => {
  repo = await createTestRepo();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((library) => library.close()));
  await stopDaemon();
  await repo.cleanup();
  await Promise.all(folders.splice(0).map((made) => rm(made, { recursive: true, force: true })));
});

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** `git daemon` serving the test repository's folder; resolves with the repository's git:// URL once it accepts. */
const startDaemon = async (port?: number): Promise<string> => {
  port ??= await freePort();
  const started = execa(
    '/usr/lib/git-core/git-daemon',
    ['--verbose', '--reuseaddr', '--export-all', `--base-path=${repo.root}`, '--listen=127.0.0.1', `--port=${port}`, repo.root],
    { env: gitEnv, extendEnv: false, reject: false },
  );
  daemon = { pid: started.pid, kill: () => void started.kill(), done: started };
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('Ready to rumble')) resolve();
    });
    void started.then(() => reject(new Error(`git daemon exited: ${seen}`)));
  });
  return `git://127.0.0.1:${port}/remote.git`;
};

const stopDaemon = async (): Promise<void> => {
  const running = daemon;
  daemon = undefined;
  if (running === undefined) return;
  if (running.pid !== undefined) process.kill(running.pid, 'SIGCONT');
  running.kill();
  await running.done;
};

const source = (url: string, overrides: Partial<GitSourceConfig> = {}): GitSourceConfig => ({
  kind: 'prompts',
  url,
  ref: 'main',
  path: 'prompts',
  pollMs: 0,
  ...overrides,
});

const library = async (
  sources: GitSourceConfig[],
  cacheDir: string,
  extra: Partial<Parameters<typeof openGitLibrary>[0]> = {},
): Promise<GitLibrary> => {
  const opened = await openGitLibrary({ sources, cacheDir, logger: recordingLogger().logger, env: gitEnv, ...extra });
  open.push(opened);
  return opened;
};

const nextVersion = (opened: GitLibrary): Promise<ServedVersion> =>
  new Promise((resolve) => opened.sources[0]?.onVersion(async (version) => resolve(version)));

describe('a remote that cannot be reached', () => {
  it('serves the cached commit, stale, and refuses to start with nothing cached', async () => {
    const first = await repo.commit({ 'prompts/a.md': 'a1' });
    const url = await startDaemon();
    const cacheDir = await folder();
    const opened = await library([source(url)], cacheDir);
    expect(opened.status()[0]).toMatchObject({ commit: first, stale: false });
    await opened.close();
    open.splice(0);
    await stopDaemon();

    const { logger, records } = recordingLogger();
    const again = await openGitLibrary({ sources: [source(url)], cacheDir, logger, env: gitEnv });
    open.push(again);
    expect(again.status()[0]).toMatchObject({ commit: first, stale: true, lastError: expect.any(String) });
    expect(await readFile(join(again.sources[0]?.dir ?? '', 'a.md'), 'utf8')).toBe('a1');
    expect(records.some((record) => record.level === 'warning' && /serving the cached commit/.test(record.message))).toBe(true);
    const report = await again.sync();
    expect([...report.failed.keys()]).toEqual([again.sources[0]?.id]);

    const error = await library([source(url)], await folder()).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isPromptyardError(error)) throw new Error(`expected a PromptyardError, got ${String(error)}`);
    expect(error.message).toMatch(/cannot reach git:\/\/127\.0\.0\.1:\d+\/remote\.git and nothing is cached in /);
  });
});

describe('credentials', () => {
  it('never appear in the error of a source that cannot be opened', async () => {
    const port = await freePort();
    const url = `http://someone:s3cret-token@127.0.0.1:${port}/team/prompts.git`;
    const error = await library([source(url)], await folder()).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isPromptyardError(error)) throw new Error(`expected a PromptyardError, got ${String(error)}`);
    expect(error.message).toMatch(/cannot reach/);
    expect(error.message).toContain(`127.0.0.1:${port}/team/prompts.git`);
    expect(`${error.message} ${JSON.stringify(error.data)}`).not.toContain('s3cret-token');
  });
});

describe('a remote that fails while followed', () => {
  it('keeps serving, logs once per failure streak, retries with backoff and logs the recovery', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const url = await startDaemon();
    const port = Number(/:(\d+)\//.exec(url)?.[1]);
    const { logger, records } = recordingLogger();
    const opened = await openGitLibrary({ sources: [source(url, { pollMs: 50 })], cacheDir: await folder(), logger, env: gitEnv });
    open.push(opened);
    const failed = new Promise<void>((resolve) => {
      logger.subscribe((record) => {
        if (/remote check failed/.test(record.message)) resolve();
      });
    });
    await stopDaemon();
    opened.start();
    await failed;
    expect(opened.status()[0]).toMatchObject({ stale: true, lastError: expect.any(String) });
    const recovered = new Promise<void>((resolve) => {
      logger.subscribe((record) => {
        if (/answers again/.test(record.message)) resolve();
      });
    });
    const moved = nextVersion(opened);
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    await startDaemon(port);
    await recovered;
    expect((await moved).commit).toBe(next);
    expect(records.filter((record) => /remote check failed/.test(record.message))).toHaveLength(1);
    expect(opened.status()[0]).toMatchObject({ stale: false, lastError: undefined, commit: next });
  });
});

describe('replicas', () => {
  it('serve the commit the first node announced, and follow the node that finds a new one', async () => {
    const first = await repo.commit({ 'prompts/a.md': 'a1' });
    const store = createMemoryStore();
    const nodeA = await library([source(repo.bare)], await folder(), { cluster: memoryCluster(store, 'a') });
    const ahead = await repo.commit({ 'prompts/a.md': 'a2' });
    const nodeB = await library([source(repo.bare)], await folder(), { cluster: memoryCluster(store, 'b') });
    expect(nodeA.status()[0]?.commit).toBe(first);
    expect(nodeB.status()[0]?.commit).toBe(first);
    nodeA.start();
    nodeB.start();
    const bMoved = nextVersion(nodeB);
    const report = await nodeA.sync();
    expect(report.moved.get(nodeA.sources[0]?.id ?? '')).toBe(ahead);
    expect((await bMoved).commit).toBe(ahead);
    expect(await readFile(join(nodeB.sources[0]?.dir ?? '', 'a.md'), 'utf8')).toBe('a2');
  });

  it('hold the readers of a replica from the switch time until it has moved when its fetch ends later', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const url = await startDaemon();
    const store = createMemoryStore();
    const nodeA = await library([source(url)], await folder(), { cluster: memoryCluster(store, 'a') });
    const nodeB = await library([source(url)], await folder(), { cluster: memoryCluster(store, 'b') });
    const ahead = await repo.commit({ 'prompts/a.md': 'a2' });
    // Node A announces the new commit; from then on the remote stalls, so node B's fetch of it outlasts the switch time.
    memoryCluster(store, 'test')
      .sharedMap('git-library')
      .onChange(() => {
        if (daemon?.pid !== undefined) process.kill(daemon.pid, 'SIGSTOP');
      });
    nodeA.start();
    nodeB.start();
    const aMoved = nextVersion(nodeA);
    const bMoved = nextVersion(nodeB);
    await nodeA.sync();
    expect((await aMoved).commit).toBe(ahead);
    const [bSource] = nodeB.sources;
    if (bSource === undefined) throw new Error('node B has no source');
    // A reader on node B, after node A moved: it must not be answered from the old commit.
    const read = bSource.gate.shared(() => readFile(join(bSource.dir, 'a.md'), 'utf8'));
    if (daemon?.pid !== undefined) process.kill(daemon.pid, 'SIGCONT');
    expect(await read).toBe('a2');
    expect((await bMoved).commit).toBe(ahead);
  });

  it('poll once per period across nodes', async () => {
    await repo.commit({ 'prompts/a.md': 'a1' });
    const store = createMemoryStore();
    const nodes = [
      await library([source(repo.bare, { pollMs: 100 })], await folder(), { cluster: memoryCluster(store, 'a') }),
      await library([source(repo.bare, { pollMs: 100 })], await folder(), { cluster: memoryCluster(store, 'b') }),
    ];
    const moved = nodes.map(nextVersion);
    for (const node of nodes) node.start();
    const next = await repo.commit({ 'prompts/a.md': 'a2' });
    expect((await Promise.all(moved)).map((version) => version.commit)).toEqual([next, next]);
    expect(store.won.length).toBeGreaterThan(0);
    expect(store.won.every((key) => key.startsWith(`git-poll:${nodes[0]?.sources[0]?.id ?? ''}:`))).toBe(true);
    expect(new Set(store.won).size).toBe(store.won.length);
    expect(store.claims.size).toBeGreaterThan(0);
  });
});
