import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, startStdio } from './harness.js';

/**
 * The packages as users install them: packed tarballs installed with npm outside the workspace, the
 * server in one folder and a provider with its own copy of @promptyard/core in another, as `npx` or
 * a global install leaves them. Nothing here is symlinked to the workspace.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverPackages = [
  'core',
  'auth',
  'mcp',
  'templates',
  'search-index',
  'prompts',
  'git-library',
  'resources',
  'web-search',
  'telemetry',
  'cluster',
  'host',
  'client-config',
];

/** pnpm packs (rewriting `workspace:` and `catalog:` ranges): the one running the tests, else npx. */
const pnpm = (): [string, string[]] => {
  const execPath = process.env['npm_execpath'];
  return execPath !== undefined && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['npx', ['-y', 'pnpm@10']];
};

const pack = async (folder: string, destination: string): Promise<string> => {
  const [command, prefix] = pnpm();
  const { stdout } = await run(command, [...prefix, 'pack', '--pack-destination', destination], {
    cwd: join(root, folder),
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = stdout.trim().split('\n').at(-1) ?? '';
  expect(tarball).toMatch(/\.tgz$/);
  return tarball;
};

/** `npm install` of tarballs into a fresh folder; overrides keep every @promptyard/* edge on a tarball. */
const install = async (folder: string, tarballs: Readonly<Record<string, string>>): Promise<void> => {
  const specs = Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]));
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'packed-test', private: true, dependencies: specs, overrides: specs }, null, 2),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: folder,
    maxBuffer: 16 * 1024 * 1024,
  });
};

let work: string;
let serverDir: string;
let providerDir: string;

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'promptyard-packed-')));
  const tarballs = join(work, 'tarballs');
  const packed: Record<string, string> = {};
  for (const name of serverPackages) packed[`@promptyard/${name}`] = await pack(`packages/${name}`, tarballs);
  packed['@promptyard/server'] = await pack('apps/server', tarballs);
  const notes = await pack('packages/provider-notes', tarballs);
  serverDir = join(work, 'server');
  providerDir = join(work, 'provider');
  await run('mkdir', ['-p', serverDir, providerDir]);
  await Promise.all([
    install(serverDir, packed),
    // The provider's folder gets its own @promptyard/core: a second copy, as npx leaves it.
    install(providerDir, { '@promptyard/provider-notes': notes, '@promptyard/core': packed['@promptyard/core'] as string }),
  ]);
  await writeFile(
    join(providerDir, 'promptyard.toml'),
    [
      '[discovery]',
      'enabled = false',
      '',
      '[[providers]]',
      'package = "@promptyard/provider-notes"',
      'options = { welcome = "# Welcome, {{ name }}\\n\\nStart with the standup note.", standup = "Deploys happen on Friday." }',
      '',
    ].join('\n'),
  );
}, 300_000);
afterEach(cleanup);
afterAll(() => rm(work, { recursive: true, force: true }));

const start = () =>
  startStdio(['--config', join(providerDir, 'promptyard.toml'), '--no-watch'], {
    cli: join(serverDir, 'node_modules', '@promptyard', 'server', 'dist', 'cli.js'),
    cwd: serverDir,
    env: { HOME: work },
  });

describe('packed packages, installed with npm', () => {
  it("keeps two copies of @promptyard/core apart: the server's and the provider's", async () => {
    const [own, providers] = await Promise.all([
      realpath(join(serverDir, 'node_modules', '@promptyard', 'core')),
      realpath(join(providerDir, 'node_modules', '@promptyard', 'core')),
    ]);
    expect(own).not.toBe(providers);
    await expect(realpath(join(providerDir, 'node_modules', '@promptyard', 'mcp'))).rejects.toThrow();
  });

  it('reads note://welcome, and a missing note reaches the client as invalid params naming it', async () => {
    const { client } = await start();
    expect((await client.readResource({ uri: 'note://welcome' })).contents).toEqual([
      { uri: 'note://welcome', mimeType: 'text/markdown', text: '# Welcome, {{ name }}\n\nStart with the standup note.' },
    ]);
    await expect(client.readResource({ uri: 'note://missing' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('No note "missing"'),
      data: { code: 'RESOURCE_NOT_FOUND', uri: 'note://missing' },
    });
  });

  it("serves the provider's tool, answering unknown input with a clear error", async () => {
    const { client } = await start();
    expect(await client.callTool({ name: 'search_notes', arguments: { query: 'friday' } })).toEqual({
      content: [{ type: 'text', text: 'standup: Deploys happen on Friday.' }],
    });
    expect(await client.callTool({ name: 'search_notes', arguments: { question: 'friday' } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool "search_notes": "query" is required; "question" is not an argument of this tool.',
        },
      ],
      isError: true,
    });
  });

  it("lists and renders the provider's prompts", async () => {
    const { client } = await start();
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['note:standup', 'note:welcome']);
    expect(await client.getPrompt({ name: 'note:welcome', arguments: { name: 'Ada' } })).toEqual({
      description: 'Welcome, {{ name }}',
      messages: [{ role: 'user', content: { type: 'text', text: '# Welcome, Ada\n\nStart with the standup note.' } }],
    });
  });
});
