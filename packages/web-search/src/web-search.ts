import { textResult } from '@promptyard/core';
import type { ToolDefinition, ToolFactory } from '@promptyard/core';
import type { Block } from './format.js';
import { joinWithin } from './format.js';
import { postJson } from './request.js';

export interface WebSearchOptions {
  /** `SERPER_API_KEY`; promptyard-server lists the tool only with one, and a call without it explains how to set it. */
  readonly apiKey: string | undefined;
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  /** Organic results asked for when the call does not say. */
  readonly defaultResults?: number;
  readonly maxOutputBytes?: number;
  readonly fetch?: typeof fetch;
}

export const serperBaseUrl = 'https://google.serper.dev';

const freshness = { hour: 'qdr:h', day: 'qdr:d', week: 'qdr:w', month: 'qdr:m', year: 'qdr:y' } as const;

interface SerperOrganic {
  readonly title?: string;
  readonly link?: string;
  readonly snippet?: string;
  readonly date?: string;
}

interface SerperResponse {
  readonly answerBox?: {
    readonly title?: string;
    readonly answer?: string;
    readonly snippet?: string;
    readonly snippetHighlighted?: readonly string[];
    readonly link?: string;
  };
  readonly knowledgeGraph?: {
    readonly title?: string;
    readonly type?: string;
    readonly description?: string;
    readonly website?: string;
    readonly attributes?: Readonly<Record<string, string>>;
  };
  readonly organic?: readonly SerperOrganic[];
  readonly peopleAlsoAsk?: readonly { readonly question?: string; readonly snippet?: string; readonly link?: string }[];
}

const lines = (...parts: readonly (string | undefined)[]): string => parts.filter((part) => part !== undefined && part !== '').join('\n');

/** Serper's JSON → plain text: answer box, knowledge graph, numbered organic results, people also ask. */
export const formatSerper = (response: SerperResponse, maxBytes: number): string => {
  const blocks: Block[] = [];
  const box = response.answerBox;
  if (box !== undefined) {
    const answer = box.answer ?? box.snippet ?? box.snippetHighlighted?.join(' ');
    if (answer !== undefined && answer !== '') blocks.push({ text: lines(`Answer: ${answer}`, box.title, box.link) });
  }
  const graph = response.knowledgeGraph;
  if (graph?.title !== undefined) {
    const attributes = Object.entries(graph.attributes ?? {}).map(([key, value]) => `${key}: ${value}`);
    blocks.push({
      text: lines(
        `Knowledge graph: ${graph.title}${graph.type === undefined ? '' : ` (${graph.type})`}`,
        graph.description,
        ...attributes,
        graph.website,
      ),
    });
  }
  const organic = response.organic ?? [];
  organic.forEach((result, index) => {
    blocks.push({
      text: lines(
        `${index + 1}. ${result.title ?? '(untitled)'}`,
        result.link && `   ${result.link}`,
        result.snippet && `   ${result.snippet}`,
        result.date && `   ${result.date}`,
      ),
      result: true,
    });
  });
  const questions = (response.peopleAlsoAsk ?? []).filter((item) => item.question !== undefined);
  if (questions.length > 0) {
    blocks.push({
      text: lines(
        'People also ask:',
        ...questions.map((item) =>
          lines(`- ${item.question as string}`, item.snippet && `  ${item.snippet}`, item.link && `  ${item.link}`),
        ),
      ),
    });
  }
  return joinWithin(blocks, maxBytes);
};

export const createWebSearchTool: ToolFactory<WebSearchOptions> = (options): ToolDefinition => {
  const baseUrl = (options.baseUrl ?? serperBaseUrl).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxOutputBytes = options.maxOutputBytes ?? 40_000;
  const doFetch = options.fetch ?? fetch;
  return {
    name: 'web_search',
    title: 'Web search',
    description:
      'Search the web with Google (through Serper). Returns the answer box and knowledge graph when present, then numbered results with title, link, snippet and date, then related questions. Use search operators in the query (site:, filetype:, "exact", -term).',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 2048, description: 'What to search for.' },
        num: { type: 'integer', minimum: 1, maximum: 100, description: `How many results (default ${options.defaultResults ?? 10}).` },
        country: {
          type: 'string',
          minLength: 2,
          maxLength: 2,
          description: 'Two-letter country code results are localised for, e.g. "us", "de" (Google gl).',
        },
        language: { type: 'string', minLength: 2, maxLength: 8, description: 'Interface language code, e.g. "en", "pt-br" (Google hl).' },
        freshness: {
          type: 'string',
          enum: Object.keys(freshness),
          description: 'Only results from the past hour, day, week, month or year.',
        },
        page: { type: 'integer', minimum: 1, maximum: 100, description: 'Result page, from 1.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { title: 'Web search', readOnlyHint: true, openWorldHint: true, idempotentHint: true, destructiveHint: false },
    timeoutMs,
    execute: async (args, { signal, logger }) => {
      if (options.apiKey === undefined || options.apiKey === '') {
        return textResult(
          'web_search needs a Serper API key: set SERPER_API_KEY in the environment of promptyard-server (get a key at https://serper.dev) and restart it.',
          true,
        );
      }
      const body: Record<string, unknown> = { q: args['query'], num: args['num'] ?? options.defaultResults ?? 10 };
      if (typeof args['country'] === 'string') body['gl'] = args['country'].toLowerCase();
      if (typeof args['language'] === 'string') body['hl'] = args['language'].toLowerCase();
      if (typeof args['freshness'] === 'string') body['tbs'] = freshness[args['freshness'] as keyof typeof freshness];
      if (args['page'] !== undefined) body['page'] = args['page'];
      const outcome = await postJson({
        service: 'Serper',
        keyVariable: 'SERPER_API_KEY',
        apiKey: options.apiKey,
        url: `${baseUrl}/search`,
        headers: { 'x-api-key': options.apiKey },
        body,
        timeoutMs,
        signal,
        logger,
        fetch: doFetch,
      });
      if (!outcome.ok) return textResult(outcome.message, true);
      if (typeof outcome.data !== 'object' || outcome.data === null)
        return textResult('Serper answered with JSON that is not a search result: try again later.', true);
      return textResult(formatSerper(outcome.data as SerperResponse, maxOutputBytes));
    },
  };
};
