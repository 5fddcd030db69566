import { toolProviderContract } from '@promptyard/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createPerplexitySearchTool } from './perplexity-search.js';
import { startPerplexityFake, startSerperFake } from './test-fakes.js';
import type { FakeService } from './test-fakes.js';
import { createWebSearchTool } from './web-search.js';

const apiKey = 'contract-test-key-0001';
let serper: FakeService;
let perplexity: FakeService;
beforeAll(async () => {
  [serper, perplexity] = await Promise.all([startSerperFake({ apiKey }), startPerplexityFake({ apiKey })]);
});
afterAll(() => Promise.all([serper.close(), perplexity.close()]));

describe('web_search and perplexity_summary_search meet the tool provider contract', () => {
  const checks = toolProviderContract({
    create: () => ({
      tools: [createWebSearchTool({ apiKey, baseUrl: serper.url }), createPerplexitySearchTool({ apiKey, baseUrl: perplexity.url })],
    }),
    calls: [
      {
        name: 'web_search',
        arguments: { query: 'typescript', num: 1 },
        text: /^1\. Result 1 for typescript\n {3}https:\/\/example\.com\/1/,
      },
      {
        name: 'perplexity_summary_search',
        arguments: { query: 'what is mcp' },
        text: /^An answer about what is mcp \[1\]\[2\]\.\n\nSources:\n\[1\] Source 1/,
      },
    ],
    invalid: [
      { name: 'web_search', arguments: {}, text: 'Invalid arguments for tool "web_search": "query" is required.' },
      { name: 'perplexity_summary_search', arguments: { query: 42 }, text: /"query" must be a string/ },
      { name: 'web_search', arguments: { query: 'fake:unauthorized' }, text: /Serper rejected the API key/ },
    ],
    slow: { name: 'web_search', arguments: { query: 'fake:hang' } },
  });
  for (const check of checks) it(check.name, check.run);
});
