import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { delimiter, join } from 'node:path';
import { installFakeCodeweaver } from '../../../packages/resources/src/test-codeweaver.js';
import { llmsText, startFakeDocsSite } from '../../../packages/resources/src/test-fakes.js';
import type { FakeDocsSite } from '../../../packages/resources/src/test-fakes.js';
import { startFakeReader, startFakeSite } from '../../../packages/resources/src/test-web.js';
import type { FakeHost } from '../../../packages/resources/src/test-web.js';
import { promptFiles } from './fixtures.js';
import { cleanup, makeFolder, startStdio } from './harness.js';

let site: FakeDocsSite;

beforeAll(async () => {
  site = await startFakeDocsSite();
});
afterAll(() => site.close());
afterEach(cleanup);

const textOf = (result: { contents: readonly unknown[] }): string => (result.contents[0] as { text?: string } | undefined)?.text ?? '';

describe('doc:// resources', () => {
  it('lists, completes and reads library docs from promptyard.toml, cached on disk across restarts', async () => {
    const dir = await makeFolder({
      ...promptFiles,
      'promptyard.toml': `[resources.doc]\ncache_dir = "cache"\n\n[resources.doc.libraries]\nfakelib = "${site.url}/llms.txt"\n"fakelib/full" = "${site.url}/llms-full.txt"\n`,
    });
    const args = ['--config', join(dir, 'promptyard.toml'), '--prompts', dir, '--no-watch'];
    const { client } = await startStdio(args);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['doc://fakelib', 'doc://anthropic']));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining(['doc://{library}', 'doc://{library}/full']),
    );
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'doc://{library}' },
      argument: { name: 'library', value: 'fake' },
    });
    expect(completion.completion.values).toEqual(['fakelib']);

    expect(textOf(await client.readResource({ uri: 'doc://fakelib' }))).toBe(llmsText(1));
    expect(textOf(await client.readResource({ uri: 'doc://fakelib/full' }))).toContain('Everything, concatenated.');
    await expect(client.readResource({ uri: 'doc://fakelbi' })).rejects.toThrow(/did you mean "doc:\/\/fakelib"/);
    await client.close();

    const requestsBefore = site.requests.length;
    const restarted = await startStdio(args);
    expect(textOf(await restarted.client.readResource({ uri: 'doc://fakelib' }))).toBe(llmsText(1));
    expect(site.requests.length).toBe(requestsBefore);
  });
});

describe('project:// resources', () => {
  it('serves a configured project through codeweaver on PATH, and through the builtin renderer', async () => {
    const dir = await makeFolder({
      ...promptFiles,
      'api/src/main.ts': 'export const answer = 42;\n',
      'api/.gitignore': 'secret.txt\n',
      'api/secret.txt': 'hunter2\n',
      'promptyard.toml': '[resources.project.paths]\napi = "api"\n',
    });
    const bin = join(dir, 'bin');
    await installFakeCodeweaver(bin);
    const args = ['--config', join(dir, 'promptyard.toml'), '--prompts', dir, '--no-watch'];
    const { client } = await startStdio(args, { env: { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` } });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain('project://api');
    const woven = textOf(await client.readResource({ uri: 'project://api' }));
    expect(woven).toMatch(/^# Tree View:/);
    expect(woven).toContain('src/main.ts\n```ts\nexport const answer = 42;');
    await expect(client.readResource({ uri: 'project://apj' })).rejects.toThrow(/did you mean "project:\/\/api"/);
    await client.close();

    const builtin = await startStdio(args, { env: { PROMPTYARD_RESOURCES_PROJECT_COMMAND: 'builtin' } });
    const rendered = textOf(await builtin.client.readResource({ uri: 'project://api' }));
    expect(rendered).toContain('src/main.ts\n```ts\nexport const answer = 42;');
    expect(rendered).not.toContain('hunter2');
  });
});

describe('url: resources', () => {
  let reader: FakeHost;
  let page: FakeHost;
  beforeAll(async () => {
    [reader, page] = await Promise.all([startFakeReader(), startFakeSite()]);
  });
  afterAll(() => Promise.all([reader.close(), page.close()]));

  it('reads a page through the reader (JINA_READER_URL) and, in local mode, fetches and converts it behind the SSRF guard', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { env: { JINA_READER_URL: reader.url } });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('url:{+url}');
    expect(textOf(await client.readResource({ uri: 'url:https://example.com/a' }))).toMatch(
      /^Title: example\.com\n\nURL Source: https:\/\/example\.com\/a/,
    );
    expect(textOf(await client.readResource({ uri: 'url:https://ratelimited.test/' }))).toMatch(/retry after 7 s/);
    await client.close();

    const local = await startStdio(['--prompts', dir, '--no-watch'], {
      env: { PROMPTYARD_URL_MODE: 'local', PROMPTYARD_URL_ALLOW: '127.0.0.1' },
    });
    expect(textOf(await local.client.readResource({ uri: `url:${page.url}/article` }))).toMatch(/\| Service \| Port \|/);
    await expect(local.client.readResource({ uri: 'url:http://169.254.169.254/latest/meta-data/' })).rejects.toThrow(/Refused to fetch/);
  });
});
