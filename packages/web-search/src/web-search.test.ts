import { createLogger } from '@promptyard/core';
import type { ToolResult } from '@promptyard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSerperFake } from './test-fakes.js';
import type { FakeService } from './test-fakes.js';
import { createWebSearchTool } from './web-search.js';

const apiKey = 'serper-secret-key-1234';
let fake: FakeService;
let logs: string[];

beforeEach(async () => {
  fake = await startSerperFake({ apiKey });
  logs = [];
});
afterEach(() => fake.close());

const run = (
  args: Record<string, unknown>,
  options: Partial<Parameters<typeof createWebSearchTool>[0]> = {},
  signal = new AbortController().signal,
): Promise<ToolResult> => {
  const tool = createWebSearchTool({ apiKey, baseUrl: fake.url, ...options });
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  return tool.execute(args, { signal, logger });
};
const text = (result: ToolResult): string => result.content.map((item) => item.text).join('\n');

describe('web_search', () => {
  it('sends the request Serper expects and numbers the organic results', async () => {
    const result = await run({ query: 'typescript', num: 3, country: 'DE', language: 'de', freshness: 'week', page: 2 });
    expect(result.isError).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe('/search');
    expect(request?.headers['x-api-key']).toBe(apiKey);
    expect(request?.body).toEqual({ q: 'typescript', num: 3, gl: 'de', hl: 'de', tbs: 'qdr:w', page: 2 });
    expect(text(result)).toBe(
      [
        '1. Result 4 for typescript\n   https://example.com/4\n   A result about typescript.\n   Mar 4, 2026',
        '2. Result 5 for typescript\n   https://example.com/5\n   A result about typescript.',
        '3. Result 6 for typescript\n   https://example.com/6\n   A result about typescript.\n   Mar 4, 2026',
      ].join('\n\n'),
    );
  });

  it('puts the answer box and knowledge graph first and people also ask last', async () => {
    const output = text(await run({ query: 'fake:rich', num: 1 }));
    expect(output).toMatch(
      /^Answer: Tim Cook\nApple Inc\.\nhttps:\/\/example\.com\/answer\n\nKnowledge graph: Apple \(Technology company\)\n/,
    );
    expect(output).toContain('CEO: Tim Cook (Aug 24, 2011–)');
    expect(output).toMatch(
      /1\. Result 1 for fake:rich[\s\S]*\n\nPeople also ask:\n- Who owns Apple\?\n {2}Apple is publicly traded\.\n {2}https:\/\/example\.com\/paa$/,
    );
  });

  it('answers the empty string when there are no results', async () => {
    expect(await run({ query: 'fake:empty' })).toEqual({ content: [{ type: 'text', text: '' }] });
  });

  it.each([
    ['fake:forbidden', /Serper rejected the API key \(HTTP 403: "Unauthorized\."\): check SERPER_API_KEY/],
    ['fake:unauthorized', /Serper rejected the API key \(HTTP 401/],
    ['fake:credits', /out of credits \(HTTP 400: "Not enough credits"\)/],
    ['fake:rate-limit-always', /rate limiting requests \(HTTP 429.*retry later\. Retry after 120 s/],
    ['fake:error', /Serper had a service error \(HTTP 500/],
    ['fake:unavailable', /service error \(HTTP 503/],
    ['fake:not-json', /Serper answered with something that is not JSON \(HTTP 200, text\/html/],
  ])('turns %s into a readable isError result', async (query, message) => {
    const result = await run({ query });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });

  it('says when Serper cannot be reached', async () => {
    const closed = await startSerperFake({ apiKey });
    await closed.close();
    const result = await run({ query: 'x' }, { baseUrl: closed.url });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(new RegExp(`^Could not reach Serper at ${closed.url}: fetch failed \\(.*ECONNREFUSED.*\\)\\.$`));
  });

  it('reports a wrong key as the real service does', async () => {
    const result = await run({ query: 'x' }, { apiKey: 'wrong-key-5678' });
    expect(text(result)).toMatch(/check SERPER_API_KEY/);
    expect(text(result)).not.toContain('wrong-key-5678');
  });

  it('waits out one Retry-After and then answers', async () => {
    const result = await run({ query: 'fake:rate-limit', num: 1 });
    expect(result.isError).toBeUndefined();
    expect(fake.requests).toHaveLength(2);
    expect(text(result)).toContain('1. Result 1 for fake:rate-limit');
  });

  it('does not wait for a Retry-After longer than the time left', async () => {
    const started = Date.now();
    const result = await run({ query: 'fake:rate-limit' }, { timeoutMs: 500 });
    expect(result.isError).toBe(true);
    expect(Date.now() - started).toBeLessThan(400);
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after its timeout and closes the request', async () => {
    const result = await run({ query: 'fake:hang' }, { timeoutMs: 200 });
    expect(text(result)).toBe('Serper did not answer within 0.2 s: try again, or a simpler query.');
    await fake.waitForAbort();
  });

  it('aborts the HTTP request when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = run({ query: 'fake:hang' }, {}, controller.signal);
    await new Promise<void>((resolve) => {
      const poll = (): void => (fake.requests.length > 0 ? resolve() : void setTimeout(poll, 5));
      poll();
    });
    controller.abort(new Error('cancelled by test'));
    await expect(pending).rejects.toThrow('cancelled by test');
    await fake.waitForAbort();
  });

  it('cuts the output at a result boundary and says so', async () => {
    const output = text(await run({ query: 'fake:many', num: 50 }, { maxOutputBytes: 8000 }));
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(8000);
    const match = /\n\n\[output cut at 8000 bytes: (\d+) of 50 results shown\]$/.exec(output);
    expect(match).not.toBeNull();
    const shown = Number(match?.[1]);
    expect(output).toContain(`${shown}. Result ${shown} for fake:many`);
    expect(output).not.toContain(`${shown + 1}. Result`);
    expect(output.split('\n\n').slice(-2)[0]).toMatch(
      /^\d+\. Result \d+ for fake:many\n {3}https:\S+\n {3}Lorem ipsum[^\n]*\.(\n {3}Mar 4, 2026)?$/,
    );
  });

  it('explains which variable to set when the key is missing, without calling Serper', async () => {
    const result = await run({ query: 'x' }, { apiKey: undefined });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/set SERPER_API_KEY/);
    expect(fake.requests).toHaveLength(0);
  });

  it('never writes the key into logs or messages', async () => {
    const outputs: string[] = [];
    for (const query of ['ok', 'fake:forbidden', 'fake:error', 'fake:not-json', 'fake:rate-limit'])
      outputs.push(text(await run({ query })));
    outputs.push(text(await run({ query: 'fake:hang' }, { timeoutMs: 50 })));
    expect(logs.length).toBeGreaterThan(0);
    expect([...outputs, ...logs].join('\n')).not.toContain(apiKey);
  });
});
