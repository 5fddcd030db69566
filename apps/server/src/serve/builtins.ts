import { PromptyardError } from '@promptyard/core';
import type { ResourceProvider, ToolDefinition, UnlistedTool } from '@promptyard/core';
import { createDocProvider, createProjectProvider, createUrlProvider } from '@promptyard/resources';
import { createPerplexitySearchTool, createWebSearchTool } from '@promptyard/web-search';
import type { ResolvedConfig } from '../config.js';

/** The built-in tools and resource providers `promptyard.toml` enables, made from its sections. */

const requireHttpUrl = (value: string, key: string, variable: string): void => {
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `${key} must be an http(s) URL, got ${JSON.stringify(value)}: fix it in promptyard.toml or ${variable}.`,
    );
  }
};

/** A built-in tool left out because without its key it could only fail: what enables it. */
export interface HiddenTool {
  readonly tool: string;
  readonly reason: string;
  /** What a user does to have it served. */
  readonly enable: string;
}

/** The built-in tools that call a paid service, each with the environment variable its key comes from. */
const keyedTools = [
  { tool: 'web_search', section: 'tools.web_search', key: 'serper', variable: 'SERPER_API_KEY', service: 'Serper' },
  {
    tool: 'perplexity_summary_search',
    section: 'tools.perplexity_summary_search',
    key: 'perplexity',
    variable: 'PERPLEXITY_API_KEY',
    service: 'Perplexity',
  },
] as const;

type KeyedTool = (typeof keyedTools)[number];

/** `[tools.<name>] enabled` (the default) and a key in the environment: the tool is served. */
const servable = (resolved: ResolvedConfig, keyed: KeyedTool): boolean =>
  resolved.config[keyed.section].enabled && resolved.keys[keyed.key] !== undefined;

/** The enabled search tools without a key: not listed, since every call would fail. */
const hiddenKeyedTools = (resolved: ResolvedConfig): KeyedTool[] =>
  keyedTools.filter((keyed) => resolved.config[keyed.section].enabled && !servable(resolved, keyed));

/** The hidden tools for `/health` and the start-up log, each with what enables it. */
export const hiddenBuiltinTools = (resolved: ResolvedConfig): HiddenTool[] =>
  hiddenKeyedTools(resolved).map(({ tool, section, variable, service }) => ({
    tool,
    reason: `no ${service} API key`,
    enable: `set ${variable} in the environment (or [${section}] enabled = false to stop mentioning it)`,
  }));

/**
 * The same hidden tools as a call sees them: refused like an unknown name, but with the setting
 * that has each listed (keys come from the environment only, never from promptyard.toml).
 */
export const unlistedBuiltinTools = (resolved: ResolvedConfig): UnlistedTool[] =>
  hiddenKeyedTools(resolved).map(({ tool, variable, service }) => ({
    name: tool,
    setting: variable,
    message: `${tool} is not enabled: set ${variable} (a ${service} API key) in the environment of promptyard-server and restart it to list it.`,
  }));

/** `[tools.*]`: a tool is served once its API key is set; its base URL is checked whenever it is enabled. */
export const createBuiltinTools = (resolved: ResolvedConfig): ToolDefinition[] => {
  const { config, keys } = resolved;
  const web = config['tools.web_search'];
  const perplexity = config['tools.perplexity_summary_search'];
  if (web.enabled) requireHttpUrl(web.base_url, '[tools.web_search] base_url', 'SERPER_BASE_URL');
  if (perplexity.enabled) requireHttpUrl(perplexity.base_url, '[tools.perplexity_summary_search] base_url', 'PERPLEXITY_BASE_URL');
  const [webTool, perplexityTool] = keyedTools;
  const tools: ToolDefinition[] = [];
  if (servable(resolved, webTool)) {
    tools.push(
      createWebSearchTool({
        apiKey: keys.serper,
        baseUrl: web.base_url,
        defaultResults: web.results,
        timeoutMs: web.timeout_ms,
        maxOutputBytes: web.max_output_bytes,
      }),
    );
  }
  if (servable(resolved, perplexityTool)) {
    tools.push(
      createPerplexitySearchTool({
        apiKey: keys.perplexity,
        baseUrl: perplexity.base_url,
        defaultModel: perplexity.model,
        timeoutMs: perplexity.timeout_ms,
        deepResearchTimeoutMs: perplexity.deep_research_timeout_ms,
        maxOutputBytes: perplexity.max_output_bytes,
      }),
    );
  }
  return tools;
};

/** `[resources.*]`: `url:` pages, `doc://` library docs and `project://` code maps. */
export const createBuiltinResources = (resolved: ResolvedConfig): ResourceProvider[] => {
  const { config } = resolved;
  const doc = config['resources.doc'];
  const web = config['resources.url'];
  const project = config['resources.project'];
  const providers: ResourceProvider[] = [];
  if (web.enabled) {
    if (web.mode === 'jina') requireHttpUrl(web.reader_url, '[resources.url] reader_url', 'JINA_READER_URL');
    providers.push(
      createUrlProvider({
        mode: web.mode,
        readerUrl: web.reader_url,
        apiKey: resolved.keys.jina,
        readerHeaders: {
          ...(web.return_format === undefined ? {} : { 'X-Return-Format': web.return_format }),
          ...(web.reader_timeout_s === undefined ? {} : { 'X-Timeout': String(web.reader_timeout_s) }),
          ...(web.no_cache ? { 'X-No-Cache': 'true' } : {}),
        },
        allow: web.allow,
        timeoutMs: web.timeout_ms,
        maxBytes: web.max_bytes,
        contentTypes: web.content_types,
        cacheTtlMs: web.cache_ttl_s * 1000,
      }),
    );
  }
  if (doc.enabled) {
    providers.push(
      createDocProvider({
        libraries: doc.libraries,
        cacheDir: resolved.docCacheDir,
        ttlMs: doc.ttl_s * 1000,
        maxBytes: doc.max_bytes,
        timeoutMs: doc.timeout_ms,
      }),
    );
  }
  if (Object.keys(resolved.projects).length > 0) {
    providers.push(
      createProjectProvider({
        paths: resolved.projects,
        command: project.command,
        timeoutMs: project.timeout_ms,
        maxBytes: project.max_bytes,
        maxFileBytes: project.max_file_bytes,
      }),
    );
  }
  return providers;
};
