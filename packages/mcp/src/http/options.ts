import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator, Cluster, Identity, Metrics } from '@promptyard/core';

import type { McpServerBlueprint } from '../server/blueprint.js';
import type { ClientRoster } from './client-roster.js';

/** A further MCP endpoint on the same listener: a server of its own (sessions, notifications) behind the same front. */
export interface HttpEndpointSpec {
  /** Its path, e.g. `/mcp/coding`. */
  readonly path: string;
  readonly blueprint: McpServerBlueprint;
  /** Who may use it, asked after authentication: a refusal's reason (a 403), or `undefined` to admit. */
  readonly admit?: ((caller: Identity | undefined) => string | undefined) | undefined;
}

/** What an `HttpRoute` answers: a status, a JSON body, and headers. */
export interface HttpRouteAnswer {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A request served beside the MCP endpoints that checks its own credentials (a signed webhook):
 * behind the rate limit, the body cap and the Host check, but not the token or OAuth.
 */
export interface HttpRoute {
  readonly method: 'POST';
  /** Its path, e.g. `/hooks/git`. */
  readonly path: string;
  /** Answers the request from its headers (lower-case names) and raw body (at most `maxBodyBytes`). */
  handle(headers: Readonly<Record<string, string | undefined>>, body: Buffer): Promise<HttpRouteAnswer>;
}

/**
 * A browser application under a path prefix (the gateway's `/console`): behind the rate limit, the
 * declared-size cap and the Host and Origin checks, it authenticates its own requests (a session
 * cookie, not a bearer token) and answers them whole.
 */
export interface HttpMount {
  /** Its path prefix, e.g. `/console`: the prefix itself and every path below it. */
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface HttpServeOptions {
  readonly host: string;
  /** 0 picks a free port; the handle reports the one bound. */
  readonly port: number;
  readonly path?: string;
  /**
   * Host header names accepted (DNS-rebinding protection). Default: loopback names on a loopback bind,
   * those and every address of this machine on a wildcard bind (`0.0.0.0`, `::`), else the bind host.
   */
  readonly allowedHosts?: readonly string[];
  /** Origin host names accepted from browsers; by default as for `allowedHosts`. Requests without Origin pass. */
  readonly allowedOrigins?: readonly string[];
  /** When set, every MCP request needs `Authorization: Bearer <token>`. */
  readonly authToken?: string | undefined;
  /**
   * OAuth resource-server mode: every MCP request needs an access token this authenticator accepts;
   * RFC 9728 metadata is served under `/.well-known/oauth-protected-resource`. The static token, when
   * also set, is still accepted.
   */
  readonly auth?: Authenticator | undefined;
  /** The URL clients reach the endpoint at (behind a proxy): the OAuth resource. Default: the URL bound. */
  readonly publicUrl?: string | undefined;
  readonly maxBodyBytes: number;
  /**
   * A token bucket per client. Behind proxies listed in `trustedProxies` (addresses), the client is
   * the one their `X-Forwarded-For` names; else the connecting address.
   */
  readonly rateLimit?:
    { readonly requestsPerMinute: number; readonly burst: number; readonly trustedProxies?: readonly string[] | undefined } | undefined;
  /** 2025-era sessions kept at most; the least recently used is closed beyond it. */
  readonly maxSessions?: number;
  /** A 2025-era session unused for this long is closed. */
  readonly sessionIdleMs?: number;
  /** Extra fields for `GET /health`. */
  readonly health?: () => Readonly<Record<string, unknown>>;
  /** Where the endpoint's sessions and streams are counted. */
  readonly metrics?: Metrics | undefined;
  /** Serve `metrics` at `GET /metrics`, behind the same token or OAuth as the endpoint (unless they have a listener of their own). */
  readonly serveMetrics?: boolean | undefined;
  /**
   * Replicas behind one load balancer (`[cluster] redis_url`): 2025 sessions, resumable SSE, change
   * notifications, answers to server→client requests and the rate limit are shared through it.
   */
  readonly cluster?: Cluster | undefined;
  /**
   * Further endpoints served beside `path` (the gateway's profiles at `/mcp/<name>`), each its own
   * server; the checks in front (rate, size, Host and Origin, token or OAuth) are the same for all.
   */
  readonly endpoints?: readonly HttpEndpointSpec[] | undefined;
  /** Requests that are not MCP (`POST /hooks/git`), each authenticating itself. */
  readonly routes?: readonly HttpRoute[] | undefined;
  /** Applications under a path prefix (`/console`), each authenticating itself. */
  readonly mounts?: readonly HttpMount[] | undefined;
  /** Who may use the main endpoint (`path`), as an endpoint's `admit`. */
  readonly admit?: HttpEndpointSpec['admit'];
}

/** The listening endpoint; who is connected to it (`clients()`) is what an operator's console shows. */
export interface HttpHandle extends ClientRoster {
  /** Where a client on this machine connects: the bound URL, or on a wildcard bind (`0.0.0.0`, `::`) the first of `urls`. */
  readonly url: string;
  /** Every URL a client can use: on a wildcard bind one per reachable, accepted address; else just `url`. */
  readonly urls: readonly string[];
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}
