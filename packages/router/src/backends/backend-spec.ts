import type { BackendConfig } from '../config-backend.js';
import { OAuthStore, watchForLogin } from '../upstream-oauth/oauth-store.js';
import { spawnEarly } from '../sdk/early-spawn.js';
import type { connectUpstream as ConnectUpstream } from '../sdk/upstream.js';
import type { UpstreamConnection, UpstreamPeer, UpstreamSpec } from '../sdk/upstream-types.js';
import type { BackendTimings } from './backend-status.js';

/** The MCP client loads with the first server to start, not with the gateway: its endpoint answers sooner. */
export const connectUpstreamLazily = async (...args: Parameters<typeof ConnectUpstream>): ReturnType<typeof ConnectUpstream> => {
  const { connectUpstream } = await import('../sdk/upstream.js');
  if (args[2].signal?.aborted === true) throw new Error('stopped while connecting');
  return connectUpstream(...args);
};

/** A connection attempt's options: the gateway's name, the connect timeout, the message bound, and `signal` to stop it. */
export const connectOptionsOf = (
  server: string,
  clientInfo: { readonly name: string; readonly version: string },
  timings: Pick<BackendTimings, 'connectMs' | 'maxMessageBytes'>,
  signal: AbortSignal,
): Parameters<typeof ConnectUpstream>[2] => ({
  ...clientInfo,
  connectTimeoutMs: timings.connectMs,
  signal,
  limit: { server, maxBytes: timings.maxMessageBytes },
});

/** A second connection to the server `config()` names, at 2025-11-25 (for 2025-11-25 clients: `revision-match.ts`). */
export const connectAt2025 =
  (config: () => BackendConfig, clientInfo: { readonly name: string; readonly version: string }, timings: BackendTimings) =>
  (peer: UpstreamPeer, signal: AbortSignal): Promise<UpstreamConnection> =>
    connectUpstreamLazily(
      { ...upstreamSpecOf(config()), protocol: '2025-11-25' },
      peer,
      connectOptionsOf(config().id, clientInfo, timings, signal),
    );

/** How to reach a configured server: the command to start, or the URL with its headers and OAuth token store. */
export const upstreamSpecOf = (config: BackendConfig): UpstreamSpec =>
  config.transport === 'stdio'
    ? {
        kind: 'stdio',
        command: config.command ?? '',
        args: config.args,
        env: config.env,
        inheritEnv: config.inheritEnv,
        cwd: config.cwd,
        protocol: config.protocol,
      }
    : {
        kind: config.transport,
        url: config.url ?? '',
        headers: config.headers,
        protocol: config.protocol,
        oauth:
          config.oauth === undefined
            ? undefined
            : { server: config.id, settings: config.oauth, store: new OAuthStore(config.id, config.url ?? '') },
      };

/** Watches an `auth = "oauth"` server's token file for the token a login writes; returns how to stop (a no-op without OAuth). */
export const watchTokenFile = (config: BackendConfig, found: () => void): (() => void) => {
  const spec = upstreamSpecOf(config);
  return spec.kind !== 'stdio' && spec.oauth !== undefined ? watchForLogin(spec.oauth.store, found) : () => {};
};

/**
 * Starts every enabled stdio server's process now, before the MCP client is loaded: each server's
 * own start-up overlaps the gateway's, and its first connection attempt takes the process over.
 */
export const spawnStdioServersEarly = (servers: readonly BackendConfig[]): void => {
  for (const config of servers) {
    // The same spec the server's first connection adopts the process by.
    const spec = upstreamSpecOf(config);
    if (config.enabled && spec.kind === 'stdio') spawnEarly(spec);
  }
};

/** What the backend's requests tell of the attempt they came from (read when it fails). */
export interface AttemptNotes {
  /** Its stderr says it is this gateway, started again. */
  startsThisGateway: boolean;
  loginError: Error | undefined;
}
