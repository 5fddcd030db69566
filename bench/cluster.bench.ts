/**
 * `pnpm bench`: the price of sharing. promptyard-server replicas behind nginx round-robin
 * (deploy/nginx/promptyard.conf, started by test-support/cluster.ts with a real Redis), each figure
 * taken with the replicas' state in memory and with it in Redis ([cluster] redis_url), in the same
 * run; configurations alternate within each run, medians of BENCH_RUNS runs (default 3). Ratios are
 * the median of each run's own Redis/memory ratio at the same node count.
 *
 *   eras        2025-11-25 (one session per client: its records, SSE events and answers in Redis) and
 *               2026-07-28 (stateless: nothing to share but change events)
 *   figures     p50 of BENCH_CALLS sequential prompts/get, calls/s with 32 in flight (BENCH_BURST calls)
 *   nodes       1 and 3; 2025 sessions on 3 in-memory replicas are not measured: without sharing, a
 *               session's requests reach replicas that never saw it (404), which is what Redis fixes.
 *
 * On a 2-core machine no speed-up comes from more replicas (nginx, the replicas, Redis and the client
 * share the two cores); the target is Redis-backed p50 ≤ 1.2× in-memory at the same node count.
 * Needs `pnpm build` (the built server) and nginx + redis-server (scripts/ensure-tools.sh).
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startCluster } from '../test-support/cluster.js';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Math.max(3, Number(process.env['BENCH_RUNS'] ?? 3));
const warmCalls = Number(process.env['BENCH_WARM'] ?? 200);
const measuredCalls = Number(process.env['BENCH_CALLS'] ?? 1000);
const burstCalls = Number(process.env['BENCH_BURST'] ?? 3000);
const inFlight = 32;

// The SDK's Streamable HTTP client adds a listener per request to the transport's signal.
setMaxListeners(1_000_000);

type Era = '2025-11-25' | '2026-07-28';
interface Config {
  readonly era: Era;
  readonly nodes: 1 | 3;
  readonly shared: boolean;
}
const configs: readonly Config[] = [
  { era: '2025-11-25', nodes: 1, shared: false },
  { era: '2025-11-25', nodes: 1, shared: true },
  { era: '2025-11-25', nodes: 3, shared: true },
  { era: '2026-07-28', nodes: 1, shared: false },
  { era: '2026-07-28', nodes: 1, shared: true },
  { era: '2026-07-28', nodes: 3, shared: false },
  { era: '2026-07-28', nodes: 3, shared: true },
];
const label = (config: Config): string =>
  `${config.era} · ${config.nodes} node${config.nodes === 1 ? '' : 's'} · ${config.shared ? 'Redis' : 'memory'}`;

interface Figures {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
}

const connect = async (url: string, era: Era): Promise<Client> => {
  const client = new Client(
    { name: 'promptyard-bench', version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};

const measure = async (config: Config, prompts: string): Promise<Figures> => {
  const cluster = await startCluster({ app: 'server', replicas: config.nodes, args: ['--prompts', prompts], shared: config.shared });
  try {
    const client = await connect(cluster.url, config.era);
    const get = (index: number) => client.getPrompt({ name: 'greet', arguments: { who: `caller ${index}` } });
    for (let index = 0; index < warmCalls; index += 1) await get(index);
    const times: number[] = [];
    for (let index = 0; index < measuredCalls; index += 1) {
      const started = performance.now();
      await get(index);
      times.push(performance.now() - started);
    }
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < burstCalls) await get((next += 1));
      }),
    );
    const perSecond = burstCalls / ((performance.now() - started) / 1000);
    await client.close();
    return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond };
  } finally {
    await cluster.close();
  }
};

const main = async (): Promise<void> => {
  if (!existsSync(join(root, 'apps/server/dist/cli.js'))) {
    process.stderr.write('cluster bench: apps/server/dist/cli.js is missing; run pnpm build first\n');
    process.exitCode = 1;
    return;
  }
  const prompts = await mkdtemp(join(tmpdir(), 'promptyard-bench-cluster-'));
  await writeFile(
    join(prompts, 'greet.md'),
    '---\ndescription: Greets\narguments:\n  - name: who\n    required: true\n---\nHello {{ who }}\n',
  );
  const results = new Map<Config, Figures[]>(configs.map((config) => [config, []]));
  try {
    for (let run = 0; run < runs; run += 1) {
      // Alternate the order from run to run, so no configuration always goes first on a warming machine.
      const order = run % 2 === 0 ? configs : [...configs].reverse();
      for (const config of order) {
        const figures = await measure(config, prompts);
        results.get(config)?.push(figures);
        process.stderr.write(
          `run ${run + 1}/${runs} ${label(config)}: p50 ${ms(figures.p50, 3)} ms, ${figures.perSecond.toFixed(0)} calls/s\n`,
        );
      }
    }
  } finally {
    await rm(prompts, { recursive: true, force: true });
  }

  const of = (config: Config): Figures[] => results.get(config) ?? [];
  const memoryOf = (config: Config): Config | undefined =>
    configs.find((other) => other.era === config.era && other.nodes === config.nodes && !other.shared);
  const ratio = (config: Config, pick: (figures: Figures) => number): number | undefined => {
    const memory = memoryOf(config);
    if (memory === undefined || memory === config) return undefined;
    return median(of(config).map((figures, run) => pick(figures) / pick(of(memory)[run] as Figures)));
  };
  const lines = [
    '',
    `## Cluster: promptyard-server behind nginx round-robin (${runs} runs, medians; ${measuredCalls} sequential prompts/get, ${burstCalls} with ${inFlight} in flight)`,
    '',
    '| era · replicas · state | p50 | p99 | calls/s | p50 vs memory (target ≤ 1.2×) | calls/s vs memory |',
    '|---|---|---|---|---|---|',
  ];
  for (const config of configs) {
    const figures = of(config);
    const p50Ratio = ratio(config, (one) => one.p50);
    const rateRatio = ratio(config, (one) => one.perSecond);
    const memory = memoryOf(config);
    const versus =
      p50Ratio === undefined
        ? config.shared && memory === undefined
          ? 'no in-memory baseline: sessions need sharing'
          : '—'
        : `${p50Ratio.toFixed(2)}× ${p50Ratio <= 1.2 ? 'met' : 'MISSED'}`;
    lines.push(
      `| ${label(config)} | ${ms(median(figures.map((one) => one.p50)), 3)} ms | ${ms(median(figures.map((one) => one.p99)), 3)} ms | ${median(figures.map((one) => one.perSecond)).toFixed(0)} | ${versus} | ${rateRatio === undefined ? '—' : `${rateRatio.toFixed(2)}×`} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
};

await main();
