import { textResult } from '@promptyard/core';
import type { ToolDefinition, ToolFactory } from '@promptyard/core';
import type { Block } from './format.js';
import { joinWithin } from './format.js';
import { postJson } from './request.js';

export const perplexityModels = ['sonar', 'sonar-pro', 'sonar-reasoning-pro', 'sonar-deep-research'] as const;
export type PerplexityModel = (typeof perplexityModels)[number];

export interface PerplexitySearchOptions {
  /** `PERPLEXITY_API_KEY`; promptyard-server lists the tool only with one, and a call without it explains how to set it. */
  readonly apiKey: string | undefined;
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  /** `sonar-deep-research` runs for minutes: it gets its own, longer limit. */
  readonly deepResearchTimeoutMs?: number;
  readonly defaultModel?: PerplexityModel;
  readonly maxOutputBytes?: number;
  readonly fetch?: typeof fetch;
}

export const perplexityBaseUrl = 'https://api.perplexity.ai';

const recencies = ['hour', 'day', 'week', 'month', 'year'] as const;

interface PerplexityChunk extends PerplexityResponse {
  readonly choices?: readonly { readonly delta?: { readonly content?: string }; readonly message?: { readonly content?: string } }[];
}

/**
 * A streamed completion (`data: {chunk}` lines, then `data: [DONE]`) assembled into the shape of a
 * non-streamed one: deltas concatenated; citations and search results arrive in the last chunks.
 * Throws on a data line that is not JSON.
 */
export const assembleStream = (text: string): PerplexityResponse => {
  let content = '';
  let citations: readonly string[] | undefined;
  let searchResults: PerplexityResponse['search_results'];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    const chunk = JSON.parse(data) as PerplexityChunk;
    content += chunk.choices?.[0]?.delta?.content ?? '';
    if (chunk.citations !== undefined) citations = chunk.citations;
    if (chunk.search_results !== undefined) searchResults = chunk.search_results;
  }
  return {
    choices: [{ message: { content } }],
    ...(citations === undefined ? {} : { citations }),
    ...(searchResults === undefined ? {} : { search_results: searchResults }),
  };
};

interface PerplexityResponse {
  readonly choices?: readonly { readonly message?: { readonly content?: string } }[];
  readonly citations?: readonly string[];
  readonly search_results?: readonly { readonly title?: string; readonly url?: string; readonly date?: string }[];
}

/** The answer, without a reasoning model's `<think>` preamble, then numbered sources for its `[n]` markers. */
export const formatPerplexity = (response: PerplexityResponse, maxBytes: number): string => {
  const answer = (response.choices?.[0]?.message?.content ?? '').replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  if (answer === '') return '';
  const sources =
    response.search_results !== undefined && response.search_results.length > 0
      ? response.search_results.map(
          (result, index) =>
            `[${index + 1}] ${result.title ?? result.url ?? ''}${result.title === undefined || result.url === undefined ? '' : ` — ${result.url}`}${result.date === undefined ? '' : ` (${result.date})`}`,
        )
      : (response.citations ?? []).map((url, index) => `[${index + 1}] ${url}`);
  const blocks: Block[] = [{ text: answer }];
  if (sources.length > 0) {
    blocks.push({ text: 'Sources:' });
    for (const source of sources) blocks.push({ text: source, result: true, tight: true });
  }
  return joinWithin(blocks, maxBytes, 'sources');
};

export const createPerplexitySearchTool: ToolFactory<PerplexitySearchOptions> = (options): ToolDefinition => {
  const baseUrl = (options.baseUrl ?? perplexityBaseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deepResearchTimeoutMs = options.deepResearchTimeoutMs ?? 300_000;
  const defaultModel = options.defaultModel ?? 'sonar';
  const maxOutputBytes = options.maxOutputBytes ?? 40_000;
  const doFetch = options.fetch ?? fetch;
  return {
    name: 'perplexity_summary_search',
    title: 'Perplexity search summary',
    description:
      'Ask Perplexity (Sonar) a question: it searches the web and answers with a summary whose [n] markers cite the numbered sources listed after it. sonar-deep-research takes minutes.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 8192, description: 'The question to research.' },
        model: { type: 'string', enum: perplexityModels, description: `Sonar model (default ${defaultModel}).` },
        recency: { type: 'string', enum: recencies, description: 'Only use sources from the past hour, day, week, month or year.' },
        domains: {
          type: 'array',
          items: { type: 'string', maxLength: 253 },
          maxItems: 20,
          description: 'Domains to search only ("wikipedia.org"), or to exclude with a leading "-" ("-reddit.com").',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Perplexity search summary',
      readOnlyHint: true,
      openWorldHint: true,
      idempotentHint: false,
      destructiveHint: false,
    },
    timeoutMs: Math.max(timeoutMs, deepResearchTimeoutMs),
    execute: async (args, { signal, logger }) => {
      if (options.apiKey === undefined || options.apiKey === '') {
        return textResult(
          'perplexity_summary_search needs a Perplexity API key: set PERPLEXITY_API_KEY in the environment of promptyard-server (create one at https://www.perplexity.ai/settings/api) and restart it.',
          true,
        );
      }
      const model = (args['model'] as PerplexityModel | undefined) ?? defaultModel;
      // Deep research runs for minutes: streamed, the connection is never idle long enough for a
      // proxy to cut it (a non-streamed request can be dropped after ~5 idle minutes).
      const stream = model === 'sonar-deep-research';
      const body: Record<string, unknown> = {
        model,
        messages: [{ role: 'user', content: args['query'] }],
        ...(stream ? { stream: true } : {}),
      };
      if (typeof args['recency'] === 'string') body['search_recency_filter'] = args['recency'];
      if (Array.isArray(args['domains']) && args['domains'].length > 0) body['search_domain_filter'] = args['domains'];
      const outcome = await postJson({
        service: 'Perplexity',
        keyVariable: 'PERPLEXITY_API_KEY',
        apiKey: options.apiKey,
        url: `${baseUrl}/chat/completions`,
        headers: { authorization: `Bearer ${options.apiKey}`, ...(stream ? { accept: 'text/event-stream' } : {}) },
        body,
        ...(stream
          ? {
              decode: (text: string, type: string) =>
                type.startsWith('text/event-stream') ? assembleStream(text) : (JSON.parse(text) as unknown),
            }
          : {}),
        timeoutMs: stream ? deepResearchTimeoutMs : timeoutMs,
        signal,
        logger,
        fetch: doFetch,
      });
      if (!outcome.ok) return textResult(outcome.message, true);
      if (typeof outcome.data !== 'object' || outcome.data === null)
        return textResult('Perplexity answered with JSON that is not a chat completion: try again later.', true);
      return textResult(formatPerplexity(outcome.data as PerplexityResponse, maxOutputBytes));
    },
  };
};
