import { createAccessPolicy, createAuthenticator } from '@promptyard/auth';
import { createCatalog, createLogger, createResourceService, createToolService, describeError } from '@promptyard/core';
import type { Cluster, Logger, ToolDefinition } from '@promptyard/core';
import { createCatalogHandlers, createMcpServerBlueprint, isLoopbackHost, loadMcpTracing, serveHttp, serveStdio } from '@promptyard/mcp';
import { startMetrics, startTracing } from '@promptyard/telemetry';
import { createPromptResources, createPromptSearch, createPromptTools, createSkillTools, createSkillTree } from '@promptyard/prompts';
import { createBuiltinResources, createBuiltinTools } from './builtins.js';
import type { ResolvedConfig } from './config.js';
import { createEngines, createLibrary, describeDiscovery } from './library.js';
import { loadProviders, promptSourcesOf } from './providers.js';

export interface RunningServer {
  /** The HTTP endpoint, when serving over HTTP. */
  readonly url?: string;
  close(): Promise<void>;
}

const clientConfigs = (url: string, name: string): string =>
  [
    'Connect a client:',
    `  Claude Code:     claude mcp add --transport http ${name} ${url}`,
    `  VS Code:         .vscode/mcp.json  {"servers":{"${name}":{"type":"http","url":"${url}"}}}`,
    `  Cursor:          ~/.cursor/mcp.json  {"mcpServers":{"${name}":{"url":"${url}"}}}`,
    `  Claude Desktop:  claude_desktop_config.json  {"mcpServers":{"${name}":{"command":"npx","args":["-y","mcp-remote","${url}"]}}}`,
    `  MCP Inspector:   npx @modelcontextprotocol/inspector  (Streamable HTTP, ${url})`,
  ].join('\n');

/** Composes config, prompt sources, providers, the registry and a transport into a running server. */
export const startServer = async (
  resolved: ResolvedConfig,
  options: { readonly version: string; readonly logger?: Logger },
): Promise<RunningServer> => {
  const { config } = resolved;
  const logger = options.logger ?? createLogger({ level: config.server.log_level, format: config.server.log_format, scope: 'promptyard' });
  const engines = createEngines(config);
  const packages = await loadProviders(resolved, { logger, engines });
  const library = await createLibrary(resolved, logger, engines, promptSourcesOf(packages));
  const { catalog, prompts, sources, folders, discovered, skillFolders, emptyLibrary } = library;
  const { fallback } = config;

  const skillTree =
    skillFolders.length === 0
      ? undefined
      : createSkillTree({
          folders: skillFolders,
          followExternalSymlinks: config.prompts.follow_external_symlinks,
          maxFileBytes: config.limits.max_file_bytes,
          debounceMs: config.prompts.debounce_ms,
          logger: logger.child('skills'),
        });
  const skillListeners: (() => void)[] = [];

  const toolCatalog = createCatalog<ToolDefinition>({ kind: 'tool', defaultPageSize: config.prompts.page_size });
  toolCatalog.onConflict(({ name, kept, shadowed }) =>
    logger.warn('duplicate tool name: the first wins (built-in, prompt tools, then [[providers]] in order)', {
      tool: name,
      served: kept,
      ignored: shadowed,
    }),
  );
  toolCatalog.owner('builtin').replace(createBuiltinTools(resolved, logger));
  if (fallback.tools) {
    toolCatalog
      .owner('prompts')
      .replace([
        ...createPromptTools({ prompts, maxOutputBytes: fallback.max_output_bytes, search: createPromptSearch({ catalog }) }),
        ...(skillTree === undefined ? [] : createSkillTools({ tree: skillTree, maxOutputBytes: fallback.max_output_bytes })),
      ]);
  }
  for (const loaded of packages) if (loaded.tools !== undefined) toolCatalog.owner(`provider ${loaded.label}`).replace(loaded.tools.tools);
  const tools =
    toolCatalog.size === 0
      ? undefined
      : createToolService({
          catalog: toolCatalog,
          logger: logger.child('tools'),
          timeoutMs: config.timeouts.tool_ms,
          maxResponseBytes: config.limits.max_response_bytes,
        });

  const resourceProviders = [
    ...(fallback.resources ? [createPromptResources({ prompts, maxOutputBytes: fallback.max_output_bytes })] : []),
    ...createBuiltinResources(resolved),
    ...packages.flatMap((loaded) => (loaded.resources === undefined ? [] : [loaded.resources])),
  ];
  // Two providers of one scheme are refused here, at start-up.
  const resources =
    resourceProviders.length === 0 ? undefined : createResourceService(resourceProviders, { timeoutMs: config.timeouts.resource_ms });

  const policy = createAccessPolicy(resolved.policy);
  if (policy !== undefined && (fallback.tools || fallback.resources)) {
    logger.warn(
      '[fallback] tools and resources serve every prompt by name: give them only to callers who may use all prompts ([[policy]] tools = ["get_prompt", …], resources = ["prompt://*"])',
    );
  }
  const { telemetry: telemetryConfig } = config;
  const telemetry = await startMetrics(
    { metrics: telemetryConfig.metrics, metricsBind: telemetryConfig.metrics_bind },
    { http: config.transport.type === 'http', logger },
  );
  const { metrics } = telemetry;
  metrics?.catalog(() => catalog.size);
  const cluster = await joinCluster(config, logger);
  const traces = await startTracing(
    {
      otlpEndpoint: telemetryConfig.otlp_endpoint,
      serviceName: telemetryConfig.service_name ?? 'promptyard-server',
      serviceVersion: config.server.version ?? options.version,
    },
    { logger },
  );
  const tracing = traces === undefined ? undefined : await loadMcpTracing(traces.tracer, traces.propagator);
  if (traces !== undefined) logger.info(`traces to ${traces.url}`);

  // Reading the folders (partly on a worker thread) and loading the MCP SDK overlap.
  const loadStarted = performance.now();
  const [loaded, blueprint] = await Promise.all([
    Promise.all(sources.map(({ source }) => source.load())),
    createMcpServerBlueprint(
      {
        ...createCatalogHandlers({
          name: config.server.name,
          version: config.server.version ?? options.version,
          instructions: config.server.instructions,
          logger,
          prompts,
          tools,
          resources,
          pageSize: config.prompts.page_size,
        }),
        ...(skillTree === undefined
          ? {}
          : { skills: { tree: skillTree, onChanged: (listener: () => void) => void skillListeners.push(listener) } }),
        ...(policy === undefined
          ? {}
          : // Audit lines go to stderr only: the handlers' logger also reaches clients, and another caller's decisions are not theirs.
            {
              access: {
                policy,
                audit: createLogger({ level: config.server.log_level, format: config.server.log_format, scope: 'promptyard:audit' }),
              },
            }),
      },
      { metrics, tracing, cluster },
    ),
  ]);
  sources.forEach(({ owner }, index) => owner.replace(loaded[index] ?? []));
  if (catalog.size === 0 && skillTree === undefined) {
    // Configured folders that are watched may fill up: they are served, with the same sentence.
    if (folders.length === 0 || !config.prompts.watch) throw emptyLibrary();
    logger.warn(`${emptyLibrary().message} Serving anyway: files added to the folders are picked up.`);
  }
  if (discovered.length > 0)
    process.stderr.write(describeDiscovery(discovered, loaded.slice(folders.length, folders.length + discovered.length)));
  if (skillTree !== undefined) logger.info('serving skills (MCP skills extension)', { folders: skillTree.id });
  logger.info('prompts loaded', {
    prompts: catalog.size,
    tools: tools?.catalog.names().join(',') || 'none',
    folders: sources.length,
    ms: Math.round(performance.now() - loadStarted),
  });

  let closeTransport: () => Promise<void>;
  let url: string | undefined;
  if (config.transport.type === 'http') {
    const { transport } = config;
    const authSettings = resolved.auth;
    const auth = authSettings === undefined ? undefined : createAuthenticator(authSettings, { logger: logger.child('auth') });
    const rateLimited = config['transport.rate_limit'].enabled ?? !isLoopbackHost(transport.host);
    const handle = await serveHttp(blueprint, {
      host: transport.host,
      port: transport.port,
      path: transport.path,
      ...(transport.allowed_hosts === undefined ? {} : { allowedHosts: transport.allowed_hosts }),
      ...(transport.allowed_origins === undefined ? {} : { allowedOrigins: transport.allowed_origins }),
      authToken: transport.auth_token,
      auth,
      publicUrl: transport.public_url,
      maxBodyBytes: transport.max_body_bytes,
      rateLimit: rateLimited
        ? {
            requestsPerMinute: config['transport.rate_limit'].requests_per_minute,
            burst: config['transport.rate_limit'].burst,
            trustedProxies: config['transport.rate_limit'].trusted_proxies,
          }
        : undefined,
      metrics,
      serveMetrics: telemetry.onEndpoint,
      cluster,
      health: () => ({ name: config.server.name, prompts: catalog.size, tools: tools?.catalog.size ?? 0, catalogVersion: catalog.version }),
    });
    url = handle.url;
    closeTransport = handle.close;
    if (policy !== undefined && transport.auth_token === undefined && auth === undefined) {
      logger.warn('[[policy]] is set but callers are not identified: set [auth] issuer (or a token), else every caller may use everything');
    }
    if (!isLoopbackHost(transport.host) && transport.auth_token === undefined && auth === undefined) {
      logger.warn('serving on a non-loopback address without a token: set PROMPTYARD_AUTH_TOKEN, or [auth] issuer for OAuth', {
        host: transport.host,
      });
    }
    const authMode = auth !== undefined ? `oauth (${authSettings?.issuer ?? ''})` : transport.auth_token === undefined ? 'none' : 'bearer';
    logger.notice(`listening on ${handle.url}`, { prompts: catalog.size, auth: authMode });
    process.stderr.write(`\n${clientConfigs(handle.url, config.server.name)}\n\n`);
  } else {
    if (resolved.auth !== undefined || policy !== undefined)
      logger.warn('[auth] and [[policy]] apply to HTTP only: a stdio client is the user who started the server, and may use everything');
    const handle = await serveStdio(blueprint);
    closeTransport = handle.close;
    logger.info('serving on stdio', { prompts: catalog.size });
  }

  if (config.prompts.watch) {
    for (const { source, owner } of sources) {
      source
        .watch?.((delta) => {
          owner.update(delta);
          metrics?.reloaded(delta.failed ?? 0);
        })
        .catch((error: unknown) => {
          logger.warn('hot reload is off for this source', { source: source.id, reason: describeError(error) });
        });
    }
    skillTree
      ?.watch?.(() => skillListeners.forEach((listener) => listener()))
      .then(
        () => logger.info('watching skills', { folders: skillTree.id }),
        (error: unknown) => logger.warn('hot reload is off for skills', { folders: skillTree.id, reason: describeError(error) }),
      );
  }

  let closing: Promise<void> | undefined;
  return {
    ...(url === undefined ? {} : { url }),
    close: () => {
      closing ??= (async () => {
        await Promise.allSettled([...sources.map(({ source }) => source.close?.()), skillTree?.close?.()]);
        await closeTransport().catch(() => {});
        await cluster?.close();
        await telemetry.listener?.close();
        await Promise.allSettled([resources?.close(), ...packages.map((loaded) => loaded.tools?.close?.())]);
        await traces?.shutdown();
      })();
      return closing;
    },
  };
};

/**
 * `[cluster] redis_url`: the Redis replicas behind one load balancer share, joined before serving
 * (`joinCluster` waits briefly for it; a node that cannot reach it serves on its own, degraded).
 * Loaded only when set: a single node never loads the Redis client.
 */
const joinCluster = async (config: ResolvedConfig['config'], logger: Logger): Promise<Cluster | undefined> => {
  const { redis_url: url, key_prefix: keyPrefix } = config.cluster;
  if (url === undefined) return undefined;
  if (config.transport.type !== 'http') {
    logger.warn('[cluster] redis_url applies to the HTTP transport only: a stdio server serves its one client alone');
    return undefined;
  }
  const { joinCluster: join } = await import('@promptyard/cluster');
  return join({ url, keyPrefix, logger });
};
