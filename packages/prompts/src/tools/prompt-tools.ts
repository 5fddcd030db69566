/**
 * Prompts for clients that show tools or resources but not MCP prompts: `list_prompts`, `get_prompt`
 * and `search_prompts` as tools (this file), the prompt search behind them, `prompt://` resources,
 * one-line prompt cards, and `read_skill_file` for skills.
 */
import { capText, textResult } from '@promptyard/core';
import type { PromptEntry, PromptService, ToolDefinition } from '@promptyard/core';
import { promptCard, renderedText } from './prompt-cards.js';

/** Ranks prompts for a query, best first (`createPromptSearch`). */
export interface PromptSearch {
  search(query: string, limit: number): readonly PromptEntry[];
}

export interface PromptToolsOptions {
  readonly prompts: PromptService;
  /** Results larger than this (UTF-8 bytes) are cut with a note. */
  readonly maxOutputBytes: number;
  /** The setting named in the note. */
  readonly setting?: string;
  /** When given, `search_prompts` is served too. */
  readonly search?: PromptSearch;
}

/** Validated against the schema already: absent or an object of text values. */
const argumentsOf = (raw: unknown): Record<string, unknown> =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/** Cuts a result over the output limit, with a note naming the setting. */
type Cap = (text: string) => string;

const listPromptsTool = (prompts: PromptService, cap: Cap): ToolDefinition => ({
  name: 'list_prompts',
  title: 'List prompts',
  description: 'List the prompt library: one line per prompt, "name(arguments, optional?) — description". Render one with get_prompt.',
  inputSchema: {
    type: 'object',
    properties: {
      prefix: { type: 'string', description: 'Only prompts whose name starts with this (e.g. "claude:")', maxLength: 200 },
    },
    additionalProperties: false,
  },
  annotations: { title: 'List prompts', ...readOnly },
  execute: async (args) => {
    const prefix = typeof args['prefix'] === 'string' ? args['prefix'] : '';
    const entries = prompts.catalog
      .names()
      .filter((name) => name.startsWith(prefix))
      .map((name) => prompts.catalog.get(name))
      .filter((entry) => entry !== undefined);
    if (entries.length === 0) return textResult(prefix === '' ? 'The library has no prompts.' : `No prompt name starts with "${prefix}".`);
    return textResult(cap(`${entries.length} prompts:\n${entries.map(promptCard).join('\n')}`));
  },
});

const getPromptTool = (prompts: PromptService, cap: Cap): ToolDefinition => ({
  name: 'get_prompt',
  title: 'Get a prompt',
  description: 'Render a prompt from the library with arguments and return its text. Find names with list_prompts or search_prompts.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Prompt name, e.g. "claude:git/fix-issue"', minLength: 1, maxLength: 200 },
      arguments: {
        type: 'object',
        description: 'Argument values by name, e.g. {"code": "…"}',
        additionalProperties: { type: 'string' },
      },
    },
    required: ['name'],
    additionalProperties: false,
  },
  annotations: { title: 'Get a prompt', ...readOnly },
  execute: async (args, context) => {
    const rendered = await prompts.get(String(args['name']), argumentsOf(args['arguments']), context.signal);
    return textResult(cap(renderedText(rendered)));
  },
});

const searchPromptsTool = (search: PromptSearch, cap: Cap): ToolDefinition => ({
  name: 'search_prompts',
  title: 'Search prompts',
  description:
    'Find prompts by words in their name, title, description or text (prefix and fuzzy matching). Returns one line per prompt, best first.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to look for', minLength: 1, maxLength: 500 },
      limit: { type: 'integer', description: 'Most results to return (default 10)', minimum: 1, maximum: 50, default: 10 },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { title: 'Search prompts', ...readOnly },
  execute: async (args) => {
    const limit = typeof args['limit'] === 'number' ? args['limit'] : 10;
    const found = search.search(String(args['query']), limit);
    if (found.length === 0) return textResult(`No prompt matches "${String(args['query'])}". Try fewer words, or list_prompts.`);
    return textResult(cap(found.map(promptCard).join('\n')));
  },
});

/**
 * `list_prompts`, `get_prompt` and `search_prompts`: the prompt library for clients that show tools
 * but not MCP prompts (Codex, Cursor, ChatGPT, …). Errors come back as `isError` results.
 */
export const createPromptTools = (options: PromptToolsOptions): ToolDefinition[] => {
  const { prompts, maxOutputBytes, search } = options;
  const setting = options.setting ?? '[fallback] max_output_bytes';
  const cap: Cap = (text) => capText(text, maxOutputBytes, setting);
  const tools = [listPromptsTool(prompts, cap), getPromptTool(prompts, cap)];
  if (search !== undefined) tools.push(searchPromptsTool(search, cap));
  return tools;
};
