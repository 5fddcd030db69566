/**
 * Serving over Streamable HTTP: `serveHttp`, the front every request passes in order (rate limit, body
 * size, Host and Origin, `/health`, `/metrics`, OAuth metadata, authentication, body parsing, trace
 * headers), the `tools/call` relay, and the routing to the SDK's 2026-07-28 handler or to 2025-era sessions.
 */
import { createServer } from 'node:http';
import type { Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as NodeAdapter from '@modelcontextprotocol/node';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { PromptyardError } from '@promptyard/core';
import { announceChanges, announceLocally } from '../cluster/cluster-changes.js';
import type { ServerSdk } from '../sdk.js';
import { loadServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';
import { createHttpAuthGate } from './auth-gate.js';
import { createClientRoster, type ClientRosterFeed } from './client-roster.js';
import { createHostCheck } from './host-check.js';
import { identityOfAuthInfo } from './auth-identity.js';
import { frontListener, type FrontEndpoint, type HttpFront } from './front.js';
import { isLoopbackHost, isWildcardHost } from './hosts.js';
import type { HttpEndpointSpec, HttpHandle, HttpServeOptions } from './options.js';
import { createRateLimiter } from './rate-limit.js';
import { reachableAddresses, urlHost } from './reachable.js';
import { createSdkPath, type SdkPath } from './sdk-path.js';
import { createStreamCounter } from './stream-counter.js';
import { createHttpRelay, type HttpRelay } from './tool-relay.js';

/** The HTTP front relays `tools/call` alone (`createHttpRelay`); a relay of other requests serves stdio only. */
const frontRelay = (sdk: typeof ServerSdk, blueprint: McpServerBlueprint, sessions: SdkPath['sessions']): HttpRelay | undefined => {
  const mcpRelay = blueprint.governed || blueprint.relay?.methods.includes('tools/call') !== true ? undefined : blueprint.relay;
  if (mcpRelay === undefined) return undefined;
  return createHttpRelay({
    sdk,
    relay: mcpRelay,
    serverInfo: blueprint.serverInfo,
    sessionChannel: (id, req) => {
      const session = sessions.use(id);
      if (session === undefined || session.subject !== identityOfAuthInfo((req as NodeIncomingMessageLike).auth)?.subject) return undefined;
      return (session.channel ??= mcpRelay.open(blueprint.clientOf(session.server)));
    },
  });
};

/** List changes and resource updates announced to the endpoint's listeners: through the cluster, when there is one. */
const announce = (blueprint: McpServerBlueprint, sdkPath: SdkPath, options: HttpServeOptions): (() => void) => {
  const { cluster } = options;
  if (cluster === undefined) return announceLocally(blueprint, sdkPath.notify);
  return announceChanges({
    cluster,
    blueprint,
    notify: sdkPath.notify,
    logger: blueprint.logger,
    local: (message) => {
      for (const session of sdkPath.sessions.local()) session.server.notification(message as never).catch(() => {});
    },
  });
};

/**
 * How long an idle keep-alive connection stays open: longer than a balancer keeps its idle
 * connections to the replicas (nginx's upstream `keepalive_timeout`, 60 s in
 * deploy/nginx/promptyard.conf; load balancers' usual idle timeout is 60 s). With Node's 5 s, the
 * balancer would send a request on a connection the server had just closed, and answer it 502.
 */
const httpKeepAliveMs = 75_000;

/** Binds `server`; a port in use is a configuration error the user can fix. */
const listen = (server: NodeServer, options: HttpServeOptions, failed: () => void): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      failed();
      reject(
        error.code === 'EADDRINUSE'
          ? new PromptyardError('CONFIG_INVALID', `port ${options.port} is in use — choose another with --port or [transport] port`, {
              cause: error,
            })
          : error,
      );
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });

/** One endpoint's server: its SDK path (sessions, the 2026-07-28 handler), its relay and its notifications. */
interface ServedEndpoint {
  readonly path: string;
  readonly sdkPath: SdkPath;
  readonly front: FrontEndpoint;
  readonly stopNotifications: () => void;
}

const serveEndpoint = (
  modules: { sdk: typeof ServerSdk; node: typeof NodeAdapter },
  spec: HttpEndpointSpec,
  options: HttpServeOptions,
  roster: ClientRosterFeed,
): ServedEndpoint => {
  const { path, blueprint } = spec;
  const sdkPath = createSdkPath(modules.sdk, modules.node, blueprint, options, roster.changed);
  roster.addEndpoint(path, () => sdkPath.sessions.local());
  return {
    path,
    sdkPath,
    front: { admit: spec.admit, relay: frontRelay(modules.sdk, blueprint, sdkPath.sessions), sdkPath: sdkPath.serve },
    stopNotifications: announce(blueprint, sdkPath, options),
  };
};

/**
 * Names accepted when `allowedHosts` / `allowedOrigins` is not set: the loopback names on a loopback
 * bind, those and every address of this machine on a wildcard bind (what the notice prints), else the
 * bind host.
 */
const defaultAllowed = (host: string, loopbackNames: readonly string[]): string[] => {
  if (isLoopbackHost(host)) return [...loopbackNames];
  if (isWildcardHost(host)) return [...new Set([...loopbackNames, ...reachableAddresses(host).map(urlHost)])];
  return [host];
};

/**
 * The URLs a client can use: the bound one, or on a wildcard bind each address that is reachable and
 * accepted (the allowed Host names when they are set, else every address of this machine).
 */
const clientUrls = (options: HttpServeOptions, bound: string, port: number, path: string): string[] => {
  if (!isWildcardHost(options.host)) return [bound];
  const names = (options.allowedHosts?.length ?? 0) > 0 ? (options.allowedHosts as readonly string[]) : reachableAddresses(options.host);
  return names.map((name) => `http://${urlHost(name)}:${port}${path}`);
};

/** The front's steps' settings, from the options. */
const createFront = (
  sdk: typeof ServerSdk,
  blueprint: McpServerBlueprint,
  options: HttpServeOptions,
  endpoints: readonly ServedEndpoint[],
  bound: { url: string },
  roster: ClientRosterFeed,
): HttpFront => {
  const [main] = endpoints as [ServedEndpoint];
  const { path, sdkPath } = main;
  const { logger } = blueprint;
  const { cluster, metrics, rateLimit } = options;
  // The endpoint's open SSE streams, counted only with metrics.
  const streams = metrics === undefined ? undefined : createStreamCounter();
  if (streams !== undefined) metrics?.http({ sessions: () => sdkPath.sessions.size, streams: () => streams.size });
  if (cluster !== undefined) metrics?.cluster(() => cluster.status());
  return {
    sdk,
    logger,
    path,
    endpoints: new Map(endpoints.map((endpoint) => [endpoint.path, endpoint.front])),
    maxBodyBytes: options.maxBodyBytes,
    hostCheck: createHostCheck({
      sdk,
      allowedHosts: options.allowedHosts ?? defaultAllowed(options.host, sdk.localhostAllowedHostnames()),
      allowedOrigins: options.allowedOrigins ?? defaultAllowed(options.host, sdk.localhostAllowedOrigins()),
      logger,
    }),
    rateLimit:
      rateLimit === undefined
        ? undefined
        : { limiter: createRateLimiter(rateLimit), options: rateLimit, trustedProxies: new Set(rateLimit.trustedProxies ?? []) },
    cluster,
    gate: createHttpAuthGate({
      sdk,
      authToken: options.authToken,
      authenticator: options.auth,
      resource: () => options.publicUrl ?? bound.url,
      paths: endpoints.map((endpoint) => endpoint.path),
      logger,
    }),
    health: { startedAt: Date.now(), sessions: sdkPath.sessions, cluster, extra: options.health },
    servedMetrics: options.serveMetrics === true ? metrics : undefined,
    streams,
    traced: blueprint.tracing !== undefined,
    routes: new Map((options.routes ?? []).map((route) => [route.path, route])),
    mounts: options.mounts ?? [],
    clients: roster,
  };
};

/**
 * Streamable HTTP on one endpoint for both protocol eras: 2026-07-28 requests are served statelessly
 * by the SDK's per-request handler; 2025-era clients get sessions (`Mcp-Session-Id`) with a standalone
 * SSE stream for notifications. In front of both: Host/Origin checks, an optional bearer token, a
 * per-client token bucket, a body cap and `/health`.
 */
export const serveHttp = async (blueprint: McpServerBlueprint, options: HttpServeOptions): Promise<HttpHandle> => {
  // The Node adapter loads here, not at import: a stdio server never pays for it.
  const [sdk, node] = await Promise.all([loadServerSdk(), import('@modelcontextprotocol/node')]);
  const { logger } = blueprint;
  const roster = createClientRoster();
  const endpoints = [
    serveEndpoint({ sdk, node }, { path: options.path ?? '/mcp', blueprint, admit: options.admit }, options, roster),
    ...(options.endpoints ?? []).map((spec) => serveEndpoint({ sdk, node }, spec, options, roster)),
  ];
  const stop = async (): Promise<void> => {
    roster.close();
    for (const endpoint of endpoints) endpoint.stopNotifications();
    await Promise.all(endpoints.map((endpoint) => endpoint.sdkPath.sessions.close()));
  };
  const bound = { url: '' };
  const front = createFront(sdk, blueprint, options, endpoints, bound, roster);
  const httpServer = createServer({ keepAliveTimeout: httpKeepAliveMs }, frontListener(front));
  await listen(httpServer, options, () => void stop());
  httpServer.on('error', (error) => logger.error('http server error', { reason: error.message }));
  const address = httpServer.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  bound.url = `http://${hostForUrl}:${address.port}${front.path}`;
  const urls = clientUrls(options, bound.url, address.port, front.path);
  return {
    url: urls[0] ?? bound.url,
    urls,
    port: address.port,
    host: address.address,
    clients: roster.clients,
    onClientsChange: roster.onClientsChange,
    close: async () => {
      await stop();
      await Promise.all(endpoints.map((endpoint) => endpoint.sdkPath.close().catch(() => {})));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
};
