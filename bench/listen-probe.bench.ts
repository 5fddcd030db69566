/**
 * `pnpm bench` (gateway part): what the 2026-07-28 `subscriptions/listen` probe adds to a Streamable
 * HTTP server's readiness through promptyard-gateway, whatever the server does with it (target
 * ≤ 200 ms). One running test backend (apps/gateway/test/backends/test-server.mjs) per behaviour:
 * an SSE listen stream (ok), a newline-delimited JSON one, none (method not found), and one that
 * opens the stream and never acknowledges it (silent, the probe's worst case). For each, a fresh
 * stdio gateway in front of it is timed from spawn to its first `tools/list` answered, alternating
 * with the same gateway pinned to `protocol = "2025-11-25"` (no probe); the figure is the median of
 * each run's difference. BENCH_PROBE_RUNS sets the runs (default 7). Needs apps/gateway/dist/cli.js.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { killTree, startHttpBackend } from '../apps/gateway/test/backends/spawn.js';
import type { HttpBackend } from '../apps/gateway/test/backends/spawn.js';
import { median } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayCli = process.env['BENCH_GATEWAY'] ?? join(root, 'apps/gateway/dist/cli.js');
const runs = Math.max(3, Number(process.env['BENCH_PROBE_RUNS'] ?? 7));
const targetMs = 200;
const behaviours = ['ok', 'json-lines', 'none', 'silent'] as const;
type Behaviour = (typeof behaviours)[number];

/** Spawn → first `tools/list` answered, of a stdio gateway with `config`, in ms. */
const readyMs = async (config: string): Promise<number> => {
  const began = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [gatewayCli, '--config', config], stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    if (tools.length === 0) throw new Error(`the gateway with ${config} listed no tools`);
    return performance.now() - began;
  } finally {
    const pid = transport.pid;
    await client.close().catch(() => {});
    if (pid !== null) killTree(pid);
  }
};

const configFor = async (dir: string, behaviour: Behaviour, url: string, protocol: 'auto' | '2025-11-25'): Promise<string> => {
  const file = join(dir, `${behaviour}-${protocol}.toml`);
  await writeFile(file, `[servers.probe]\nurl = ${JSON.stringify(url)}\nprotocol = ${JSON.stringify(protocol)}\n`);
  return file;
};

const main = async (): Promise<void> => {
  if (!existsSync(gatewayCli)) {
    process.stdout.write(`listen probe: skipped, ${gatewayCli} is missing (run pnpm build first)\n`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-probe-bench-'));
  const backends: HttpBackend[] = [];
  try {
    const rows: string[] = [];
    for (const behaviour of behaviours) {
      const backend = await startHttpBackend({ name: 'probe', listen: behaviour });
      backends.push(backend);
      const probed = await configFor(dir, behaviour, backend.url, 'auto');
      const pinned = await configFor(dir, behaviour, backend.url, '2025-11-25');
      await readyMs(probed);
      const added: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < runs; run++) {
        const without = await readyMs(pinned);
        const withProbe = await readyMs(probed);
        baseline.push(without);
        added.push(withProbe - without);
      }
      const figure = median(added);
      const verdict = figure <= targetMs ? 'met' : '**missed**';
      rows.push(
        `| ${behaviour.padEnd(10)} | ${median(baseline).toFixed(0).padStart(8)} ms | ${figure.toFixed(0).padStart(6)} ms | ≤ ${targetMs} ms ${verdict} |`,
      );
    }
    process.stdout.write(
      [
        '',
        `## The listen probe (promptyard-gateway, stdio, one Streamable HTTP backend; medians of ${runs} runs, Node ${process.version})`,
        '',
        '| listen stream | ready, 2025-11-25 pinned | added by the 2026-07-28 probe | target |',
        '| ------------- | ------------------------ | ----------------------------- | ------ |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await Promise.all(backends.map((backend) => backend.stop()));
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
