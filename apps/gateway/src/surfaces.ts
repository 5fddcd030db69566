/**
 * What the gateway serves: the default surface (everything) and each `[profiles.<name>]`, each an
 * MCP server of its own over the one router — over stdio the one `--profile` names, over HTTP the
 * default one at `[transport] path` and each profile at `<path>/<name>`.
 */
import type { AccessPolicy, AuditTrail, Cluster, Logger, Metrics } from '@promptyard/core';
import type { HttpEndpoint } from '@promptyard/host';
import { createMcpServerBlueprint } from '@promptyard/mcp';
import type { HttpEndpointSpec, McpServerBlueprint, McpTracing } from '@promptyard/mcp';
import { createGatewayHandlers } from '@promptyard/router';
import type { Router } from '@promptyard/router';
import type { GatewayConfig } from './config/gateway-config.js';

export interface SurfaceContext {
  readonly router: Router;
  readonly config: GatewayConfig;
  readonly version: string;
  readonly logger: Logger;
  /** `[[policy]]` with its audit logger; absent without rules. */
  readonly access: { readonly policy: AccessPolicy; readonly audit: Logger } | undefined;
  readonly trail: AuditTrail | undefined;
  readonly host: { readonly metrics: Metrics | undefined; readonly tracing: McpTracing | undefined; readonly cluster: Cluster | undefined };
}

/** One surface as an MCP server blueprint. */
export const blueprintOf = (context: SurfaceContext, profile: string): Promise<McpServerBlueprint> => {
  const { router, config, version, logger, access, trail, host } = context;
  const http = config.transport.type === 'http';
  const handlers = createGatewayHandlers(router, {
    name: config.name,
    version,
    logger,
    profile,
    access: access === undefined ? undefined : { ...access, trail, profile },
    // Over HTTP the relay sees no caller: with an audit trail every call takes the path that names it.
    relay: !(http && trail !== undefined),
  });
  return createMcpServerBlueprint(handlers, host);
};

/** The path a profile is served at over HTTP. */
const profilePath = (path: string, profile: string): string => `${path.replace(/\/+$/u, '')}/${profile}`;

/**
 * `[[policy]] profiles`: who may use a surface, asked of every request after authentication. No hook
 * at all when no rule names profiles: every caller may use every profile, at no cost per request.
 */
export const admission = (context: SurfaceContext, profile: string): HttpEndpointSpec['admit'] => {
  const { access, config } = context;
  if (access === undefined || !config.policy.some((rule) => rule.covers.profiles !== undefined)) return undefined;
  return (caller) => {
    const decision = caller === undefined ? undefined : access.policy.admits(caller, profile);
    if (caller === undefined || decision === undefined || decision.allowed) return undefined;
    access.audit.notice('profile refused', { subject: caller.subject, client: caller.clientId, profile, reason: decision.reason });
    return `The profile "${profile}" is not available to you: the gateway's [[policy]] does not allow it for you. Ask the gateway's administrator if you need it.`;
  };
};

/** Each profile's endpoint beside the default one. */
export const profileEndpoints = async (context: SurfaceContext): Promise<NonNullable<HttpEndpoint['endpoints']>> =>
  Promise.all(
    context.config.profiles.map(async (profile) => ({
      path: profilePath(context.config.transport.path, profile.name),
      blueprint: await blueprintOf(context, profile.name),
      admit: admission(context, profile.name),
    })),
  );

/** `/health`: every server, and each profile's view. */
export const healthOf = (router: Router) => (): Readonly<Record<string, unknown>> => {
  const status = router.status();
  return {
    servers: status.backends,
    collisions: status.collisions,
    counts: status.counts,
    lazy: status.lazy,
    quarantined: status.quarantined,
    profiles: Object.fromEntries(
      status.profiles.map((profile) => [
        profile.profile,
        { servers: profile.backends.map((backend) => backend.id), counts: profile.counts, quarantined: profile.quarantined.length },
      ]),
    ),
  };
};
