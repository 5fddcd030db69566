import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connectHttp, makeFolder, startHttp, startStdio } from './harness.js';
import type { Era } from './harness.js';

afterEach(cleanup);

/** A prompt folder with links that escape it (a file and a folder) and one that stays inside. */
const escapingFolder = async (): Promise<{ base: string; dir: string }> => {
  const base = await makeFolder({
    'secret.txt': 'TOP SECRET',
    'outside/theirs.md': 'Outside prompt',
    'prompts/inner/real.md': 'Real prompt',
  });
  const dir = join(base, 'prompts');
  await symlink(join(base, 'secret.txt'), join(dir, 'escape.md'));
  await symlink(join(base, 'outside'), join(dir, 'away'), 'dir');
  await symlink(join(dir, 'inner', 'real.md'), join(dir, 'alias.md'));
  return { base, dir };
};

const names = async (client: Client): Promise<string[]> => (await client.listPrompts()).prompts.map((prompt) => prompt.name).sort();

const failure = async (promise: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('expected the request to fail');
};

describe('symlinks that leave the prompt folder', () => {
  it('are not listed or rendered, with one warning each; a link inside still works', async () => {
    const { dir } = await escapingFolder();
    const { client, stderr } = await startStdio(['--prompts', dir, '--no-watch']);
    expect(await names(client)).toEqual(['alias', 'inner/real']);
    expect((await failure(client.getPrompt({ name: 'escape' }))).code).toBe(-32602);
    expect((await client.getPrompt({ name: 'alias' })).messages[0]?.content).toEqual({ type: 'text', text: 'Real prompt' });
    await stderr.waitFor(/symlink that leads outside the prompt folder.*away/);
    await stderr.waitFor(/symlink that leads outside the prompt folder.*escape\.md/);
    expect(stderr.text).not.toContain('TOP SECRET');
  });

  it('are served with [prompts] follow_external_symlinks = true', async () => {
    const { base, dir } = await escapingFolder();
    const config = join(base, 'promptyard.toml');
    await writeFile(config, `[prompts]\nfolders = ["${dir}"]\nwatch = false\nfollow_external_symlinks = true\n`);
    const { client, stderr } = await startStdio(['--config', config]);
    expect(await names(client)).toEqual(['alias', 'away/theirs', 'escape', 'inner/real']);
    expect((await client.getPrompt({ name: 'escape' })).messages[0]?.content).toEqual({ type: 'text', text: 'TOP SECRET' });
    expect(stderr.text).not.toMatch(/leads outside/);
  });

  it('keep an embedded file out unless allowed (environment variable)', async () => {
    const base = await makeFolder({ 'leak.txt': 'LEAKED', 'prompts/show.md': 'Show\n<!-- resource: leak.txt -->' });
    const dir = join(base, 'prompts');
    await symlink(join(base, 'leak.txt'), join(dir, 'leak.txt'));
    const refused = await startStdio(['--prompts', dir, '--no-watch']);
    expect(JSON.stringify(await refused.client.getPrompt({ name: 'show' }))).not.toContain('LEAKED');
    await refused.stderr.waitFor(/not embedding a file whose symlink leads outside/);
    const allowed = await startStdio(['--prompts', dir, '--no-watch'], { env: { PROMPTYARD_PROMPTS_FOLLOW_EXTERNAL_SYMLINKS: 'true' } });
    expect(JSON.stringify(await allowed.client.getPrompt({ name: 'show' }))).toContain('LEAKED');
  });
});

/** Params a client's types would never let through: sent as raw requests. */
const hostile = [
  { params: { name: 5 }, says: /"name" must be a string, not a number/ },
  { params: { name: 'review', arguments: ['a'] }, says: /"arguments" must be an object/ },
  { params: { name: 'review', arguments: { code: { nested: true } } }, says: /argument "code" must be a string, not an object/ },
];

const expectReadable = async (client: Client): Promise<void> => {
  for (const { params, says } of hostile) {
    const error = await failure(client.request({ method: 'prompts/get', params: params as never }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(says);
    // One sentence, not a dump of the validator's issues.
    expect(error.message).not.toMatch(/[[{]\s*"|\n/);
  }
  const others = [
    { method: 'resources/read', params: { uri: 7 }, says: /^Invalid resources\/read request: "uri" must be a string, not a number\.$/ },
    {
      method: 'tools/call',
      params: { name: ['web_search'] },
      says: /^Invalid tools\/call request: "name" must be a string, not an array\.$/,
    },
    {
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: 5 }, argument: { name: 'code', value: '' } },
      says: /^Invalid completion\/complete request: "ref\./,
    },
  ];
  for (const { method, params, says } of others) {
    expect(await failure(client.request({ method, params } as never))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(says),
    });
  }
};

describe('malformed requests', () => {
  const folder = { 'review.md': 'Review {{ code }}' };
  // A key lists web_search, so tools/call is served (and its malformed request refused); it is never used.
  const env = { SERPER_API_KEY: 'unused-serper-key' };

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`answer -32602 with one sentence over stdio (${era})`, async () => {
      const dir = await makeFolder(folder);
      const pin = era === 'modern' ? { client: { versionNegotiation: { mode: { pin: '2026-07-28' } } } } : {};
      const { client } = await startStdio(['--prompts', dir, '--no-watch'], { ...pin, env } as never);
      expect(client.getProtocolEra()).toBe(era);
      await expectReadable(client);
    });
  }

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`answer -32602 with one sentence over HTTP (${era})`, async () => {
      const dir = await makeFolder(folder);
      const server = await startHttp(['--prompts', dir, '--no-watch'], { env });
      const client = await connectHttp(server.url, { era });
      expect(client.getProtocolEra()).toBe(era);
      await expectReadable(client);
    });
  }
});
