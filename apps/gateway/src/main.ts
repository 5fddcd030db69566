import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createAccessPolicy, createAuthenticator } from '@promptyard/auth';
import { createLogger, describeError, PromptyardError } from '@promptyard/core';
import type { Cluster, Logger, Metrics } from '@promptyard/core';
import { createMcpServerBlueprint, loadMcpTracing, serveHttp, serveStdio } from '@promptyard/mcp';
import type { HttpHandle, McpServerBlueprint } from '@promptyard/mcp';
import { createGatewayHandlers, killAllChildren, Router, spawnStdioServersEarly } from '@promptyard/router';
import { startMetrics, startTracing } from '@promptyard/telemetry';
import type { GatewayOverrides } from './args.js';
import { loadGatewayConfig, routerConfigOf } from './config/gateway-config.js';
import type { GatewayConfig } from './config/gateway-config.js';

export interface RunningGateway {
  readonly router: Router;
  readonly url?: string;
  close(): Promise<void>;
}

/** The config file: --config, else $PROMPTYARD_GATEWAY_CONFIG, else ./gateway.toml. */
export const locateConfig = (file: string | undefined, cwd: string): string => {
  if (file !== undefined) return resolve(cwd, file);
  const local = resolve(cwd, 'gateway.toml');
  if (existsSync(local)) return local;
  throw new PromptyardError(
    'CONFIG_INVALID',
    'No gateway config: pass --config <file> (a gateway.toml, or a Claude Desktop / Cursor / VS Code JSON config), set PROMPTYARD_GATEWAY_CONFIG, or create ./gateway.toml with a [servers.<id>] table per server.',
  );
};

export const applyOverrides = (config: GatewayConfig, overrides: GatewayOverrides): GatewayConfig => ({
  ...config,
  ...(overrides.lazy === undefined ? {} : { lazy: overrides.lazy }),
  ...(overrides.logLevel === undefined ? {} : { logLevel: overrides.logLevel }),
  transport: {
    ...config.transport,
    ...(overrides.transport === undefined ? {} : { type: overrides.transport }),
    ...(overrides.host === undefined ? {} : { host: overrides.host }),
    ...(overrides.port === undefined ? {} : { port: overrides.port }),
  },
});

export const loadConfig = async (file: string, overrides: GatewayOverrides): Promise<GatewayConfig> =>
  applyOverrides(await loadGatewayConfig(file), overrides);

/** Reloads the config when its file changes (`config` is the running one); an invalid edit keeps the running config. */
export const watchConfig = async (
  file: string,
  overrides: GatewayOverrides,
  router: Router,
  config: GatewayConfig,
  logger: Logger,
): Promise<() => Promise<void>> => {
  const { watch } = await import('chokidar');
  const watcher = watch(file, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 20 } });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let current = config;
  const reload = (): void => {
    running = running.then(async () => {
      let next: GatewayConfig;
      try {
        next = await loadConfig(file, overrides);
      } catch (error) {
        logger.error(`config change ignored; the gateway keeps the last good config. ${describeError(error)}`, { file });
        return;
      }
      const previous = current;
      current = next;
      if (
        next.transport.type !== previous.transport.type ||
        next.transport.port !== previous.transport.port ||
        next.transport.host !== previous.transport.host
      ) {
        logger.warn('[transport] changes apply at the next start of the gateway', { file });
      }
      if (JSON.stringify(next.auth) !== JSON.stringify(previous.auth))
        logger.warn('[auth] changes apply at the next start of the gateway', { file });
      if (JSON.stringify(next.policy) !== JSON.stringify(previous.policy))
        logger.warn('[[policy]] changes apply at the next start of the gateway', { file });
      if (JSON.stringify(next.telemetry) !== JSON.stringify(previous.telemetry))
        logger.warn('[telemetry] changes apply at the next start of the gateway', { file });
      const { added, removed, changed } = await router.reload(routerConfigOf(next));
      logger.notice('config reloaded', {
        file,
        added: added.join(',') || undefined,
        removed: removed.join(',') || undefined,
        restarted: changed.join(',') || undefined,
      });
    });
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(reload, 50);
  };
  watcher.on('add', schedule).on('change', schedule);
  watcher.on('error', (error) => logger.warn('config watcher error', { reason: describeError(error) }));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return async () => {
    clearTimeout(timer);
    await watcher.close();
    await running;
  };
};

/**
 * Serves first, then starts the servers: the endpoint answers (and `/health` shows each server
 * starting) at once, a port in use is reported before any server starts, and servers join as they
 * become ready. Early lists wait for them within `[gateway] startup_wait_ms`.
 */
export const startGateway = async (
  file: string,
  config: GatewayConfig,
  options: { readonly version: string; readonly watch: boolean; readonly overrides: GatewayOverrides },
): Promise<RunningGateway> => {
  const logger = createLogger({ level: config.logLevel, scope: 'gateway' });
  const telemetry = await startMetrics(config.telemetry, { http: config.transport.type === 'http', logger });
  const { metrics } = telemetry;
  const traces = await startTracing(
    {
      otlpEndpoint: config.telemetry.otlpEndpoint,
      serviceName: config.telemetry.serviceName ?? 'promptyard-gateway',
      serviceVersion: options.version,
    },
    { logger },
  );
  const tracing = traces === undefined ? undefined : await loadMcpTracing(traces.tracer, traces.propagator);
  if (traces !== undefined) logger.notice(`traces to ${traces.url}`);
  const router = new Router(routerConfigOf(config), { logger, version: options.version, metrics, tracing });
  metrics?.backends(() => router.status().backends.map(({ id, state, restarts, inFlight }) => ({ id, state, restarts, inFlight })));
  const policy = createAccessPolicy(config.policy);
  // Audit lines go to stderr only: the handlers' logger also reaches clients, and another caller's decisions are not theirs.
  const access = policy === undefined ? undefined : { policy, audit: createLogger({ level: config.logLevel, scope: 'gateway:audit' }) };
  if (policy !== undefined && config.metaTools) {
    logger.notice(
      '[[policy]]: the meta tools (catalog_tools, call_tool …) are given only by a rule naming them; through them a caller sees and calls only what the rules allow it',
    );
  }
  const cluster = await joinCluster(config, logger);
  const blueprint = await createMcpServerBlueprint(
    createGatewayHandlers(router, { name: config.name, version: options.version, logger, access }),
    { metrics, tracing, cluster },
  );
  let served: { close(): Promise<void> };
  let url: string | undefined;
  if (config.transport.type === 'stdio') {
    if (config.auth !== undefined || policy !== undefined)
      logger.warn('[auth] and [[policy]] apply to HTTP only: a stdio client is the user who started the gateway, and may use everything');
    served = await serveStdio(blueprint);
  } else {
    const http = await serveHttpFront(blueprint, router, config, logger, { metrics, serveMetrics: telemetry.onEndpoint, cluster });
    // Bound: the stdio servers start now, while the MCP client loads; their first connection takes them over.
    spawnStdioServersEarly(config.servers);
    served = http;
    url = http.url;
    if (policy !== undefined && config.auth === undefined && config.transport.authToken === undefined) {
      logger.warn('[[policy]] is set but callers are not identified: set [auth] issuer (or a token), else every caller may use everything');
    }
    const auth = config.auth !== undefined ? `oauth (${config.auth.issuer})` : config.transport.authToken === undefined ? 'none' : 'bearer';
    logger.notice(`listening on ${url}`, { servers: config.servers.length, auth });
  }

  let closing = false;
  void router.start().then(() => {
    if (closing) return;
    const summary = router.status();
    const ready = summary.backends.filter((backend) => backend.state === 'ready').length;
    logger.notice(`${ready} of ${summary.backends.length} servers ready`, {
      tools: summary.counts.tools,
      prompts: summary.counts.prompts,
      resources: summary.counts.resources,
    });
  });
  const stopWatching = options.watch ? await watchConfig(file, options.overrides, router, config, logger) : async () => {};

  const close = async (): Promise<void> => {
    closing = true;
    await stopWatching().catch(() => {});
    await served.close().catch(() => {});
    await cluster?.close();
    await telemetry.listener?.close();
    await router.close();
    killAllChildren();
    await traces?.shutdown();
  };
  return { router, ...(url === undefined ? {} : { url }), close };
};

/**
 * `[cluster] redis_url`: the Redis replicas behind one load balancer share, joined before serving
 * (`joinCluster` waits briefly for it; a node that cannot reach it serves on its own, degraded).
 * Loaded only when set: a single gateway never loads the Redis client.
 */
const joinCluster = async (config: GatewayConfig, logger: Logger): Promise<Cluster | undefined> => {
  if (config.cluster === undefined) return undefined;
  if (config.transport.type !== 'http') {
    logger.warn('[cluster] redis_url applies to the HTTP transport only: a stdio gateway serves its one client alone');
    return undefined;
  }
  const { joinCluster: join } = await import('@promptyard/cluster');
  return join({ url: config.cluster.redisUrl, keyPrefix: config.cluster.keyPrefix, logger });
};

const serveHttpFront = (
  blueprint: McpServerBlueprint,
  router: Router,
  config: GatewayConfig,
  logger: Logger,
  telemetry: { readonly metrics: Metrics | undefined; readonly serveMetrics: boolean; readonly cluster: Cluster | undefined },
): Promise<HttpHandle> => {
  const { transport } = config;
  return serveHttp(blueprint, {
    host: transport.host,
    port: transport.port,
    path: transport.path,
    ...(transport.allowedHosts === undefined ? {} : { allowedHosts: transport.allowedHosts }),
    ...(transport.allowedOrigins === undefined ? {} : { allowedOrigins: transport.allowedOrigins }),
    authToken: transport.authToken,
    auth: config.auth === undefined ? undefined : createAuthenticator(config.auth, { logger: logger.child('auth') }),
    publicUrl: transport.publicUrl,
    maxBodyBytes: transport.maxBodyBytes,
    ...telemetry,
    health: () => {
      const status = router.status();
      return { servers: status.backends, collisions: status.collisions, counts: status.counts, lazy: status.lazy };
    },
  });
};
