import { PromptyardError } from '@promptyard/core';
import type { Logger, ResourceProvider, ToolDefinition } from '@promptyard/core';
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

/** `[tools.*]`: a missing API key leaves a tool listed, explaining itself when called. */
export const createBuiltinTools = (resolved: ResolvedConfig, logger: Logger): ToolDefinition[] => {
  const { config, keys } = resolved;
  const web = config['tools.web_search'];
  const perplexity = config['tools.perplexity_summary_search'];
  if (web.enabled) requireHttpUrl(web.base_url, '[tools.web_search] base_url', 'SERPER_BASE_URL');
  if (perplexity.enabled) requireHttpUrl(perplexity.base_url, '[tools.perplexity_summary_search] base_url', 'PERPLEXITY_BASE_URL');
  const tools: ToolDefinition[] = [];
  if (web.enabled) {
    tools.push(
      createWebSearchTool({
        apiKey: keys.serper,
        baseUrl: web.base_url,
        defaultResults: web.results,
        timeoutMs: web.timeout_ms,
        maxOutputBytes: web.max_output_bytes,
      }),
    );
    if (keys.serper === undefined) logger.notice('web_search has no API key: set SERPER_API_KEY (calls explain this until then)');
  }
  if (perplexity.enabled) {
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
    if (keys.perplexity === undefined)
      logger.notice('perplexity_summary_search has no API key: set PERPLEXITY_API_KEY (calls explain this until then)');
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
