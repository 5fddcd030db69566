import type { Cluster, Logger } from '@promptyard/core';

export interface ClusterSettings {
  /** `[cluster] redis_url`; absent: this node serves alone. */
  readonly redisUrl: string | undefined;
  /** `[cluster] key_prefix`. */
  readonly keyPrefix?: string | undefined;
}

/**
 * `[cluster] redis_url`: the Redis replicas behind one load balancer share, joined before serving
 * (`joinCluster` waits briefly for it; a node that cannot reach it serves on its own, degraded).
 * Loaded only when set: a single node never loads the Redis client.
 */
export const joinCluster = async (
  settings: ClusterSettings,
  options: { readonly http: boolean; readonly noun: string; readonly logger: Logger },
): Promise<Cluster | undefined> => {
  const { redisUrl: url, keyPrefix } = settings;
  if (url === undefined) return undefined;
  if (!options.http) {
    options.logger.warn(`[cluster] redis_url applies to the HTTP transport only: a stdio ${options.noun} serves its one client alone`);
    return undefined;
  }
  const { joinCluster: join } = await import('@promptyard/cluster');
  return join({ url, keyPrefix, logger: options.logger });
};
