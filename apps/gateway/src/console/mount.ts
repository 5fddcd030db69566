/**
 * `[console]` on a running gateway: the console mounted on the HTTP endpoint, reading the router
 * through the terminal UI's model, signing in as the endpoint authenticates; with `[cluster]`, sharing
 * this replica's servers and activity with the others and showing theirs. Loaded only when
 * `[console] enabled = true`, so a gateway without it never reads the console's code or files.
 */
import { createAuthenticator } from '@promptyard/auth';
import type { Authenticator, Cluster, Logger } from '@promptyard/core';
import type { ClientRoster, HttpMount } from '@promptyard/mcp';
import type { PinBook, PinLocation, Router } from '@promptyard/router';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { ConsoleConfig } from '../config/console.js';
import { createUiModel } from '../ui/model.js';
import type { ActivityFeed } from './sources/activity-feed.js';
import { createChangeDesk } from './sources/change-desk.js';
import { createCatalogSource } from './sources/catalog-source.js';
import { createClusterView, snapshotMapName } from './sources/cluster-view.js';
import type { ClusterView } from './sources/cluster-view.js';
import { createConsole } from './console.js';
import { consolePath } from './pages/html.js';
import { createOidcSignIn } from './access/oidc-sign-in.js';
import type { OidcSignIn } from './access/oidc-sign-in.js';
import { createSignIn } from './access/sign-in.js';

export interface MountedConsole {
  readonly mount: HttpMount;
  /** Stops following the router and, in a cluster, removes this replica from the others' view (before the cluster closes). */
  close(): Promise<void>;
}

export const mountConsole = (options: {
  readonly router: Router;
  readonly pins: PinBook | undefined;
  /** Where the pins are kept: the Changes page approves there, as `pins approve` does. */
  readonly pinLocation: PinLocation | undefined;
  /** The audit stream the gateway records through (the Activity page's). */
  readonly activity: ActivityFeed | undefined;
  readonly config: GatewayConfig & { readonly console: ConsoleConfig };
  readonly authenticator: Authenticator | undefined;
  /** `[cluster]`: the console shows every replica's servers and activity. */
  readonly cluster?: Cluster | undefined;
  /** The endpoint's URL once it is bound (the OAuth resource). */
  readonly resource: () => string;
  /** Where browsers reach the console once it is bound: the endpoint's origin, or `[console] bind`'s own. */
  readonly consoleOrigin: () => string;
  /** Who is connected to the endpoint, once it is bound (the Sessions page). */
  readonly clients: () => ClientRoster | undefined;
  readonly logger: Logger;
}): MountedConsole => {
  const { router, pins, pinLocation, activity, config, authenticator, resource, consoleOrigin, clients, logger } = options;
  const model = createUiModel(router, { pins });
  const url = (): string | undefined => consoleOrigin() || undefined;
  const cluster = options.cluster === undefined ? undefined : clusterViewOf(options.cluster, model, activity, { url, clients }, logger);
  const changes =
    activity === undefined
      ? undefined
      : createChangeDesk({
          pins,
          location: pinLocation,
          quarantined: () => model.quarantined(),
          trail: activity.trail,
          logger: logger.child('pins'),
        });
  const signIn = createSignIn({ authToken: config.transport.authToken, authenticator, resource, admins: config.console.admins });
  const oidc = providerSignIn(config, authenticator, { resource, consoleOrigin }, signIn, logger);
  const mount = createConsole({
    model,
    signIn,
    oidc,
    // The token form stays for the static token, and with [auth] when no console client is set (pasting an access token is then the only way).
    tokenForm: (config.transport.authToken ?? '') !== '' || oidc === undefined,
    catalog: createCatalogSource(router, pins),
    sessionMs: config.console.sessionMs,
    secure: (config.console.bind === undefined ? config.transport.publicUrl : config.console.publicUrl)?.startsWith('https:') === true,
    logger: logger.child('console'),
    changes,
    activity,
    cluster,
    url,
    approvals: { list: () => router.pendingApprovals(), subscribe: (listener) => router.onPendingApprovals(listener) },
    // A stdio gateway (with [console] bind) has no endpoint: its one client is the process that started it.
    clients:
      config.transport.type === 'http'
        ? {
            clients: () => clients()?.clients() ?? [],
            onClientsChange: (listener) => clients()?.onClientsChange(listener) ?? (() => {}),
          }
        : undefined,
  });
  return {
    mount,
    close: async () => {
      model.close();
      await cluster?.close();
    },
  };
};

/** This replica's servers, activity and clients shared with the others through the cluster's map, theirs read back. */
const clusterViewOf = (
  cluster: Cluster,
  model: ReturnType<typeof createUiModel>,
  activity: ActivityFeed | undefined,
  endpoint: { readonly url: () => string | undefined; readonly clients: () => ClientRoster | undefined },
  logger: Logger,
): ClusterView =>
  createClusterView({
    map: cluster.sharedMap(snapshotMapName),
    nodeId: cluster.nodeId,
    url: endpoint.url,
    servers: () => model.servers(),
    // Its clients reach the others at each heartbeat: the endpoint is bound after the view starts.
    clients: () => endpoint.clients()?.clients() ?? [],
    activity: activity === undefined ? undefined : () => activity.entries(),
    changes: (listener) => {
      const stops = [model.subscribe(listener), activity?.subscribe(listener) ?? (() => {})];
      return () => stops.forEach((stop) => stop());
    },
    logger: logger.child('console'),
  });

/** Sign-in through the `[auth]` issuer when `[console] client_id` is set: the ID token checked by the auth package, audience the client id. */
const providerSignIn = (
  config: GatewayConfig & { readonly console: ConsoleConfig },
  authenticator: Authenticator | undefined,
  { resource, consoleOrigin }: { readonly resource: () => string; readonly consoleOrigin: () => string },
  signIn: ReturnType<typeof createSignIn>,
  logger: Logger,
): OidcSignIn | undefined => {
  const { auth } = config;
  const client = config.console.client;
  if (auth === undefined || client === undefined || authenticator === undefined) return undefined;
  const idTokens = createAuthenticator(
    { ...auth, audience: client.id, requiredScopes: [], introspection: undefined },
    { logger: logger.child('console') },
  );
  return createOidcSignIn({
    issuer: auth.issuer,
    client,
    redirectUri: () => new URL(`${consolePath}/callback`, consoleOrigin()).href,
    postLogoutRedirectUri: () => new URL(`${consolePath}/login`, consoleOrigin()).href,
    resource: () => authenticator.audience ?? resource(),
    scopes: [...new Set(['openid', 'profile', ...auth.requiredScopes])],
    timeoutMs: auth.timeoutMs,
    signIn,
    verifyIdToken: (idToken) => idTokens.authenticate(`Bearer ${idToken}`, client.id),
  });
};
