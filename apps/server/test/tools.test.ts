import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPerplexityFake, startSerperFake } from '../../../packages/web-search/src/test-fakes.js';
import type { FakeService } from '../../../packages/web-search/src/test-fakes.js';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, runCli, startHttp, startStdio } from './harness.js';
import type { Era } from './harness.js';

const serperKey = 'serper-e2e-secret-0001';
const perplexityKey = 'pplx-e2e-secret-0002';
let serper: FakeService;
let perplexity: FakeService;

beforeEach(async () => {
  [serper, perplexity] = await Promise.all([startSerperFake({ apiKey: serperKey }), startPerplexityFake({ apiKey: perplexityKey })]);
});
afterEach(async () => {
  await cleanup();
  await Promise.all([serper.close(), perplexity.close()]);
});

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  SERPER_API_KEY: serperKey,
  PERPLEXITY_API_KEY: perplexityKey,
  SERPER_BASE_URL: serper.url,
  PERPLEXITY_BASE_URL: perplexity.url,
  ...extra,
});

const start = async (extra: Record<string, string> = {}, withKeys = true) => {
  const dir = await makeFolder(promptFiles);
  const environment = withKeys ? env(extra) : { SERPER_BASE_URL: serper.url, PERPLEXITY_BASE_URL: perplexity.url, ...extra };
  return startStdio(['--prompts', dir, '--no-watch'], { env: environment });
};

type Result = { content: unknown; isError?: boolean | undefined };
const text = (result: Result): string => (result.content as { type: string; text: string }[]).map((item) => item.text).join('\n');

describe('search tools through promptyard-server', () => {
  it('lists both tools with JSON Schemas and read-only, open-world annotations', async () => {
    const { client } = await start();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['perplexity_summary_search', 'web_search']);
    const web = tools.find((tool) => tool.name === 'web_search');
    expect(web?.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: { type: 'string' },
        num: { type: 'integer', minimum: 1, maximum: 100 },
        freshness: { type: 'string', enum: ['hour', 'day', 'week', 'month', 'year'] },
        page: { type: 'integer' },
        country: { type: 'string' },
        language: { type: 'string' },
      },
    });
    expect(web?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    const ask = tools.find((tool) => tool.name === 'perplexity_summary_search');
    expect(ask?.inputSchema.properties).toMatchObject({
      model: { enum: ['sonar', 'sonar-pro', 'sonar-reasoning-pro', 'sonar-deep-research'] },
      domains: { type: 'array', items: { type: 'string' } },
    });
    expect(ask?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it('answers web_search with numbered results from exactly the request Serper expects', async () => {
    const { client } = await start();
    const result = await client.callTool({
      name: 'web_search',
      arguments: { query: 'fake:rich', num: 2, country: 'us', language: 'en', freshness: 'day' },
    });
    expect(result.isError).toBeFalsy();
    expect(serper.requests).toHaveLength(1);
    expect(serper.requests[0]).toMatchObject({
      method: 'POST',
      path: '/search',
      headers: { 'x-api-key': serperKey, 'content-type': 'application/json' },
    });
    expect(serper.requests[0]?.body).toEqual({ q: 'fake:rich', num: 2, gl: 'us', hl: 'en', tbs: 'qdr:d' });
    const output = text(result);
    expect(output).toMatch(/^Answer: Tim Cook\n/);
    expect(output).toContain('Knowledge graph: Apple (Technology company)');
    expect(output).toContain('1. Result 1 for fake:rich\n   https://example.com/1\n   A result about fake:rich.');
    expect(output).toContain('2. Result 2 for fake:rich');
    expect(output).toMatch(/People also ask:\n- Who owns Apple\?/);
  });

  it('answers perplexity_summary_search with the answer and the sources its markers cite', async () => {
    const { client } = await start({ PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_MODEL: 'sonar-pro' });
    const result = await client.callTool({
      name: 'perplexity_summary_search',
      arguments: { query: 'what is mcp', recency: 'week', domains: ['modelcontextprotocol.io'] },
    });
    expect(perplexity.requests[0]).toMatchObject({ path: '/chat/completions', headers: { authorization: `Bearer ${perplexityKey}` } });
    expect(perplexity.requests[0]?.body).toEqual({
      model: 'sonar-pro',
      messages: [{ role: 'user', content: 'what is mcp' }],
      search_recency_filter: 'week',
      search_domain_filter: ['modelcontextprotocol.io'],
    });
    expect(text(result)).toBe(
      'An answer about what is mcp [1][2].\n\nSources:\n[1] Source 1 — https://example.com/source-1 (2026-01-02)\n[2] Source 2 — https://example.com/source-2 (2026-01-02)',
    );
    const cited = await client.callTool({
      name: 'perplexity_summary_search',
      arguments: { query: 'fake:citations-only', model: 'sonar-reasoning-pro' },
    });
    expect(text(cited)).toBe(
      'An answer about fake:citations-only [1][2].\n\nSources:\n[1] https://example.com/source-1\n[2] https://example.com/source-2',
    );
    const deep = await client.callTool({ name: 'perplexity_summary_search', arguments: { query: 'deep', model: 'sonar-deep-research' } });
    expect((perplexity.requests.at(-1)?.body as { stream?: boolean }).stream).toBe(true);
    expect(text(deep)).toMatch(/^An answer about deep \[1\]\[2\]\.\n\nSources:\n\[1\] Source 1/);
  });

  it('answers the empty string when there are no results', async () => {
    const { client } = await start();
    for (const name of ['web_search', 'perplexity_summary_search']) {
      const result = await client.callTool({ name, arguments: { query: 'fake:empty' } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: '' }] });
      expect(result.isError).toBeFalsy();
    }
  });

  it('turns every upstream failure into a readable isError result and keeps serving', async () => {
    const { client, stderr } = await start({
      PROMPTYARD_SERVER_LOG_LEVEL: 'debug',
      PROMPTYARD_TOOLS_WEB_SEARCH_TIMEOUT_MS: '300',
      PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_TIMEOUT_MS: '300',
    });
    const cases: [string, string, RegExp][] = [
      ['web_search', 'fake:forbidden', /^Serper rejected the API key \(HTTP 403: "Unauthorized\."\): check SERPER_API_KEY\.$/],
      ['web_search', 'fake:unauthorized', /^Serper rejected the API key \(HTTP 401.*check SERPER_API_KEY/],
      ['web_search', 'fake:credits', /^Serper says the account is out of credits \(HTTP 400: "Not enough credits"\)/],
      ['web_search', 'fake:rate-limit-always', /^Serper is rate limiting requests \(HTTP 429.*Retry after 120 s\.$/],
      ['web_search', 'fake:error', /^Serper had a service error \(HTTP 500.*try again later\.$/],
      ['web_search', 'fake:unavailable', /^Serper had a service error \(HTTP 503/],
      ['web_search', 'fake:not-json', /^Serper answered with something that is not JSON/],
      ['web_search', 'fake:hang', /^Serper did not answer within 0\.3 s/],
      [
        'perplexity_summary_search',
        'fake:unauthorized',
        /^Perplexity rejected the API key \(HTTP 401: "[^"]+"\): check PERPLEXITY_API_KEY\.$/,
      ],
      ['perplexity_summary_search', 'fake:credits', /^Perplexity says the account is out of credits/],
      ['perplexity_summary_search', 'fake:rate-limit-always', /^Perplexity is rate limiting requests \(HTTP 429/],
      ['perplexity_summary_search', 'fake:error', /^Perplexity had a service error \(HTTP 500/],
      ['perplexity_summary_search', 'fake:not-json', /^Perplexity answered with something that is not JSON/],
      ['perplexity_summary_search', 'fake:hang', /^Perplexity did not answer within 0\.3 s/],
    ];
    const outputs: string[] = [];
    for (const [name, query, message] of cases) {
      const result = await client.callTool({ name, arguments: { query } });
      expect(result.isError, `${name} ${query}`).toBe(true);
      expect(text(result), `${name} ${query}`).toMatch(message);
      outputs.push(text(result));
    }
    const ok = await client.callTool({ name: 'web_search', arguments: { query: 'still works', num: 1 } });
    expect(text(ok)).toContain('1. Result 1 for still works');
    await stderr.waitFor(/tools\/call tool=web_search args="query:11,num:1" outcome=ok/);
    // Keys stay out of every message and log line; queries are logged by length only.
    expect([...outputs, stderr.text].join('\n')).not.toMatch(new RegExp(`${serperKey}|${perplexityKey}|fake:forbidden`));
  });

  it('waits out one Retry-After and then answers', async () => {
    const { client } = await start();
    const result = await client.callTool({ name: 'web_search', arguments: { query: 'fake:rate-limit', num: 1 } });
    expect(text(result)).toContain('1. Result 1 for fake:rate-limit');
    expect(serper.requests).toHaveLength(2);
  });

  it('aborts the HTTP request when the client cancels the call', async () => {
    const { client } = await start();
    for (const [name, fake] of [
      ['web_search', serper],
      ['perplexity_summary_search', perplexity],
    ] as const) {
      const controller = new AbortController();
      const call = client.callTool({ name, arguments: { query: 'fake:hang' } }, { signal: controller.signal });
      const seen = new Promise<void>((resolve) => {
        const poll = (): void => (fake.requests.length > 0 ? resolve() : void setTimeout(poll, 10));
        poll();
      });
      await seen;
      controller.abort();
      await expect(call).rejects.toThrow();
      await fake.waitForAbort();
      expect(fake.aborted).toBe(1);
    }
    // The connection is still usable afterwards.
    expect(text(await client.callTool({ name: 'web_search', arguments: { query: 'after', num: 1 } }))).toContain('Result 1 for after');
  });

  it('cuts large outputs at a result boundary with a note', async () => {
    const { client } = await start({
      PROMPTYARD_TOOLS_WEB_SEARCH_MAX_OUTPUT_BYTES: '4000',
      PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_MAX_OUTPUT_BYTES: '1500',
    });
    const web = text(await client.callTool({ name: 'web_search', arguments: { query: 'fake:many', num: 30 } }));
    expect(Buffer.byteLength(web)).toBeLessThanOrEqual(4000);
    expect(web).toMatch(/\n {3}Lorem ipsum[^\n]*\.(\n {3}Mar 4, 2026)?\n\n\[output cut at 4000 bytes: \d+ of 30 results shown\]$/);
    const ask = text(await client.callTool({ name: 'perplexity_summary_search', arguments: { query: 'fake:many' } }));
    expect(Buffer.byteLength(ask)).toBeLessThanOrEqual(1500);
    expect(ask).toMatch(/\(2026-01-02\)\n\n\[output cut at 1500 bytes: \d+ of 40 sources shown\]$/);
  });

  it('lists neither tool without its key, and says at start and in /health which variable enables each', async () => {
    const { client, stderr } = await start({}, false);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('web_search');
    expect(names).not.toContain('perplexity_summary_search');
    // Not served: a call is refused (see "hidden search tools" below) and reaches no service.
    await expect(client.callTool({ name: 'web_search', arguments: { query: 'x' } })).rejects.toThrow(/SERPER_API_KEY/);
    const line = (await stderr.waitFor(/INFO[^\n]*tools not listed until configured[^\n]*/))[0];
    expect(line).toMatch(/web_search="no Serper API key: set SERPER_API_KEY in the environment/);
    expect(line).toMatch(/perplexity_summary_search="no Perplexity API key: set PERPLEXITY_API_KEY in the environment/);
    // No start-up notice about them any more: one informational line says it all.
    expect(stderr.text).not.toMatch(/NOTICE[^\n]*(SERPER|PERPLEXITY)/);
    expect(stderr.text).not.toMatch(/has no API key/);
    expect(serper.requests).toHaveLength(0);
    expect(perplexity.requests).toHaveLength(0);
  });

  it('lists each tool once its own key is set', async () => {
    const { client } = await start({ SERPER_API_KEY: serperKey }, false);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['web_search']);
  });

  it('says in /health which tools are hidden and what enables them', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startHttp(['--prompts', dir, '--no-watch'], { env: { PERPLEXITY_API_KEY: perplexityKey } });
    const health = (await (await fetch(new URL('/health', server.url))).json()) as Record<string, unknown>;
    expect(health['hiddenTools']).toEqual([
      {
        tool: 'web_search',
        reason: 'no Serper API key',
        enable: 'set SERPER_API_KEY in the environment (or [tools.web_search] enabled = false to stop mentioning it)',
      },
    ]);
  });

  it('answers invalid arguments with isError and an unknown tool with -32602', async () => {
    const { client } = await start();
    const invalid = await client.callTool({ name: 'web_search', arguments: { query: '', num: 500, freshness: 'decade', site: 'x' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe(
      'Invalid arguments for tool "web_search": "query" must not be empty; "num" must be from 1 to 100; "freshness" must be one of "hour", "day", "week", "month" or "year"; "site" is not an argument of this tool.',
    );
    expect(serper.requests).toHaveLength(0);
    const error = await client
      .callTool({ name: 'web_serch', arguments: { query: 'x' } })
      .catch((caught: unknown) => caught as { code: number; message: string });
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool "web_serch"\. Did you mean "web_search"\?/) });
  });

  it('refuses to start with a base URL that is not http(s)', async () => {
    const dir = await makeFolder(promptFiles);
    const result = await runCli(['--prompts', dir], { env: { SERPER_BASE_URL: 'ftp://example.com' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /\[tools\.web_search\] base_url must be an http\(s\) URL, got "ftp:\/\/example\.com": fix it in promptyard\.toml or SERPER_BASE_URL/,
    );
  });

  it('can disable a tool in the config', async () => {
    const { client } = await start({ PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_ENABLED: 'false' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['web_search']);
  });

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`serves the tools over Streamable HTTP (${era})`, async () => {
      const dir = await makeFolder(promptFiles);
      const server = await startHttp(['--prompts', dir, '--no-watch'], { env: env() });
      const client = await connectHttp(server.url, { era });
      expect((await client.listTools()).tools).toHaveLength(2);
      const result = await client.callTool({ name: 'web_search', arguments: { query: 'over http', num: 1 } });
      expect(text(result)).toBe('1. Result 1 for over http\n   https://example.com/1\n   A result about over http.');
      const health = await fetch(new URL('/health', server.url));
      expect(await health.json()).toMatchObject({ tools: 2 });
    });
  }
});

/** A refused call's JSON-RPC error. */
const refusal = (client: Client, name: string): Promise<{ code: number; message: string; data?: unknown }> =>
  client.callTool({ name, arguments: { query: 'x' } }).then(
    () => ({ code: 0, message: `${name} answered` }),
    (caught: unknown) => caught as { code: number; message: string; data?: unknown },
  );

const webHidden = {
  code: -32602,
  message: expect.stringContaining(
    'web_search is not enabled: set SERPER_API_KEY (a Serper API key) in the environment of promptyard-server and restart it to list it.',
  ),
  data: { code: 'TOOL_NOT_FOUND', name: 'web_search', setting: 'SERPER_API_KEY' },
};

describe('hidden search tools', () => {
  const pins = { '2025-11-25': {}, '2026-07-28': { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } };

  for (const [revision, client] of Object.entries(pins)) {
    it(`over stdio at ${revision}, with nothing else listed, name the setting that enables each`, async () => {
      const dir = await makeFolder(promptFiles);
      const server = await startStdio(['--prompts', dir, '--no-watch'], { env: { SERPER_BASE_URL: serper.url }, client });
      expect(server.client.getServerCapabilities()?.tools).toBeDefined();
      expect((await server.client.listTools()).tools).toEqual([]);
      expect(await refusal(server.client, 'web_search')).toMatchObject(webHidden);
      expect(await refusal(server.client, 'perplexity_summary_search')).toMatchObject({
        code: -32602,
        message: expect.stringContaining('perplexity_summary_search is not enabled: set PERPLEXITY_API_KEY (a Perplexity API key)'),
        data: { setting: 'PERPLEXITY_API_KEY' },
      });
      // A truly unknown name is answered as before.
      expect(await refusal(server.client, 'web_serch')).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Unknown tool "web_serch"'),
      });
      expect(serper.requests).toHaveLength(0);
    });
  }

  for (const era of ['legacy', 'modern'] as Era[]) {
    it(`over Streamable HTTP (${era}), beside listed tools, name the setting that enables the hidden one`, async () => {
      const dir = await makeFolder(promptFiles);
      const server = await startHttp(['--prompts', dir, '--no-watch'], {
        env: { PERPLEXITY_API_KEY: perplexityKey, PERPLEXITY_BASE_URL: perplexity.url, PROMPTYARD_FALLBACK_TOOLS: 'true' },
      });
      const client = await connectHttp(server.url, { era });
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('perplexity_summary_search');
      expect(names).toContain('get_prompt');
      expect(names).not.toContain('web_search');
      expect(await refusal(client, 'web_search')).toMatchObject(webHidden);
      expect(await refusal(client, 'web_serch')).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Unknown tool "web_serch"'),
      });
    });
  }

  it('answers a tool turned off in the config as unknown: nothing to enable', async () => {
    const dir = await makeFolder(promptFiles);
    const server = await startStdio(['--prompts', dir, '--no-watch'], {
      env: { PROMPTYARD_TOOLS_WEB_SEARCH_ENABLED: 'false', PERPLEXITY_API_KEY: perplexityKey, PERPLEXITY_BASE_URL: perplexity.url },
    });
    const error = await refusal(server.client, 'web_search');
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool "web_search"') });
    expect(error.message).not.toContain('SERPER_API_KEY');
  });
});
