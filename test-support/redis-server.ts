import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTool } from './output.js';
import { freePort } from './prometheus.js';

export interface RedisServer {
  readonly pid: number;
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the process (SIGKILL) and keeps the port, for a later `start()`. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop()`); the data is gone, as after a crash without persistence. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/**
 * A real `redis-server` (Debian package `redis-server`, installed by scripts/ensure-tools.sh) on a
 * loopback port, without persistence, its working folder temporary. Stop it with `close()` in
 * `afterAll`/`afterEach`.
 */
export const startRedisServer = async (): Promise<RedisServer> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    ({ child } = await startTool(
      'redis-server',
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'],
      /Ready to accept connections/,
    ));
  };
  const stop = async (): Promise<void> => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    process.kill(running.pid as number, 'SIGKILL');
    await exited;
  };
  await launch();
  return {
    get pid() {
      return child?.pid as number;
    },
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start: launch,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
