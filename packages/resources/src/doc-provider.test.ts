import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isPromptyardError } from '@promptyard/core';
import type { DocOptions } from './doc-provider.js';
import { createDocProvider } from './doc-provider.js';
import { llmsText, startFakeDocsSite } from './test-fakes.js';
import type { FakeDocsSite } from './test-fakes.js';

let site: FakeDocsSite;
let cacheDir: string;

beforeAll(async () => {
  site = await startFakeDocsSite({ hugeBytes: 300_000 });
});
afterAll(() => site.close());
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'promptyard-doc-'));
  site.requests.length = 0;
  site.setVersion(1);
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const provider = (overrides: Partial<DocOptions> = {}) =>
  createDocProvider({
    libraries: {
      fakelib: `${site.url}/llms.txt`,
      'fakelib/full': `${site.url}/llms-full.txt`,
      broken: `${site.url}/soft-404/llms.txt`,
      huge: `${site.url}/huge/llms.txt`,
      down: `${site.url}/down/llms.txt`,
      svelte: `${site.url}/llms.txt`,
    },
    cacheDir,
    ttlMs: 60_000,
    maxBytes: 100_000,
    timeoutMs: 5000,
    ...overrides,
  });

const text = async (promise: Promise<readonly { readonly uri: string }[]>): Promise<string> => {
  const [first] = await promise;
  return first !== undefined && 'text' in first ? (first as { text: string }).text : '';
};

const failure = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
  try {
    await promise;
  } catch (error) {
    if (isPromptyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
};

describe('doc://{library}', () => {
  it('serves a configured llms.txt and its llms-full.txt', async () => {
    const docs = provider();
    expect(await text(docs.read('doc://fakelib'))).toBe(llmsText(1));
    expect(await text(docs.read('doc://fakelib/full'))).toContain('Everything, concatenated.');
  });

  it('lists built-in and configured libraries, config overriding the built-in URL, and completes names', async () => {
    const docs = provider();
    const names = docs.list().map((resource) => resource.uri);
    expect(names).toEqual(expect.arrayContaining(['doc://fakelib', 'doc://anthropic', 'doc://nextjs']));
    expect(await text(docs.read('doc://svelte'))).toBe(llmsText(1));
    expect(await docs.complete?.('doc://{library}', 'library', 'fake')).toEqual(['fakelib']);
    expect(await docs.complete?.('doc://{library}/full', 'library', 'a')).toEqual(['anthropic']);
    expect(docs.templates().map((template) => template.uriTemplate)).toEqual(['doc://{library}', 'doc://{library}/full']);
  });

  it('names the closest known libraries for an unknown one', async () => {
    const { code, message } = await failure(provider().read('doc://fakelbi'));
    expect(code).toBe('RESOURCE_NOT_FOUND');
    expect(message).toContain('doc://fakelib');
    expect(message).toContain('[resources.doc.libraries]');
  });

  it('serves from cache within the TTL, then revalidates with If-None-Match and keeps the body on 304', async () => {
    let docs = provider();
    await docs.read('doc://fakelib');
    await docs.read('doc://fakelib');
    expect(site.requests).toHaveLength(1);
    docs = provider({ ttlMs: 0 });
    expect(await text(docs.read('doc://fakelib'))).toBe(llmsText(1));
    expect(site.requests[1]).toMatchObject({ status: 304, headers: { 'if-none-match': '"v1"' } });
    site.setVersion(2);
    expect(await text(docs.read('doc://fakelib'))).toBe(llmsText(2));
    expect(site.requests[2]?.status).toBe(200);
  });

  it('keeps its cache on disk across restarts', async () => {
    await provider().read('doc://fakelib');
    await site.close().catch(() => {});
    const restarted = provider();
    expect(await text(restarted.read('doc://fakelib'))).toBe(llmsText(1));
    site = await startFakeDocsSite({ hugeBytes: 300_000 });
  });

  it('refuses an HTML page, a file over the cap and a failing site, with what to fix', async () => {
    const docs = provider();
    expect((await failure(docs.read('doc://broken'))).message).toMatch(/HTML page.*\[resources\.doc\.libraries\]/);
    expect(await failure(docs.read('doc://huge'))).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect((await failure(docs.read('doc://down'))).message).toContain('HTTP 503');
    expect((await failure(docs.read('doc://down/full'))).message).toContain('No llms-full.txt');
  });
});
