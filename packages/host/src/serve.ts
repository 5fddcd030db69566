import type { Cluster, Logger } from '@promptyard/core';
import { isLoopbackHost, isWildcardHost, serveHttp, serveStdio } from '@promptyard/mcp';
import type { ClientRoster, HttpServeOptions, McpServerBlueprint } from '@promptyard/mcp';
import type { HostTelemetry } from './start-telemetry.js';

/** The endpoint's settings; the host adds its metrics and cluster. */
export type HttpEndpoint = Omit<HttpServeOptions, 'metrics' | 'serveMetrics' | 'cluster'>;

export interface ServeOptions {
  /** The HTTP endpoint; absent: serve stdio. */
  readonly http?: HttpEndpoint | undefined;
  /** `[auth] issuer`, when set (its authenticator is the endpoint's `auth`). */
  readonly issuer?: string | undefined;
  /** `[[policy]]` rules exist: a caller that is not identified may use everything, which is worth a warning. */
  readonly policy: boolean;
  /** What the listening notice counts (`{ prompts }`, `{ servers }`). */
  readonly counts: () => Readonly<Record<string, number>>;
  /** Warn about a non-loopback bind that takes no token. */
  readonly warnOpenBind?: boolean;
}

export interface Served {
  /** The HTTP endpoint, when serving over HTTP: on a wildcard bind, its loopback URL. */
  readonly url?: string;
  /** Over HTTP, every URL a client can use (on a wildcard bind, one per address of this machine). */
  readonly urls?: readonly string[];
  /** Over HTTP, who is connected (what the gateway's console shows). */
  readonly clients?: ClientRoster;
  close(): Promise<void>;
}

interface ServeContext {
  /** 'server' or 'gateway': what the warnings call the program. */
  readonly noun: string;
  readonly logger: Logger;
  readonly telemetry: HostTelemetry;
  readonly cluster: Cluster | undefined;
}

/** `[transport]`: the blueprint over Streamable HTTP, with the warnings and the notice a user reads, or over stdio. */
export const serve = async (blueprint: McpServerBlueprint, options: ServeOptions, context: ServeContext): Promise<Served> => {
  const { logger, noun } = context;
  if (options.http === undefined) {
    if (options.issuer !== undefined || options.policy)
      logger.warn(`[auth] and [[policy]] apply to HTTP only: a stdio client is the user who started the ${noun}, and may use everything`);
    return serveStdio(blueprint);
  }
  const endpoint = options.http;
  const handle = await serveHttp(blueprint, {
    ...endpoint,
    metrics: context.telemetry.metrics,
    serveMetrics: context.telemetry.serveMetrics,
    cluster: context.cluster,
  });
  const identified = endpoint.authToken !== undefined || endpoint.auth !== undefined;
  if (options.policy && !identified)
    logger.warn('[[policy]] is set but callers are not identified: set [auth] issuer (or a token), else every caller may use everything');
  if (options.warnOpenBind === true && !isLoopbackHost(endpoint.host) && !identified) {
    logger.warn('serving on a non-loopback address without a token: set PROMPTYARD_AUTH_TOKEN, or [auth] issuer for OAuth', {
      host: endpoint.host,
    });
  }
  const auth = endpoint.auth !== undefined ? `oauth (${options.issuer ?? ''})` : endpoint.authToken === undefined ? 'none' : 'bearer';
  logger.notice(`listening on ${handle.url}`, { ...options.counts(), auth });
  if (isWildcardHost(endpoint.host)) noteReachable(logger, handle.urls, endpoint);
  return { ...handle, clients: handle };
};

/**
 * A wildcard bind (`0.0.0.0`, `::`) has no URL of its own: the addresses clients can use, and, when
 * the accepted Host names are the default, that any other name is refused until it is allowed.
 */
const noteReachable = (logger: Logger, urls: readonly string[], endpoint: HttpEndpoint): void => {
  const others = urls.slice(1);
  if (others.length > 0) logger.notice(`also reachable at ${others.join(', ')}`, { bound: endpoint.host });
  if (endpoint.allowedHosts === undefined)
    logger.notice(
      'clients may use these addresses; one that uses another name (a DNS name, a proxy) is refused with 403 Invalid Host until that name is in [transport] allowed_hosts (or PROMPTYARD_TRANSPORT_ALLOWED_HOSTS)',
    );
};
