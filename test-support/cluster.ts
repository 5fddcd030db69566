/**
 * A cluster as deployed (docs/cluster.md): a real Redis, N replicas of a BUILT binary
 * (`apps/server/dist/cli.js` or `apps/gateway/dist/cli.js`, `pnpm build` first) over HTTP on loopback
 * ports of their own, all given `PROMPTYARD_CLUSTER_REDIS_URL`, and nginx round-robin in front of
 * them from deploy/nginx/promptyard.conf. A replica can be SIGKILLed and restarted on its port,
 * Redis stopped and started; `close()` ends every process by PID (a gateway with its backends).
 * Shared by the cluster tests and the cluster benchmark.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killTree, listDescendants } from '../apps/gateway/test/backends/spawn.js';
import { scrape } from './metrics.js';
import { startNginx } from './nginx.js';
import type { Nginx } from './nginx.js';
import { isAlive, Output } from './output.js';
import { startRedisServer } from './redis-server.js';
import type { RedisServer } from './redis-server.js';

type ClusterApp = 'server' | 'gateway';

const binaries: Record<ClusterApp, string> = {
  server: fileURLToPath(new URL('../apps/server/dist/cli.js', import.meta.url)),
  gateway: fileURLToPath(new URL('../apps/gateway/dist/cli.js', import.meta.url)),
};

export interface ClusterOptions {
  readonly app: ClusterApp;
  /** Replicas behind nginx; default 3. */
  readonly replicas?: number;
  /** The config file every replica reads (promptyard.toml or gateway.toml), if any. */
  readonly config?: string;
  /** Further arguments for every replica (`--prompts <dir>` …). */
  readonly args?: readonly string[];
  /** Further environment for every replica. */
  readonly env?: Readonly<Record<string, string>>;
  /** Further environment of one replica (its own `[state] dir` …), over `env`. */
  readonly envOf?: (index: number) => Readonly<Record<string, string>>;
  /** `false`: the replicas are not given the Redis (each keeps its state in memory), for comparison. Default `true`. */
  readonly shared?: boolean;
}

interface ClusterNode {
  readonly index: number;
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the replica itself, past nginx (for /metrics and /health). */
  readonly origin: string;
  /** The current process's PID (a new one after `restart`). */
  readonly pid: number;
  /** stderr and stdout of every process this replica has run, in order. */
  readonly log: Output;
  readonly alive: boolean;
}

interface HealthBody {
  readonly status: string;
  readonly cluster?: unknown;
  readonly [key: string]: unknown;
}

export interface Cluster {
  /** The MCP endpoint through nginx. */
  readonly url: string;
  /** nginx's origin. */
  readonly origin: string;
  readonly nodes: readonly ClusterNode[];
  readonly redis: RedisServer;
  readonly nginx: Nginx;
  /** The MCP endpoint of one replica, past nginx. */
  nodeUrl(index: number): string;
  /** SIGKILLs replica `index` (a gateway with its backends) and waits for it to exit. */
  kill(index: number): Promise<void>;
  /** Starts replica `index` again on its port (after `kill`) and waits until it serves. */
  restart(index: number): Promise<void>;
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  /** GET /metrics of replica `index`. */
  metrics(index: number): Promise<string>;
  /** GET /health of replica `index`. */
  health(index: number): Promise<HealthBody>;
  /** Ends nginx, every replica and Redis by PID and removes the temporary folder. Idempotent. */
  close(): Promise<void>;
}

const childEnv = (env: Readonly<Record<string, string>>): Record<string, string> => {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) base[key] = process.env[key] as string;
  return { ...base, ...env };
};

class Replica implements ClusterNode {
  readonly log = new Output();
  private child: ChildProcess | undefined;

  readonly index: number;
  /** 0 until the first start binds a free port (the replica picks it: no other process can take it in between); kept for restarts. */
  port: number;
  private readonly command: readonly string[];
  private readonly env: Record<string, string>;
  private readonly app: ClusterApp;

  constructor(index: number, port: number, command: readonly string[], env: Record<string, string>, app: ClusterApp) {
    this.index = index;
    this.port = port;
    this.command = command;
    this.env = env;
    this.app = app;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child?.pid as number;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    // This run's output alone: a restarted replica prints its start-up lines again.
    const run = new Output();
    const child = spawn(process.execPath, [...this.command, '--transport', 'http', '--host', '127.0.0.1', '--port', String(this.port)], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const output = (chunk: Buffer): void => {
      run.push(chunk);
      this.log.push(chunk);
    };
    child.stdout?.on('data', output);
    child.stderr?.on('data', output);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`replica ${this.index} (${this.app}) exited with ${code ?? signal}:\n${run.text}`)),
      ),
    );
    exited.catch(() => {});
    const [, bound] = await Promise.race([run.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/, 20_000), exited]);
    this.port = Number(bound);
    // A gateway serves before its backends are up; a replica counts as started once each has had its first attempt.
    if (this.app === 'gateway') await Promise.race([run.waitFor(/\d+ of \d+ servers ready/, 20_000), exited]);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || !this.alive) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killTree(child.pid as number);
    await exited;
  }

  /** The PIDs of the replica and its descendants, for a last sweep. */
  pids(): number[] {
    const pid = this.child?.pid;
    return pid === undefined || !isAlive(pid) ? [] : [pid, ...listDescendants(pid)];
  }
}

/** Starts Redis, the replicas and nginx; see the module comment. Call `close()` in `afterAll`. */
export const startCluster = async (options: ClusterOptions): Promise<Cluster> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-cluster-'));
  const command = [binaries[options.app], ...(options.args ?? [])];
  if (options.config !== undefined) {
    const file = join(dir, options.app === 'server' ? 'promptyard.toml' : 'gateway.toml');
    await writeFile(file, options.config);
    command.push('--config', file);
  }
  const count = options.replicas ?? 3;
  let redis: RedisServer | undefined;
  let nginx: Nginx | undefined;
  const replicas: Replica[] = [];
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.kill()));
    for (const pid of replicas.flatMap((replica) => replica.pids())) killTree(pid);
    await redis?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    redis = await startRedisServer();
    const env = childEnv({ ...(options.shared === false ? {} : { PROMPTYARD_CLUSTER_REDIS_URL: redis.url }), ...options.env });
    for (let index = 0; index < count; index += 1) {
      const own = { ...env, ...options.envOf?.(index) };
      replicas.push(new Replica(index, 0, command, own, options.app));
    }
    await Promise.all(replicas.map((replica) => replica.start()));
    nginx = await startNginx(replicas.map((replica) => replica.port));
  } catch (error) {
    await close();
    throw error;
  }
  const started = { redis, nginx };
  const replica = (index: number): Replica => {
    const found = replicas[index];
    if (found === undefined) throw new Error(`no replica ${index}: the cluster has ${replicas.length}`);
    return found;
  };
  return {
    url: `${nginx.origin}/mcp`,
    origin: nginx.origin,
    nodes: replicas,
    redis,
    nginx,
    nodeUrl: (index) => `${replica(index).origin}/mcp`,
    kill: (index) => replica(index).kill(),
    restart: (index) => replica(index).start(),
    stopRedis: () => started.redis.stop(),
    startRedis: () => started.redis.start(),
    metrics: (index) => scrape(`${replica(index).origin}/metrics`),
    health: async (index) => {
      const response = await fetch(`${replica(index).origin}/health`);
      if (!response.ok) throw new Error(`/health of replica ${index} answered ${response.status}`);
      return (await response.json()) as HealthBody;
    },
    close,
  };
};
