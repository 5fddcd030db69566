/**
 * `pnpm soak`: does each binary stay flat under session churn? For each of promptyard-server (on the
 * bundled examples, or `--library <n>` generated prompts) and promptyard-gateway (in front of
 * promptyard-server over stdio), started with `--inspect=127.0.0.1:0`: `--minutes` (default 10) of
 * `--rate` calls a second (default 400) from `--clients` clients (default 32), each opening a
 * 2025-11-25 session, making `--calls-per-session` calls (default 8: `tools/call` and `prompts/get`,
 * every fourth a stateless 2026-07-28 request) and closing it with DELETE, again and again
 * (bench/soak/churn.ts). A row before any call, one after `--warmup` seconds (default 20), then one a
 * minute (`--row-seconds`): calls, errors, sessions opened, p50/p99 latency, live heap after a full
 * collection (through the inspector) and RSS. At the end, the verdicts: p99 of the last row ≤ 1.5× the
 * first, live heap of the last row within +5 MB of the first (and its growth from the warm-up on).
 *
 *   pnpm soak --minutes 5 --only gateway --snapshots .tmp/soak
 *
 * `--snapshots <dir>` also writes heap snapshots before any call, after the warm-up and at the end, for
 * `tsx scripts/heap-diff.ts <before> <after>` (what grew, by constructor, and what holds it).
 * Not part of `pnpm test` or `pnpm bench`: it takes N minutes per binary.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writePrompts } from './generated-prompts.js';
import { startChurn } from './soak/churn.js';
import { connectInspector } from './soak/inspector.js';
import { startBinary, workloadOf } from './soak/targets.js';
import type { Binary } from './soak/targets.js';
import { ms, percentile, rssMb } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values: flags } = parseArgs({
  // `pnpm soak -- --minutes 5` passes the `--` on.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '400' },
    clients: { type: 'string', default: '32' },
    'calls-per-session': { type: 'string', default: '8' },
    warmup: { type: 'string', default: '20' },
    'row-seconds': { type: 'string', default: '60' },
    only: { type: 'string' },
    library: { type: 'string' },
    snapshots: { type: 'string' },
  },
});

const numberFlag = (name: keyof typeof flags): number => {
  const value = Number(flags[name]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number (got ${String(flags[name])})`);
  return value;
};

interface Row {
  readonly label: string;
  readonly calls: number;
  readonly errors: number;
  readonly sessions: number;
  readonly p50: number;
  readonly p99: number;
  readonly heapMb: number;
  readonly rssMb: number;
}

/** `m:ss` since the first row began. */
const elapsed = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

const rowLine = (row: Row): string =>
  `| ${row.label} | ${row.calls.toLocaleString('en-US')} | ${row.errors} | ${row.sessions.toLocaleString('en-US')} | ${row.p50 > 0 ? `${ms(row.p50)} ms` : '—'} | ${row.p99 > 0 ? `${ms(row.p99)} ms` : '—'} | ${row.heapMb.toFixed(1)} MB | ${row.rssMb.toFixed(1)} MB |`;

const tableHead = [
  '| time | calls | errors | sessions opened | p50 | p99 | live heap after GC | RSS |',
  '| ---- | ----: | -----: | --------------: | --: | --: | -----------------: | --: |',
];

/** One binary's soak: its rows (the first two: before any call, and right after the warm-up). */
const soak = async (binary: Binary, dir: string, library: string | undefined): Promise<Row[]> => {
  const minutes = numberFlag('minutes');
  const rowMs = numberFlag('row-seconds') * 1000;
  const started = await startBinary(binary, root, dir, library);
  const inspector = await connectInspector(started.inspectorUrl);
  const pid = started.child.pid as number;
  const rows: Row[] = [];
  try {
    // Before any call: what the first minutes add beyond it is what the load made (modules loaded on
    // first use, optimised code, caches filling, or a leak).
    rows.push({
      label: 'ready',
      calls: 0,
      errors: 0,
      sessions: 0,
      p50: 0,
      p99: 0,
      heapMb: await inspector.liveHeapMb(),
      rssMb: await rssMb(pid),
    });
    process.stderr.write(`${binary}: ${rowLine(rows[0] as Row)}\n`);
    if (flags.snapshots !== undefined) await inspector.snapshot(join(flags.snapshots, `${binary}-ready.heapsnapshot`));
    const workload = await workloadOf(started.url);
    const churn = startChurn({
      url: started.url,
      clients: numberFlag('clients'),
      rate: numberFlag('rate'),
      callsPerSession: numberFlag('calls-per-session'),
      ...workload,
    });
    try {
      await sleep(numberFlag('warmup') * 1000);
      const warm = churn.take();
      rows.push({
        label: 'warm-up',
        calls: warm.calls,
        errors: warm.errors,
        sessions: warm.sessionsOpened,
        p50: 0,
        p99: 0,
        heapMb: await inspector.liveHeapMb(),
        rssMb: await rssMb(pid),
      });
      process.stderr.write(`${binary}: ${rowLine(rows[1] as Row)}\n`);
      if (flags.snapshots !== undefined) {
        await inspector.snapshot(join(flags.snapshots, `${binary}-warm.heapsnapshot`));
        // The calls the snapshot held up finish before the first row starts.
        await sleep(5000);
      }
      churn.take();
      const began = performance.now();
      for (let index = 1; index <= Math.max(1, Math.round((minutes * 60_000) / rowMs)); index++) {
        await sleep(Math.max(0, began + index * rowMs - performance.now()));
        const tally = churn.take();
        const row: Row = {
          label: elapsed((index * rowMs) / 1000),
          calls: tally.calls,
          errors: tally.errors,
          sessions: tally.sessionsOpened,
          p50: tally.latencies.length > 0 ? percentile(tally.latencies, 50) : 0,
          p99: tally.latencies.length > 0 ? percentile(tally.latencies, 99) : 0,
          heapMb: await inspector.liveHeapMb(),
          rssMb: await rssMb(pid),
        };
        rows.push(row);
        process.stderr.write(`${binary}: ${rowLine(row)}${tally.firstError === undefined ? '' : ` first error: ${tally.firstError}`}\n`);
      }
      if (flags.snapshots !== undefined) await inspector.snapshot(join(flags.snapshots, `${binary}-end.heapsnapshot`));
    } finally {
      await churn.stop();
    }
  } finally {
    inspector.close();
    started.stop();
  }
  return rows;
};

/** The targets' verdicts over the rows of each minute (not the warm-up). */
const verdicts = (binary: Binary, rows: readonly Row[]): string => {
  const [, warm, first] = rows;
  const last = rows.at(-1);
  if (warm === undefined || first === undefined || last === undefined) return `| ${binary} | — | — | — | — | — |`;
  const p99Ratio = last.p99 / first.p99;
  const heapGrowth = last.heapMb - first.heapMb;
  const signed = (mb: number): string => `${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`;
  return [
    `| ${binary}`,
    `${ms(first.p99)} → ${ms(last.p99)} ms (${p99Ratio.toFixed(2)}×): ${p99Ratio <= 1.5 ? 'met' : '**missed**'}`,
    `${first.heapMb.toFixed(1)} → ${last.heapMb.toFixed(1)} MB (${signed(heapGrowth)}): ${heapGrowth <= 5 ? 'met' : '**missed**'}`,
    // What fills within the first minute (a cache) shows only against the warm-up.
    signed(last.heapMb - warm.heapMb),
    `${first.rssMb.toFixed(1)} → ${last.rssMb.toFixed(1)} MB`,
    `${rows.reduce((sum, row) => sum + row.errors, 0)} |`,
  ].join(' | ');
};

const main = async (): Promise<void> => {
  const binaries: Binary[] = flags.only === undefined ? ['server', 'gateway'] : [flags.only as Binary];
  if (binaries.some((binary) => binary !== 'server' && binary !== 'gateway')) throw new Error('--only must be "server" or "gateway"');
  if (flags.snapshots !== undefined) await mkdir(resolve(flags.snapshots), { recursive: true });
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-soak-'));
  try {
    let library: string | undefined;
    if (flags.library !== undefined) {
      library = join(dir, 'prompts');
      await writePrompts(library, numberFlag('library'));
    }
    const out: string[] = [
      `pnpm soak: ${flags.rate} calls/s from ${flags.clients} clients, ${flags['calls-per-session']} calls a session (every fourth a stateless 2026-07-28 call), rows of ${flags['row-seconds']} s after a ${flags.warmup} s warm-up, ${library === undefined ? 'the bundled examples' : `${flags.library} generated prompts`}, Node ${process.version}`,
    ];
    const summary = [
      '| binary | p99, first → last row (≤ 1.5×) | live heap after GC, first → last row (≤ +5 MB) | live heap, warm-up → last row | RSS | errors |',
      '| --- | --- | --- | --- | --- | --- |',
    ];
    for (const binary of binaries) {
      const rows = await soak(binary, dir, library);
      out.push('', `promptyard-${binary}:`, '', ...tableHead, ...rows.map(rowLine));
      summary.push(verdicts(binary, rows));
    }
    out.push('', ...summary);
    const text = `${out.join('\n')}\n`;
    process.stdout.write(text);
    await mkdir(join(root, 'bench/.data'), { recursive: true });
    await writeFile(join(root, 'bench/.data/soak-results.md'), text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
