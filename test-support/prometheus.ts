import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTool } from './output.js';

/** A loopback port free a moment ago (for programs that take no port 0 and report none). */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

export interface Prometheus {
  readonly pid: number;
  /** An instant query's vector, as `[labels, value]` pairs. */
  query(expression: string): Promise<{ readonly labels: Readonly<Record<string, string>>; readonly value: number }[]>;
  stop(): Promise<void>;
}

/** A real Prometheus on loopback scraping `targets` (host:port) every second; its config and data in a temporary folder. */
export const startPrometheus = async (targets: readonly string[]): Promise<Prometheus> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  await writeFile(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      'scrape_configs:',
      '  - job_name: promptyard',
      '    static_configs:',
      `      - targets: ${JSON.stringify(targets)}`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const { child } = await startTool(
    'prometheus',
    'prometheus',
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    /Server is ready to receive web requests/,
    30_000,
  );
  const pid = child.pid as number;
  return {
    pid,
    query: async (expression) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`);
      const body = (await response.json()) as {
        status: string;
        data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${expression} failed: ${JSON.stringify(body)}`);
      return (body.data?.result ?? []).map((sample) => ({ labels: sample.metric, value: Number(sample.value[1]) }));
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        process.kill(pid, 'SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
};
