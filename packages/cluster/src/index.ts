export { createRedisCluster, joinCluster, waitForCluster } from './redis-cluster.js';
export type { RedisClusterOptions } from './redis-cluster.js';
