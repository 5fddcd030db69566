import type { BackendConfig } from '../config-backend.js';
import { OAuthStore } from '../upstream-oauth/oauth-store.js';
import { spawnEarly } from '../sdk/early-spawn.js';
import type { connectUpstream as ConnectUpstream } from '../sdk/upstream.js';
import type { UpstreamSpec } from '../sdk/upstream-types.js';

/** The MCP client loads with the first server to start, not with the gateway: its endpoint answers sooner. */
export const connectUpstreamLazily = async (...args: Parameters<typeof ConnectUpstream>): ReturnType<typeof ConnectUpstream> => {
  const { connectUpstream } = await import('../sdk/upstream.js');
  if (args[2].signal?.aborted === true) throw new Error('stopped while connecting');
  return connectUpstream(...args);
};

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
