import { createAccessPolicy, createAuthenticator } from '@promptyard/auth';
import { createLogger, describeError } from '@promptyard/core';
import type { AuditTrail, Authenticator, Logger } from '@promptyard/core';
import { startHost, startupMark, watchConfigFile } from '@promptyard/host';
import type { Host, HttpEndpoint, Served } from '@promptyard/host';
import { Approvals, DEFAULT_PROFILE, killAllChildren, openPinBook, pinFileFor, Router, spawnStdioServersEarly } from '@promptyard/router';
import type { PinBook, PinLocation } from '@promptyard/router';
import type { Cluster } from '@promptyard/core';
import type { GatewayOverrides } from './args.js';
import { routerConfigOf } from './config/gateway-config.js';
import { loadConfig } from './config/load-config.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { resolveProfile } from './config/profiles.js';
import type { mountConsole as MountConsole, MountedConsole } from './console/mount.js';
import type { ConsoleApart } from './console/serve-apart.js';
import type { ActivityFeed } from './console/sources/activity-feed.js';
import { admission, blueprintOf, healthOf, profileEndpoints } from './surfaces.js';
import type { SurfaceContext } from './surfaces.js';

export interface RunningGateway {
  readonly router: Router;
  readonly url?: string;
  close(): Promise<void>;
}

/** Reloads the config when its file changes (`config` is the running one); an invalid edit keeps the running config. */
export const watchConfig = async (
  file: string,
  overrides: GatewayOverrides,
  router: Router,
  config: GatewayConfig,
  logger: Logger,
): Promise<() => Promise<void>> => {
  let current = config;
  const reload = async (): Promise<void> => {
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
    if (JSON.stringify(next.console) !== JSON.stringify(previous.console))
      logger.warn('[console] changes apply at the next start of the gateway', { file });
    warnRestartOnly(previous, next, logger, file);
    const { added, removed, changed } = await router.reload(routerConfigOf(next));
    logger.notice('config reloaded', {
      file,
      added: added.join(',') || undefined,
      removed: removed.join(',') || undefined,
      restarted: changed.join(',') || undefined,
    });
  };
  return watchConfigFile(file, reload, logger);
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
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, scope: 'gateway' });
  // An unknown --profile is a start-up error, before anything is started.
  const profile = resolveProfile(config, options.overrides.profile)?.name ?? DEFAULT_PROFILE;
  logger.info('config file read', { file });
  for (const warning of config.warnings ?? []) logger.warn(warning);
  const host = await startGatewayHost(config, logger, options.version);
  const { metrics, tracing, cluster } = host;
  const pinLocation = pinLocationOf(config, file, cluster);
  const pins = pinLocation === undefined ? undefined : await openPinBook(pinLocation, logger.child('pins'));
  const http = config.transport.type === 'http';
  // With [console], every decision also reaches its Activity page (and [audit], when set).
  const activity = await consoleActivity(config, host.trail, logger);
  const trail = activity?.trail ?? host.trail;
  const policy = createAccessPolicy(config.policy);
  const approvals = policy === undefined ? undefined : new Approvals(policy, { logger: logger.child('approval') });
  const router = new Router(routerConfigOf(config), { logger, version: options.version, metrics, tracing, pins, trail, approvals });
  metrics?.backends(() => router.status().backends.map(({ id, state, restarts, inFlight }) => ({ id, state, restarts, inFlight })));
  // Audit lines go to stderr only: the handlers' logger also reaches clients, and another caller's decisions are not theirs.
  const access =
    policy === undefined
      ? undefined
      : { policy, audit: createLogger({ level: config.logLevel, format: config.logFormat, scope: 'gateway:audit' }) };
  if (policy !== undefined && config.metaTools) {
    logger.notice(
      '[[policy]]: the meta tools (catalog_tools, call_tool …) are given only by a rule naming them; through them a caller sees and calls only what the rules allow it',
    );
  }
  const surfaces: SurfaceContext = { router, config, version: options.version, logger, access, trail, host };
  const authenticator = config.auth === undefined ? undefined : createAuthenticator(config.auth, { logger: logger.child('auth') });
  const bound: BoundEndpoint = { url: '', console: '' };
  const operatorConsole = activity
    ? await openConsole({ router, pins, pinLocation, activity, config, authenticator, cluster, logger }, bound)
    : undefined;
  bound.served = await host.serve(await blueprintOf(surfaces, profile), {
    http: http
      ? {
          ...httpEndpoint(router, config, authenticator),
          endpoints: await profileEndpoints(surfaces),
          admit: admission(surfaces, profile),
          mounts: operatorConsole === undefined || config.console?.bind !== undefined ? [] : [operatorConsole.mount],
        }
      : undefined,
    issuer: config.auth?.issuer,
    policy: policy !== undefined,
    counts: () => ({ servers: config.servers.length, profiles: config.profiles.length }),
  });
  const { url } = bound.served;
  startupMark('serving');
  bound.url = config.transport.publicUrl ?? url ?? '';
  const apart = operatorConsole === undefined ? undefined : await serveConsole(operatorConsole, config, url, bound, logger);
  // Bound: the stdio servers start now, while the MCP client loads; their first connection takes them over.
  if (url !== undefined) spawnStdioServersEarly(config.servers);

  let closing = false;
  void router.start().then(() => {
    startupMark('servers ready');
    if (!closing) announceReady(router, logger);
  });
  const stopWatching = options.watch ? await watchConfig(file, options.overrides, router, config, logger) : async () => {};
  const close = (): Promise<void> => {
    closing = true;
    return host.close({
      // The console first: in a cluster it removes this replica from the others' view while Redis is still there.
      before: async () => Promise.all([stopWatching().catch(() => {}), operatorConsole?.close()]),
      after: async () => {
        await apart?.close();
        await router.close();
        await pins?.close();
        killAllChildren();
      },
    });
  };
  return { router, ...(url === undefined ? {} : { url }), close };
};

/** Definition pinning: in Redis with `[cluster]` (replicas agree), else in the pins file; none when every server has `pinning = "off"`. */
const pinLocationOf = (config: GatewayConfig, file: string, cluster: Cluster | undefined): PinLocation | undefined => {
  if (config.servers.every((server) => server.pinning === 'off')) return undefined;
  return cluster !== undefined ? { cluster } : { file: config.pinsFile ?? pinFileFor(file) };
};

/** The pins of `config`, opened (the terminal UI's and the gateway's); none when every server has `pinning = "off"`. */
export const openPins = async (
  config: GatewayConfig,
  file: string,
  cluster: Cluster | undefined,
  logger: Logger,
): Promise<PinBook | undefined> => {
  const location = pinLocationOf(config, file, cluster);
  return location === undefined ? undefined : openPinBook(location, logger.child('pins'));
};

/** What a reload cannot change in a running gateway: said once, applied at the next start. */
const warnRestartOnly = (previous: GatewayConfig, next: GatewayConfig, logger: Logger, file: string): void => {
  const names = (config: GatewayConfig): string => config.profiles.map((profile) => profile.name).join(',');
  if (names(next) !== names(previous))
    logger.warn('[profiles] added or removed apply at the next start of the gateway (changes to an existing profile apply now)', { file });
  if (JSON.stringify(next.audit) !== JSON.stringify(previous.audit))
    logger.warn('[audit] changes apply at the next start of the gateway', { file });
  if (next.pinsFile !== previous.pinsFile) logger.warn('[gateway] pins_file changes apply at the next start of the gateway', { file });
  const pinned = (config: GatewayConfig): boolean => config.servers.some((server) => server.pinning !== 'off');
  if (pinned(next) && !pinned(previous))
    logger.warn('pinning turned on while every server had pinning = "off": definitions are pinned from the next start of the gateway', {
      file,
    });
};

/** The HTTP endpoint once it is served: its URL (the OAuth resource) and who is connected. */
interface BoundEndpoint {
  url: string;
  /** Where browsers reach the console: the endpoint, or `[console] bind`'s address. */
  console: string;
  served?: Served;
}

/** `[console]`, when enabled: loaded on demand, so a gateway without it never reads its code; it reads `bound` once the endpoint is served. */
const openConsole = async (
  options: Omit<Parameters<typeof MountConsole>[0], 'config' | 'resource' | 'consoleOrigin' | 'clients'> & {
    readonly config: GatewayConfig;
  },
  bound: BoundEndpoint,
): Promise<MountedConsole | undefined> => {
  const { config } = options;
  if (config.console === undefined) return undefined;
  const { mountConsole } = await import('./console/mount.js');
  return mountConsole({
    ...options,
    config: { ...config, console: config.console },
    resource: () => bound.url,
    consoleOrigin: () => bound.console,
    clients: () => bound.served?.clients,
  });
};

/** The console's view of the audit when it is served: on the HTTP endpoint, or on `[console] bind` whatever the transport. */
const consoleActivity = async (config: GatewayConfig, next: AuditTrail | undefined, logger: Logger): Promise<ActivityFeed | undefined> => {
  if (config.console === undefined) return undefined;
  if (config.transport.type !== 'http' && config.console.bind === undefined) {
    logger.warn(
      '[console] is served on the HTTP endpoint: start with [transport] type = "http", or give it an address of its own with [console] bind',
    );
    return undefined;
  }
  return (await import('./console/sources/activity-feed.js')).createActivityFeed(next);
};

/**
 * The console where it is served: on its own address (`[console] bind`, listening now), else at
 * /console on the endpoint just bound. Says where; with neither (a stdio gateway without bind), why not.
 */
const serveConsole = async (
  operatorConsole: MountedConsole,
  config: GatewayConfig,
  url: string | undefined,
  bound: BoundEndpoint,
  logger: Logger,
): Promise<ConsoleApart | undefined> => {
  const bind = config.console?.bind;
  if (bind === undefined) {
    bound.console = bound.url;
    if (url !== undefined) logger.notice(`console at ${new URL('/console', url).href}`);
    return undefined;
  }
  const { serveConsoleApart } = await import('./console/serve-apart.js');
  const apart = await serveConsoleApart(operatorConsole.mount, {
    bind,
    publicUrl: config.console?.publicUrl,
    logger: logger.child('console'),
  });
  bound.console = config.console?.publicUrl ?? apart.url;
  logger.notice(`console at ${apart.url}/console`);
  return apart;
};

/** `[telemetry]` and `[cluster]`. */
const startGatewayHost = (config: GatewayConfig, logger: Logger, version: string): Promise<Host> =>
  startHost({
    noun: 'gateway',
    logger,
    http: config.transport.type === 'http',
    telemetry: { ...config.telemetry, serviceName: config.telemetry.serviceName ?? 'promptyard-gateway', serviceVersion: version },
    noteLevel: 'notice',
    cluster: { redisUrl: config.cluster?.redisUrl, keyPrefix: config.cluster?.keyPrefix },
    audit: config.audit,
  });

const announceReady = (router: Router, logger: Logger): void => {
  const summary = router.status();
  const ready = summary.backends.filter((backend) => backend.state === 'ready').length;
  logger.notice(`${ready} of ${summary.backends.length} servers ready`, {
    tools: summary.counts.tools,
    prompts: summary.counts.prompts,
    resources: summary.counts.resources,
  });
};

/** `[transport]` and `[auth]` as the HTTP endpoint's settings; `/health` shows every server. */
const httpEndpoint = (router: Router, config: GatewayConfig, authenticator: Authenticator | undefined): HttpEndpoint => {
  const { transport } = config;
  return {
    host: transport.host,
    port: transport.port,
    path: transport.path,
    ...(transport.allowedHosts === undefined ? {} : { allowedHosts: transport.allowedHosts }),
    ...(transport.allowedOrigins === undefined ? {} : { allowedOrigins: transport.allowedOrigins }),
    authToken: transport.authToken,
    auth: authenticator,
    publicUrl: transport.publicUrl,
    maxBodyBytes: transport.maxBodyBytes,
    health: healthOf(router),
  };
};
