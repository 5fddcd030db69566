import {
  createCatalog,
  createLogger,
  createPromptResources,
  createPromptTools,
  createMcpServerBlueprint,
  createToolService,
  isLoopbackHost,
  PromptyardError,
  serveHttp,
  serveStdio,
} from '@promptyard/core';
import type { Logger, ResourceProvider, ToolDefinition, ToolService } from '@promptyard/core';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPerplexitySearchTool, createWebSearchTool } from '@promptyard/search';
import { createPromptSearch } from '@promptyard/prompts';
import { createDocProvider, createProjectProvider, createUrlProvider } from '@promptyard/resources';
import type { ResolvedConfig } from './config.js';
import { createLibrary, describeDiscovery } from './library.js';

export interface RunningServer {
  /** The HTTP endpoint, when serving over HTTP. */
  readonly url?: string;
  close(): Promise<void>;
}


/** The built-in tools the config enables; a missing key leaves a tool listed, explaining itself when called. */
const requireHttpUrl = (value: string, key: string, variable: string): void => {
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new PromptyardError('CONFIG_INVALID', `${key} must be an http(s) URL, got ${JSON.stringify(value)}: fix it in promptyard.toml or ${variable}.`);
  }
};

/** `[[providers]]`: third-party resource providers, resolved from the config file's folder like its own dependencies. */
const loadProviders = async (resolved: ResolvedConfig): Promise<ResourceProvider[]> => {
  const base = resolved.file ?? join(resolved.cwd, 'promptyard.toml');
  const require = createRequire(base);
  return Promise.all(
    resolved.config['providers[]'].map(async ({ package: name, options }, index) => {
      if (name === undefined) throw new PromptyardError('CONFIG_INVALID', `[[providers]] #${index + 1} needs package = "<npm package name>".`);
      let path: string;
      try {
        path = require.resolve(name);
      } catch (error) {
        throw new PromptyardError('CONFIG_INVALID', `Provider package "${name}" is not installed where ${dirname(base)} can find it: run \`npm install ${name}\` there, or fix [[providers]] package.`, { cause: error });
      }
      const module = (await import(pathToFileURL(path).href)) as { createProvider?: unknown; default?: unknown };
      const factory = module.createProvider ?? module.default;
      if (typeof factory !== 'function') throw new PromptyardError('CONFIG_INVALID', `Provider package "${name}" exports no createProvider factory (see @promptyard/core's ResourceProviderFactory).`);
      const provider = (factory as (options: Readonly<Record<string, string>>) => ResourceProvider)(options);
      if (typeof provider?.scheme !== 'string' || typeof provider.read !== 'function' || typeof provider.list !== 'function' || typeof provider.templates !== 'function') {
        throw new PromptyardError('CONFIG_INVALID', `Provider package "${name}" returned something that is not a ResourceProvider (scheme, list, templates, read).`);
      }
      return provider;
    }),
  );
};

const createTools = (resolved: ResolvedConfig, logger: Logger, promptTools: readonly ToolDefinition[]): ToolService | undefined => {
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
    if (keys.perplexity === undefined) logger.notice('perplexity_summary_search has no API key: set PERPLEXITY_API_KEY (calls explain this until then)');
  }
  if (tools.length === 0 && promptTools.length === 0) return undefined;
  const catalog = createCatalog<ToolDefinition>({ kind: 'tool', defaultPageSize: config.prompts.page_size });
  catalog.owner('builtin').replace(tools);
  catalog.owner('prompts').replace(promptTools);
  return createToolService({
    catalog,
    logger: logger.child('tools'),
    timeoutMs: config.timeouts.tool_ms,
    maxResponseBytes: config.limits.max_response_bytes,
  });
};

const clientConfigs = (url: string, name: string): string =>
  [
    'Connect a client:',
    `  Claude Code:     claude mcp add --transport http ${name} ${url}`,
    `  VS Code:         .vscode/mcp.json  {"servers":{"${name}":{"type":"http","url":"${url}"}}}`,
    `  Cursor:          ~/.cursor/mcp.json  {"mcpServers":{"${name}":{"url":"${url}"}}}`,
    `  Claude Desktop:  claude_desktop_config.json  {"mcpServers":{"${name}":{"command":"npx","args":["-y","mcp-remote","${url}"]}}}`,
    `  MCP Inspector:   npx @modelcontextprotocol/inspector  (Streamable HTTP, ${url})`,
  ].join('\n');

/** Composes config, prompt sources, the registry and a transport into a running server. */
export const startServer = async (resolved: ResolvedConfig, options: { readonly version: string; readonly logger?: Logger }): Promise<RunningServer> => {
  const { config } = resolved;
  const logger = options.logger ?? createLogger({ level: config.server.log_level, format: config.server.log_format, scope: 'promptyard' });
  const { catalog, prompts, sources, folders, discovered, nothingToServe } = await createLibrary(resolved, logger);
  const { fallback } = config;
  const promptTools = fallback.tools ? createPromptTools({ prompts, maxOutputBytes: fallback.max_output_bytes, search: createPromptSearch({ catalog }) }) : [];
  const tools = createTools(resolved, logger, promptTools);
  const doc = config['resources.doc'];
  const web = config['resources.url'];
  if (web.enabled && web.mode === 'jina') requireHttpUrl(web.reader_url, '[resources.url] reader_url', 'JINA_READER_URL');
  const resources = [
    ...(web.enabled
      ? [
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
        ]
      : []),
    ...(fallback.resources ? [createPromptResources({ prompts, maxOutputBytes: fallback.max_output_bytes })] : []),
    ...(doc.enabled
      ? [createDocProvider({ libraries: doc.libraries, cacheDir: resolved.docCacheDir, ttlMs: doc.ttl_s * 1000, maxBytes: doc.max_bytes, timeoutMs: doc.timeout_ms })]
      : []),
    ...(Object.keys(resolved.projects).length > 0
      ? [
          createProjectProvider({
            paths: resolved.projects,
            command: config['resources.project'].command,
            timeoutMs: config['resources.project'].timeout_ms,
            maxBytes: config['resources.project'].max_bytes,
            maxFileBytes: config['resources.project'].max_file_bytes,
          }),
        ]
      : []),
    ...(await loadProviders(resolved)),
  ];
  // Two providers on one scheme would make the second unreachable: say so at start-up.
  const schemes = resources.map((provider) => provider.scheme);
  const clash = schemes.find((scheme, index) => schemes.indexOf(scheme) !== index);
  if (clash !== undefined) throw new PromptyardError('CONFIG_INVALID', `Two resource providers serve the ${clash}: scheme: remove one of the [[providers]] entries, or disable the built-in one in [resources.*].`);
  // Reading the folders (partly on a worker thread) and loading the MCP SDK overlap.
  const loadStarted = performance.now();
  const [loaded, blueprint] = await Promise.all([
    Promise.all(sources.map(({ source }) => source.load())),
    createMcpServerBlueprint({
      name: config.server.name,
      version: config.server.version ?? options.version,
      ...(config.server.instructions === undefined ? {} : { instructions: config.server.instructions }),
      logger,
      prompts,
      ...(tools === undefined ? {} : { tools }),
      ...(resources.length === 0 ? {} : { resources }),
      pageSize: config.prompts.page_size,
    }),
  ]);
  sources.forEach(({ owner }, index) => owner.replace(loaded[index] ?? []));
  if (folders.length === 0 && catalog.size === 0) throw nothingToServe();
  if (discovered.length > 0) process.stderr.write(describeDiscovery(discovered, loaded.slice(folders.length)));
  logger.info('prompts loaded', { prompts: catalog.size, tools: tools?.catalog.names().join(',') || 'none', folders: sources.length, ms: Math.round(performance.now() - loadStarted) });

  let closeTransport: () => Promise<void>;
  let url: string | undefined;
  if (config.transport.type === 'http') {
    const { transport } = config;
    const rateLimited = config['transport.rate_limit'].enabled ?? !isLoopbackHost(transport.host);
    const handle = await serveHttp(blueprint, {
      host: transport.host,
      port: transport.port,
      path: transport.path,
      ...(transport.allowed_hosts === undefined ? {} : { allowedHosts: transport.allowed_hosts }),
      ...(transport.allowed_origins === undefined ? {} : { allowedOrigins: transport.allowed_origins }),
      authToken: transport.auth_token,
      maxBodyBytes: transport.max_body_bytes,
      rateLimit: rateLimited
        ? { requestsPerMinute: config['transport.rate_limit'].requests_per_minute, burst: config['transport.rate_limit'].burst }
        : undefined,
      health: () => ({ name: config.server.name, prompts: catalog.size, tools: tools?.catalog.size ?? 0, catalogVersion: catalog.version }),
    });
    url = handle.url;
    closeTransport = handle.close;
    if (!isLoopbackHost(transport.host) && transport.auth_token === undefined) {
      logger.warn('serving on a non-loopback address without a token: set PROMPTYARD_AUTH_TOKEN', { host: transport.host });
    }
    logger.notice(`listening on ${handle.url}`, { prompts: catalog.size, auth: transport.auth_token === undefined ? 'none' : 'bearer' });
    process.stderr.write(`\n${clientConfigs(handle.url, config.server.name)}\n\n`);
  } else {
    const handle = await serveStdio(blueprint);
    closeTransport = handle.close;
    logger.info('serving on stdio', { prompts: catalog.size });
  }

  if (config.prompts.watch) {
    for (const { source, owner } of sources) {
      source.watch((delta) => owner.update(delta)).catch((error: unknown) => {
        logger.warn('hot reload is off for this folder', { folder: source.dir, reason: error instanceof Error ? error.message : String(error) });
      });
    }
  }

  let closing: Promise<void> | undefined;
  return {
    ...(url === undefined ? {} : { url }),
    close: () => {
      closing ??= (async () => {
        await Promise.allSettled(sources.map(({ source }) => source.close()));
        await closeTransport().catch(() => {});
      })();
      return closing;
    },
  };
};
