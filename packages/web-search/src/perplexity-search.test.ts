import { createLogger } from '@promptyard/core';
import type { ToolResult } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleStream, createPerplexitySearchTool } from './perplexity-search.js';
import { startPerplexityFake } from './test-fakes.js';
import type { FakeService } from './test-fakes.js';

const apiKey = 'pplx-secret-key-1234';
let fake: FakeService;
let logs: string[];

beforeEach(async () => {
  fake = await startPerplexityFake({ apiKey });
  logs = [];
});
afterEach(() => fake.close());

const run = (
  args: Record<string, unknown>,
  options: Partial<Parameters<typeof createPerplexitySearchTool>[0]> = {},
  signal = new AbortController().signal,
): Promise<ToolResult> => {
  const tool = createPerplexitySearchTool({ apiKey, baseUrl: fake.url, ...options });
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  return tool.execute(args, { signal, logger });
};
const text = (result: ToolResult): string => result.content.map((item) => item.text).join('\n');

describe('perplexity_summary_search', () => {
  it('sends a chat completion and lists the sources its markers cite', async () => {
    const result = await run({ query: 'what is mcp', recency: 'month', domains: ['wikipedia.org', '-reddit.com'] });
    const [request] = fake.requests;
    expect(request?.path).toBe('/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.body).toEqual({
      model: 'sonar',
      messages: [{ role: 'user', content: 'what is mcp' }],
      search_recency_filter: 'month',
      search_domain_filter: ['wikipedia.org', '-reddit.com'],
    });
    expect(text(result)).toBe(
      'An answer about what is mcp [1][2].\n\nSources:\n[1] Source 1 — https://example.com/source-1 (2026-01-02)\n[2] Source 2 — https://example.com/source-2 (2026-01-02)',
    );
  });

  it('falls back to citations and strips a reasoning model’s <think> block', async () => {
    expect(text(await run({ query: 'fake:citations-only' }))).toBe(
      'An answer about fake:citations-only [1][2].\n\nSources:\n[1] https://example.com/source-1\n[2] https://example.com/source-2',
    );
    const reasoned = text(await run({ query: 'q', model: 'sonar-reasoning-pro' }));
    expect(reasoned).toMatch(/^An answer about q/);
    expect((fake.requests.at(-1)?.body as { model: string }).model).toBe('sonar-reasoning-pro');
  });

  it('streams deep research and assembles the chunks and the final sources', async () => {
    const result = await run({ query: 'long question', model: 'sonar-deep-research' });
    expect(fake.requests[0]?.body).toEqual({
      model: 'sonar-deep-research',
      messages: [{ role: 'user', content: 'long question' }],
      stream: true,
    });
    expect(fake.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(text(result)).toBe(
      'An answer about long question [1][2].\n\nSources:\n[1] Source 1 — https://example.com/source-1 (2026-01-02)\n[2] Source 2 — https://example.com/source-2 (2026-01-02)',
    );
  });

  it('assembles a stream that ends without sources, and rejects a broken one', () => {
    expect(
      assembleStream('data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":[{"delta":{"content":"b"}}]}\n\ndata: [DONE]\n\n'),
    ).toEqual({
      choices: [{ message: { content: 'ab' } }],
    });
    expect(() => assembleStream('data: {"choices":')).toThrow();
  });

  it('uses the configured default model and answers the empty string for an empty answer', async () => {
    expect(await run({ query: 'fake:empty' }, { defaultModel: 'sonar-pro' })).toEqual({ content: [{ type: 'text', text: '' }] });
    expect((fake.requests[0]?.body as { model: string }).model).toBe('sonar-pro');
  });

  it.each([
    ['fake:unauthorized', /Perplexity rejected the API key \(HTTP 401.*check PERPLEXITY_API_KEY/],
    ['fake:credits', /out of credits/],
    ['fake:rate-limit-always', /rate limiting requests \(HTTP 429/],
    ['fake:error', /Perplexity had a service error \(HTTP 500: "Internal server error"\)/],
    ['fake:not-json', /not JSON/],
  ])('turns %s into a readable isError result', async (query, message) => {
    const result = await run({ query });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });

  it('gives deep research its own, longer timeout', async () => {
    const quick = await run({ query: 'fake:hang' }, { timeoutMs: 100, deepResearchTimeoutMs: 400 });
    expect(text(quick)).toMatch(/within 0\.1 s/);
    const deep = await run({ query: 'fake:hang', model: 'sonar-deep-research' }, { timeoutMs: 100, deepResearchTimeoutMs: 400 });
    expect(text(deep)).toMatch(/within 0\.4 s/);
    expect(createPerplexitySearchTool({ apiKey, deepResearchTimeoutMs: 400_000 }).timeoutMs).toBe(400_000);
  });

  it('cuts the sources at a line with a note', async () => {
    const output = text(await run({ query: 'fake:many' }, { maxOutputBytes: 2000 }));
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(2000);
    expect(output).toMatch(
      /\n\[\d+\] Source \d+ — https:\/\/example\.com\/source-\d+ \(2026-01-02\)\n\n\[output cut at 2000 bytes: \d+ of 40 sources shown\]$/,
    );
  });

  it('explains the missing key and never leaks a key', async () => {
    const missing = await run({ query: 'x' }, { apiKey: '' });
    expect(text(missing)).toMatch(/set PERPLEXITY_API_KEY/);
    const outputs = [
      text(await run({ query: 'ok' })),
      text(await run({ query: 'fake:unauthorized' })),
      text(await run({ query: 'fake:error' })),
    ];
    expect([...outputs, ...logs].join('\n')).not.toContain(apiKey);
  });
});
