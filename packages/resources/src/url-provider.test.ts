import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPromptyardError } from '@promptyard/core';
import type { UrlOptions } from './url-provider.js';
import { createUrlProvider } from './url-provider.js';
import { createAddressCheck } from './ssrf-guard.js';
import { startFakeReader, startFakeSite } from './test-web.js';
import type { FakeHost } from './test-web.js';

let reader: FakeHost;
let site: FakeHost;
const key = 'jina_test_key_0001';

beforeAll(async () => {
  [reader, site] = await Promise.all([startFakeReader({ apiKey: key }), startFakeSite()]);
});
afterAll(() => Promise.all([reader.close(), site.close()]));

const provider = (overrides: Partial<UrlOptions> = {}) =>
  createUrlProvider({
    mode: 'jina',
    readerUrl: reader.url,
    apiKey: key,
    allow: [],
    timeoutMs: 5000,
    maxBytes: 1_000_000,
    contentTypes: ['text/', 'application/xhtml+xml', 'application/json'],
    cacheTtlMs: 60_000,
    ...overrides,
  });

const read = async (uri: string, overrides: Partial<UrlOptions> = {}): Promise<string> => {
  const [first] = await provider(overrides).read(uri);
  return first !== undefined && 'text' in first ? first.text : '';
};

const failure = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
  try {
    await promise;
  } catch (error) {
    if (isPromptyardError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('url: through Jina Reader', () => {
  it("returns the reader's plain text as is, with the bearer key and configured headers", async () => {
    const text = await read('url:https://example.com/docs?page=2', {
      readerHeaders: { 'X-Return-Format': 'markdown', 'X-Timeout': '20', 'X-No-Cache': 'true' },
    });
    expect(text).toBe(
      'Title: example.com\n\nURL Source: https://example.com/docs?page=2\n\nMarkdown Content:\n# example.com\n\nThe page at https://example.com/docs?page=2 (markdown, timeout 20s, no cache).\n',
    );
    expect(reader.requests.at(-1)?.headers).toMatchObject({
      authorization: `Bearer ${key}`,
      'x-return-format': 'markdown',
      'x-no-cache': 'true',
    });
  });

  it("turns the reader's JSON errors and 429 retryAfter into readable content", async () => {
    expect(await read('url:https://ratelimited.test/')).toMatch(
      /HTTP 429, RateLimitTriggeredError\): Per IP rate limit exceeded.*retry after 7 s/s,
    );
    expect(await read('url:https://nocontent.test/')).toMatch(
      /HTTP 422, AssertionFailureError\): AssertionFailureError: No content available/,
    );
    expect(await read('url:https://example.com/', { apiKey: 'wrong' })).toMatch(/HTTP 401.*Check JINA_API_KEY/s);
  });

  it('refuses non-http(s) URLs itself and caches pages for the TTL', async () => {
    expect((await failure(provider().read('url:file:///etc/passwd'))).message).toMatch(/file: scheme/);
    const urls = provider();
    const before = reader.requests.length;
    await urls.read('url:https://cached.example/');
    await urls.read('url:https://cached.example/');
    expect(reader.requests.length).toBe(before + 1);
  });
});

describe('url: in local mode', () => {
  const local = { mode: 'local', allow: ['127.0.0.1'] } as const;

  it('extracts the main content and converts it to Markdown with GFM tables', async () => {
    const text = await read(`url:${site.url}/article`, local);
    expect(text).toMatch(/^# Fake article\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article/);
    expect(text).toContain('Paragraph 1 of a long enough article');
    expect(text).toMatch(/\| Service \| Port \|\n\| --- \| --- \|\n\| reader \| 0 \|/);
    expect(text).toContain('```\nconst x = 1;\n```');
    expect(text).not.toContain('alert(1)');
    expect(text).not.toContain('Copyright nobody');
  });

  it('passes plain text through, refuses other content types, caps bytes and redirect loops', async () => {
    expect(await read(`url:${site.url}/plain`, local)).toBe('just text\n');
    expect((await failure(provider(local).read(`url:${site.url}/image.png`))).message).toMatch(/image\/png, which is not converted/);
    expect(await failure(provider({ ...local, maxBytes: 1000 }).read(`url:${site.url}/big`))).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect((await failure(provider(local).read(`url:${site.url}/loop`))).message).toMatch(/redirects more than 5 times/);
  });
});

describe('the SSRF guard (local mode)', () => {
  const refusedUrls = [
    ['loopback', 'http://127.0.0.1:9/'],
    ['loopback, short form', 'http://127.1/'],
    ['loopback, integer form', 'http://2130706433/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.20.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['link-local / cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT (Alibaba metadata)', 'http://100.100.100.200/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unique-local (AWS metadata)', 'http://[fd00:ec2::254]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped IPv6, hex', 'http://[::ffff:a9fe:a9fe]/'],
    ['NAT64', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['localhost name', 'http://localhost/'],
    ['metadata name', 'http://metadata.google.internal/'],
  ] as const;

  it.each(refusedUrls)('refuses %s (%s)', async (_family, url) => {
    const { code, message } = await failure(provider({ mode: 'local' }).read(`url:${url}`));
    expect(code).toBe('INVALID_ARGUMENT');
    expect(message).toMatch(/^Refused to fetch/);
  });

  it('refuses other schemes and URLs with credentials', async () => {
    expect((await failure(provider({ mode: 'local' }).read('url:ftp://example.com/'))).message).toMatch(/ftp: scheme/);
    expect((await failure(provider({ mode: 'local' }).read('url:http://user:pw@example.com/'))).message).toMatch(/credentials/);
  });

  it('refuses a host name that resolves to a private address, at connect time', async () => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (resolved === undefined || createAddressCheck({ allow: [] }).refusal(resolved.address) === undefined) return;
    const { message } = await failure(provider({ mode: 'local' }).read(`url:http://${name}:${new URL(site.url).port}/article`));
    expect(message).toMatch(/Refused to fetch .*a host name that resolves to a private/);
    expect(site.requests.some((request) => request.headers.host?.startsWith(name) === true)).toBe(false);
  });

  it('re-checks every redirect hop: an allowed page redirecting to a private address is refused', async () => {
    const { message } = await failure(
      provider({ mode: 'local', allow: ['127.0.0.1'] }).read(`url:${site.url}/redirect?to=http://169.254.169.254/latest/meta-data/`),
    );
    expect(message).toMatch(/Refused to fetch http:\/\/169\.254\.169\.254/);
    expect(
      (await failure(provider({ mode: 'local', allow: ['127.0.0.1'] }).read(`url:${site.url}/redirect?to=http://localhost:1/`))).message,
    ).toMatch(/local or metadata host name/);
  });

  it('lets the allow-list (hosts or CIDRs) through', async () => {
    expect((await failure(provider({ mode: 'local' }).read(`url:${site.url}/plain`))).message).toMatch(/^Refused/);
    expect(await read(`url:${site.url}/plain`, { mode: 'local', allow: ['127.0.0.0/8'] })).toBe('just text\n');
    expect(await read(`url:${site.url}/plain`, { mode: 'local', allow: ['127.0.0.1'] })).toBe('just text\n');
  });
});
