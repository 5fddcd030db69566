import { randomUUID } from 'node:crypto';
import { createLogger } from '@promptyard/core';
import type { Cluster, ClusterStatus, Logger } from '@promptyard/core';
import { createRedisCluster } from './redis-cluster.js';
import type { RedisClusterOptions } from './redis-cluster.js';

/** A logger that keeps its lines, for assertions on what a node logged. */
export const recordingLogger = (): { readonly logger: Logger; readonly lines: string[] } => {
  const lines: string[] = [];
  return { logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }), lines };
};

/** Resolves when `cluster` next reaches `status` (at once when it is there). */
export const reach = (cluster: Cluster, status: ClusterStatus, timeoutMs = 10_000): Promise<void> =>
  cluster.status() === status
    ? Promise.resolve()
    : new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error(`node ${cluster.nodeId} did not become ${status} within ${timeoutMs} ms (it is ${cluster.status()})`));
        }, timeoutMs);
        const unsubscribe = cluster.onStatus((next) => {
          if (next !== status) return;
          clearTimeout(timer);
          unsubscribe();
          resolve();
        });
      });

/** Everything a listener heard, and a way to wait until it heard something that matches. */
export class Heard<T> {
  readonly values: T[] = [];
  #waiters: { readonly match: (value: T) => boolean; readonly resolve: () => void }[] = [];

  readonly listener = (value: T): void => {
    this.values.push(value);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.match(value)) return true;
      waiter.resolve();
      return false;
    });
  };

  waitFor(match: (value: T) => boolean, timeoutMs = 5000): Promise<void> {
    if (this.values.some(match)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nothing matching was heard within ${timeoutMs} ms; heard ${JSON.stringify(this.values)}`)),
        timeoutMs,
      );
      this.#waiters.push({
        match,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

/** Nodes of one cluster (a fresh key prefix per call) on the Redis at `url`; `closeAll` in afterEach. */
export const clusterNodes = (url: string) => {
  const open: Cluster[] = [];
  return {
    open,
    /** `count` ready nodes sharing one key prefix. */
    start: async (count: number, options: Partial<RedisClusterOptions> = {}): Promise<Cluster[]> => {
      const keyPrefix = `test-${randomUUID()}`;
      const nodes = Array.from({ length: count }, (_, i) =>
        createRedisCluster({ url, keyPrefix, logger: recordingLogger().logger, nodeId: `node-${i + 1}`, ...options }),
      );
      open.push(...nodes);
      await Promise.all(nodes.map((node) => reach(node, 'ready')));
      return nodes;
    },
    closeAll: async (): Promise<void> => {
      await Promise.all(open.splice(0).map((node) => node.close()));
    },
  };
};
