/**
 * Two replicas of the built promptyard-server sharing one Redis behind nginx round-robin
 * (test-support/cluster.ts), serving a followed branch of a git library (poll 1 s): after a push both
 * replicas serve the same new commit, and a client through nginx sees the new text (never the old
 * one again once it saw the new).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../../test-support/cluster.js';
import type { Cluster } from '../../test-support/cluster.js';
import { gitEnv, gitLibraryToml, makeRepository, promptFile, promptText } from '../../test-support/git-server.js';
import type { Repository } from '../../test-support/git-server.js';
import { connectModern, eventually } from './clients.js';

const prompt = (text: string): string => promptFile(text, 'Greets');

const textOf = (client: Client): Promise<string> => promptText(client, 'greet');

describe('promptyard-server: 2 replicas serving a followed git branch, Redis, nginx round-robin', () => {
  let cluster: Cluster;
  let repo: Repository;
  let stateDir: string;
  let first: string;

  beforeAll(async () => {
    repo = await makeRepository();
    first = await repo.commit({ 'greet.md': prompt('Hello, first') }, 'first');
    await repo.push();
    stateDir = await mkdtemp(join(tmpdir(), 'promptyard-cluster-git-'));
    cluster = await startCluster({
      app: 'server',
      replicas: 2,
      config: gitLibraryToml({ stateDir, prompts: [{ url: repo.bare, ref: 'main', poll: '1s' }] }),
      env: gitEnv,
      // A cache of its own each, as replicas on separate machines have: they agree through Redis alone.
      envOf: (index) => ({ PROMPTYARD_STATE_DIR: join(stateDir, `replica-${index}`) }),
    });
  }, 300_000);

  afterAll(async () => {
    await cluster?.close();
    await repo?.remove();
    if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
  });

  /** The commit each replica says it serves (its own /health, past nginx). */
  const commits = async (): Promise<(string | undefined)[]> =>
    Promise.all(
      cluster.nodes.map(async (node) => {
        const health = await cluster.health(node.index);
        return (health['git'] as { commit?: string }[] | undefined)?.[0]?.commit;
      }),
    );

  it('ends on the same new commit on both replicas after a push; clients through nginx see the new text only', async () => {
    expect(await commits()).toEqual([first, first]);
    const client = await connectModern(cluster.url);
    try {
      expect(await textOf(client)).toBe('Hello, first\n');

      await repo.commit({ 'greet.md': prompt('Hello, pushed') }, 'pushed');
      const pushed = await repo.push();
      // One client asks through nginx all along: once it was answered from the new commit, never again from the old.
      const answers: string[] = [];
      let moving = true;
      const asking = (async () => {
        while (moving) answers.push(await textOf(client));
      })();
      try {
        await eventually(commits, (served) => served.every((commit) => commit === pushed), 20_000, 'both replicas on the pushed commit');
      } finally {
        moving = false;
        await asking;
      }
      const firstNew = answers.indexOf('Hello, pushed\n');
      expect(answers.slice(firstNew === -1 ? answers.length : firstNew).filter((answer) => answer !== 'Hello, pushed\n')).toEqual([]);
      // Round-robin: consecutive requests reach both replicas, and every one is answered from the new commit.
      for (let index = 0; index < 10; index += 1) expect(await textOf(client)).toBe('Hello, pushed\n');
      const { prompts } = await client.listPrompts();
      expect(prompts.find((entry) => entry.name === 'greet')?._meta?.['dev.promptyard/git']).toMatchObject({ commit: pushed });
    } finally {
      await client.close();
    }
  }, 60_000);
});
