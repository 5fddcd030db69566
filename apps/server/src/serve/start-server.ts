/**
 * Serving: startServer composes the library, the skills (skills.ts), the tools and resources
 * (services.ts, builtins.ts) and the HTTP endpoint's settings (endpoint.ts) into an MCP server run
 * by `@promptyard/host` over stdio or HTTP.
 */
import { createAccessPolicy } from '@promptyard/auth';
import { createLogger, describeError } from '@promptyard/core';
import type { AccessPolicy, Logger, Metrics, ResourceService, ToolService } from '@promptyard/core';
import { startHost } from '@promptyard/host';
import type { Host, Served } from '@promptyard/host';
import { createCatalogHandlers, createMcpServerBlueprint, isLoopbackHost } from '@promptyard/mcp';
import type { McpHandlers, McpServerBlueprint } from '@promptyard/mcp';
import type { ResolvedConfig } from '../config.js';
import { reportConfig } from '../config-file.js';
import { clientConfigs, httpEndpoint } from './endpoint.js';
import { createEngines, createLibrary, describeDiscovery } from '../library/library.js';
import type { Library } from '../library/library.js';
import { loadProviders, promptSourcesOf } from '../providers.js';
import { hiddenBuiltinTools } from './builtins.js';
import { createServedResources, createServedTools } from './services.js';
import { gitHealth, reconfigureOnEdit, syncOnHangup } from './git-serving.js';
import { createServedSkills } from './skills.js';
import type { ServedSkills } from './skills.js';

export interface RunningServer {
  /** The HTTP endpoint, when serving over HTTP. */
  readonly url?: string;
  close(): Promise<void>;
}

/** What the server is made of, composed before any of it is loaded. */
interface ServerParts {
  readonly resolved: ResolvedConfig;
  readonly logger: Logger;
  readonly version: string;
  readonly library: Library;
  readonly skills: ServedSkills | undefined;
  readonly tools: ToolService | undefined;
  readonly resources: ResourceService | undefined;
  readonly policy: AccessPolicy | undefined;
}

/** Composes config, prompt sources, providers, the catalogs and a transport (through the host) into a running server. */
export const startServer = async (
  resolved: ResolvedConfig,
  options: {
    readonly version: string;
    readonly logger?: Logger;
    /** Resolves the config again (a config edit moves git libraries whose ref changed). */
    readonly reloadConfig?: () => Promise<ResolvedConfig>;
  },
): Promise<RunningServer> => {
  const { config } = resolved;
  const logger = options.logger ?? createLogger({ level: config.server.log_level, format: config.server.log_format, scope: 'promptyard' });
  reportConfig(resolved, logger);
  const engines = createEngines(config);
  const packages = await loadProviders(resolved, { logger, engines });
  const version = config.server.version ?? options.version;
  // The host first: replicas agree on the commit of each git library through its cluster.
  const host = await startServerHost(resolved, logger, version);
  const library = await createLibrary(resolved, logger, engines, promptSourcesOf(packages), { cluster: host.cluster });
  const skills = createServedSkills(config, library.skillFolders, logger, library.git?.sources);
  const serviceParts = { library, skillTree: skills?.tree, packages };
  const tools = createServedTools(resolved, logger, serviceParts);
  const resources = createServedResources(resolved, serviceParts);
  const policy = createAccessPolicy(resolved.policy);
  if (policy !== undefined && (config.fallback.tools || config.fallback.resources)) {
    logger.warn(
      '[fallback] tools and resources serve every prompt by name: give them only to callers who may use all prompts ([[policy]] tools = ["get_prompt", …], resources = ["prompt://*"])',
    );
  }
  const parts: ServerParts = { resolved, logger, version, library, skills, tools, resources, policy };
  host.metrics?.catalog(() => library.catalog.size);
  const blueprint = await loadWithBlueprint(parts, host);
  const { url } = await serve(parts, host, blueprint);
  watchSources(parts, host.metrics);
  const stopFollowing = await followGit(parts, options.reloadConfig);

  let closing: Promise<void> | undefined;
  return {
    ...(url === undefined ? {} : { url }),
    close: () =>
      (closing ??= host.close({
        before: () =>
          Promise.allSettled([stopFollowing(), ...library.sources.map(({ source }) => source.close?.()), skills?.tree.close?.()]),
        after: () => Promise.allSettled([resources?.close(), ...packages.map((loaded) => loaded.tools?.close?.()), library.close()]),
      })),
  };
};

/** Git libraries move from here on: polls, sync requests, SIGHUP, config edits. Returns how to stop. */
const followGit = async (
  { resolved, library, logger }: ServerParts,
  reloadConfig: (() => Promise<ResolvedConfig>) | undefined,
): Promise<() => Promise<void>> => {
  const { git } = library;
  if (git === undefined) return async () => {};
  git.start();
  const stopHangup = syncOnHangup(git, logger);
  const stopWatching =
    resolved.file === undefined || reloadConfig === undefined
      ? async () => {}
      : await reconfigureOnEdit(resolved.file, reloadConfig, { git, resolved, logger });
  return async () => {
    stopHangup();
    await stopWatching();
  };
};

/** `[telemetry]` and `[cluster]`. */
const startServerHost = (resolved: ResolvedConfig, logger: Logger, version: string): Promise<Host> => {
  const { telemetry, cluster, transport } = resolved.config;
  return startHost({
    noun: 'server',
    logger,
    http: transport.type === 'http',
    telemetry: {
      metrics: telemetry.metrics,
      metricsBind: telemetry.metrics_bind,
      otlpEndpoint: telemetry.otlp_endpoint,
      serviceName: telemetry.service_name ?? 'promptyard-server',
      serviceVersion: version,
    },
    noteLevel: 'info',
    cluster: { redisUrl: cluster.redis_url, keyPrefix: cluster.key_prefix },
  });
};

/** The prompt server's MCP handlers: the catalogs, the skills extension and the access policy. */
const serverHandlers = ({ resolved, logger, version, library, skills, tools, resources, policy }: ServerParts): McpHandlers => {
  const { config } = resolved;
  return {
    ...createCatalogHandlers({
      name: config.server.name,
      version,
      instructions: config.server.instructions,
      logger,
      prompts: library.prompts,
      tools,
      resources,
      pageSize: config.prompts.page_size,
    }),
    ...(skills === undefined ? {} : { skills: { tree: skills.tree, onChanged: skills.onChanged, metaOf: skills.metaOf } }),
    ...(policy === undefined
      ? {}
      : // Audit lines go to stderr only: the handlers' logger also reaches clients, and another caller's decisions are not theirs.
        {
          access: {
            policy,
            audit: createLogger({ level: config.server.log_level, format: config.server.log_format, scope: 'promptyard:audit' }),
          },
        }),
  };
};

/** Loads every source while the MCP SDK loads (the folders are read partly on a worker thread), then says what was loaded. */
const loadWithBlueprint = async (parts: ServerParts, host: Host): Promise<McpServerBlueprint> => {
  const { resolved, logger, library, skills, tools } = parts;
  const { config } = resolved;
  const { catalog, sources, folders, discovered, emptyLibrary } = library;
  const { metrics, tracing, cluster } = host;
  const loadStarted = performance.now();
  const [loaded, blueprint] = await Promise.all([
    Promise.all(sources.map(({ source }) => source.load())),
    createMcpServerBlueprint(serverHandlers(parts), { metrics, tracing, cluster }),
  ]);
  sources.forEach(({ owner }, index) => owner.replace(loaded[index] ?? []));
  if (catalog.size === 0 && skills === undefined) {
    // Configured folders that are watched may fill up: they are served, with the same sentence.
    if (folders.length === 0 || !config.prompts.watch) throw emptyLibrary();
    logger.warn(`${emptyLibrary().message} Serving anyway: files added to the folders are picked up.`);
  }
  if (discovered.length > 0)
    process.stderr.write(describeDiscovery(discovered, loaded.slice(folders.length, folders.length + discovered.length)));
  if (skills !== undefined) logger.info('serving skills (MCP skills extension)', { folders: skills.tree.id });
  logger.info('prompts loaded', {
    prompts: catalog.size,
    tools: tools?.catalog.names().join(',') || 'none',
    folders: sources.length,
    ms: Math.round(performance.now() - loadStarted),
  });
  const hidden = hiddenBuiltinTools(resolved);
  if (hidden.length > 0)
    logger.info(
      'tools not listed until configured',
      Object.fromEntries(hidden.map(({ tool, reason, enable }) => [tool, `${reason}: ${enable}`])),
    );
  return blueprint;
};

/** Serves over `[transport]`: over HTTP with how to connect each common client, over stdio to the one client that started it. */
const serve = async (
  { resolved, logger, library, tools, policy }: ServerParts,
  host: Host,
  blueprint: McpServerBlueprint,
): Promise<Served> => {
  const { catalog } = library;
  const { config } = resolved;
  const hiddenTools = hiddenBuiltinTools(resolved);
  const health = () => ({
    name: config.server.name,
    prompts: catalog.size,
    tools: tools?.catalog.size ?? 0,
    catalogVersion: catalog.version,
    hiddenTools,
    ...gitHealth(library.git),
  });
  const served = await host.serve(blueprint, {
    http: httpEndpoint(resolved, logger, health, library.git),
    issuer: resolved.auth?.issuer,
    policy: policy !== undefined,
    counts: () => ({ prompts: catalog.size }),
    warnOpenBind: true,
  });
  // On a wildcard bind, the snippets name an address other machines can use.
  const shown = served.urls?.find((url) => !isLoopbackHost(new URL(url).hostname)) ?? served.url;
  if (shown !== undefined) process.stderr.write(`\n${clientConfigs(shown, config.server.name)}\n\n`);
  else logger.info('serving on stdio', { prompts: catalog.size });
  return served;
};

/**
 * `[prompts] watch`: every source and the skills reload as their files change; a source that cannot
 * watch is served as loaded. Git libraries move whatever `watch` says (their `poll` is theirs).
 */
const watchSources = ({ resolved, library, skills, logger }: ServerParts, metrics: Metrics | undefined): void => {
  const { watch } = resolved.config.prompts;
  for (const { source, owner, fromGit } of library.sources) {
    if (!watch && fromGit !== true) continue;
    source
      .watch?.((delta) => {
        owner.update(delta);
        metrics?.reloaded(delta.failed ?? 0);
      })
      .catch((error: unknown) => {
        logger.warn('hot reload is off for this source', { source: source.id, reason: describeError(error) });
      });
  }
  if (watch) skills?.watch();
};
