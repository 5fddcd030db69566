import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceProviderContract } from '@promptyard/core/testing';
import type { ContractCheck } from '@promptyard/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createDocProvider } from './doc-provider.js';
import { createProjectProvider } from './project-provider.js';
import { llmsText, startFakeDocsSite } from './test-fakes.js';
import type { FakeDocsSite } from './test-fakes.js';
import { startFakeSite } from './test-web.js';
import type { FakeHost } from './test-web.js';
import { createUrlProvider } from './url-provider.js';

// Started before the checks are collected: their fixtures name the fakes' addresses.
const [site, docs]: [FakeHost, FakeDocsSite] = await Promise.all([startFakeSite(), startFakeDocsSite()]);
const dir = await mkdtemp(join(tmpdir(), 'promptyard-contracts-'));
beforeAll(async () => {
  await mkdir(join(dir, 'api', 'src'), { recursive: true });
  await writeFile(join(dir, 'api', 'src', 'main.ts'), 'export const main = (): number => 42;\n');
});
afterAll(async () => {
  await Promise.all([site.close(), docs.close(), rm(dir, { recursive: true, force: true })]);
});

const run = (checks: readonly ContractCheck[]): void => {
  for (const check of checks) it(check.name, check.run);
};

describe('url: (local mode) meets the resource provider contract', () => {
  run(
    resourceProviderContract({
      // The fake site is on loopback, which the SSRF guard refuses unless allowed.
      create: () =>
        createUrlProvider({
          mode: 'local',
          readerUrl: 'http://unused.invalid',
          allow: ['127.0.0.1'],
          timeoutMs: 5000,
          maxBytes: 1_000_000,
          contentTypes: ['text/'],
          cacheTtlMs: 0,
        }),
      readable: [
        { uri: `url:${site.url}/article`, text: /^# Fake article\n/, mimeType: 'text/markdown' },
        { uri: `url:${site.url}/plain`, text: /just text/ },
      ],
      missing: [`url:${site.url}/no-such-page`],
      slow: `url:${site.url}/hang`,
    }),
  );
});

describe('doc:// meets the resource provider contract', () => {
  run(
    resourceProviderContract({
      create: () =>
        createDocProvider({
          libraries: { fakelib: `${docs.url}/llms.txt`, 'fakelib/full': `${docs.url}/llms-full.txt`, stuck: `${docs.url}/hang/llms.txt` },
          cacheDir: join(dir, 'doc-cache'),
          ttlMs: 0,
          maxBytes: 100_000,
          timeoutMs: 5000,
        }),
      readable: [
        { uri: 'doc://fakelib', text: llmsText(1) },
        { uri: 'doc://fakelib/full', text: /Everything, concatenated/ },
      ],
      missing: ['doc://no-such-library', 'doc://stuck/full'],
      slow: 'doc://stuck',
      completions: [{ uriTemplate: 'doc://{library}', variable: 'library', value: 'fakel', expected: ['fakelib'] }],
    }),
  );
});

describe('project:// (builtin code map) meets the resource provider contract', () => {
  run(
    resourceProviderContract({
      create: () =>
        createProjectProvider({
          paths: { api: join(dir, 'api') },
          command: 'builtin',
          timeoutMs: 5000,
          maxBytes: 100_000,
          maxFileBytes: 10_000,
        }),
      readable: [{ uri: 'project://api', text: /src\/main\.ts[\s\S]*export const main/ }],
      missing: ['project://nope'],
      completions: [{ uriTemplate: 'project://{name}', variable: 'name', value: 'a', expected: ['api'] }],
    }),
  );
});
