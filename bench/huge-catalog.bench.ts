/**
 * `pnpm bench:catalog` (and `pnpm bench`): promptyard-gateway in front of one server that lists a huge
 * catalog (apps/gateway/test/backends/huge-catalog.mjs, 100,000 tools of ~950 bytes each) and one
 * normal server (test-server.mjs "alpha"), against the same gateway in front of alpha alone, scenarios
 * alternated within each run, medians of BENCH_RUNS runs (default 3):
 *
 *   peak RSS        the gateway process's VmHWM once the big list was taken in
 *   alpha listed    "listening on" → the first tools/list through the gateway that holds alpha's tools
 *   alpha calls     p50 and max of alpha's echo, called one after another from the first list until
 *                   the big server is ready (or given up on) and 20 calls more
 *   big ready       "listening on" → the big server's "server ready" (or "server unavailable") log line
 *
 * BENCH_PAGE_SIZE (default 2000; 0: one answer of ~95 MB, with [limits] max_message_bytes raised to
 * 128 MB so that it is read) and BENCH_TOOLS size the catalog; BENCH_GATEWAY=<cli.js> measures another
 * build, BENCH_BEFORE=<cli.js> a second build in the same runs (its rows are added to the table).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { killTree, testServerPath } from '../apps/gateway/test/backends/spawn.js';
import { Output } from '../test-support/output.js';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayCli = process.env['BENCH_GATEWAY'] ?? join(root, 'apps/gateway/dist/cli.js');
const beforeCli = process.env['BENCH_BEFORE'];
const hugeCatalog = join(root, 'apps/gateway/test/backends/huge-catalog.mjs');
const runs = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 3));
const tools = Number(process.env['BENCH_TOOLS'] ?? 100_000);
// 2,000 a page: 50 pages, within the SDK's 64-page walk, so a build without the cap lists all 100,000.
const pageSize = Number(process.env['BENCH_PAGE_SIZE'] ?? 2000);
/** Longest a scenario may take before it is given up on (and reported as such). */
const scenarioMs = 120_000;

interface Figures {
  readonly peakRssMb: number;
  readonly alphaListedMs: number;
  readonly callP50Ms: number;
  readonly callMaxMs: number;
  readonly calls: number;
  /** Requests that failed (the connection dropped) and were tried again. */
  readonly errors: number;
  /** Undefined: no big server in this scenario. */
  readonly bigReadyMs: number | undefined;
}

interface Scenario {
  readonly label: string;
  readonly cli: string;
  readonly big: boolean;
}

const peakRssMb = (pid: number): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

const configOf = (big: boolean): string => {
  const lines = [
    // Lists answer at once with the servers ready: alpha's, while the big list is taken in.
    '[gateway]\nstartup_wait_ms = 0\n',
    pageSize === 0 ? '[limits]\nmax_message_bytes = 134217728\n' : '',
    '[servers.alpha]',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify([testServerPath, '--name', 'alpha'])}`,
  ];
  if (big)
    lines.push(
      '[servers.big]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify([hugeCatalog, '--tools', String(tools), '--page-size', String(pageSize)])}`,
    );
  return `${lines.join('\n')}\n`;
};

/**
 * `request`, tried again when it fails: a gateway whose event loop was held past its HTTP keep-alive
 * timeout closes the connection the client is about to reuse. Failures are counted in `errors`.
 */
const retried = async <T>(request: () => Promise<T>, errors: { count: number }): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      errors.count++;
      if (attempt === 5) throw error;
    }
  }
};

/** Lists tools until alpha's are there; the time since `since`. */
const listAlpha = async (client: Client, since: number, errors: { count: number }): Promise<number> => {
  for (;;) {
    const { tools: listed } = await retried(() => client.listTools(), errors);
    if (listed.some((tool) => tool.name === 'alpha_echo')) return performance.now() - since;
  }
};

/** Calls alpha's echo one after another until `done` settles, then 20 more: each call's time. */
const callAlpha = async (client: Client, done: Promise<unknown>, errors: { count: number }): Promise<number[]> => {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const times: number[] = [];
  for (let after = 0; after < 20; after += finished ? 1 : 0) {
    const began = performance.now();
    await retried(() => client.callTool({ name: 'alpha_echo', arguments: { text: `call ${times.length}` } }), errors);
    times.push(performance.now() - began);
  }
  return times;
};

const measure = async ({ cli, big }: Scenario): Promise<Figures> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-bench-catalog-'));
  await writeFile(join(dir, 'gateway.toml'), configOf(big));
  const child = spawn(process.execPath, [cli, '--config', join(dir, 'gateway.toml'), '--transport', 'http', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: dir },
  });
  const output = new Output();
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  const pid = child.pid as number;
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  try {
    const url = (await output.waitFor(/listening on (http:\/\/\S+)/, 20_000))[1] as string;
    const since = performance.now();
    const bigSettled = big
      ? output.waitFor(/(server ready|server unavailable)[^\n]*"?big/, scenarioMs).then(() => performance.now() - since)
      : Promise.resolve(undefined);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const errors = { count: 0 };
    const alphaListedMs = await listAlpha(client, since, errors);
    const times = await callAlpha(client, bigSettled, errors);
    const bigReadyMs = await bigSettled;
    return {
      peakRssMb: peakRssMb(pid),
      alphaListedMs,
      callP50Ms: median(times),
      callMaxMs: percentile(times, 100),
      calls: times.length,
      errors: errors.count,
      bigReadyMs,
    };
  } finally {
    await client.close().catch(() => {});
    killTree(pid);
    await rm(dir, { recursive: true, force: true });
  }
};

const row = (label: string, samples: readonly Figures[]): string => {
  const of = (pick: (figures: Figures) => number): number => median(samples.map(pick));
  const bigReady = samples.every((sample) => sample.bigReadyMs !== undefined) ? `${ms(of((s) => s.bigReadyMs as number))} ms` : '—';
  return `| ${label} | ${of((s) => s.peakRssMb).toFixed(0)} MB | ${ms(of((s) => s.alphaListedMs))} ms | ${ms(of((s) => s.callP50Ms))} ms | ${ms(of((s) => s.callMaxMs))} ms | ${of((s) => s.calls)} | ${samples.reduce((sum, s) => sum + s.errors, 0)} | ${bigReady} |`;
};

const main = async (): Promise<void> => {
  if (!existsSync(gatewayCli)) {
    console.log(`huge catalog: ${gatewayCli} is missing; run pnpm build first`);
    return;
  }
  const scenarios: Scenario[] = [
    { label: 'alpha alone', cli: gatewayCli, big: false },
    { label: `alpha + ${tools} tools`, cli: gatewayCli, big: true },
    ...(beforeCli === undefined ? [] : [{ label: `alpha + ${tools} tools, before`, cli: beforeCli, big: true }]),
  ];
  const samples = new Map<string, Figures[]>(scenarios.map((scenario) => [scenario.label, []]));
  const failures = new Map<string, number>();
  for (let run = 0; run < runs; run++) {
    for (const scenario of scenarios) {
      try {
        const figures = await measure(scenario);
        samples.get(scenario.label)?.push(figures);
        console.error(`run ${run + 1}/${runs} ${scenario.label}: ${JSON.stringify(figures)}`);
      } catch (error) {
        // A gateway whose event loop is held long enough drops the client's connection: the run is counted as failed.
        failures.set(scenario.label, (failures.get(scenario.label) ?? 0) + 1);
        console.error(`run ${run + 1}/${runs} ${scenario.label} failed: ${(error as Error).message}`);
      }
    }
  }
  console.log(`\nhuge catalog: ${tools} tools, ${pageSize === 0 ? 'one page' : `pages of ${pageSize}`}, medians of ${runs} runs\n`);
  console.log(
    '| gateway in front of | peak RSS | alpha listed | alpha call p50 | alpha call max | calls | failed requests (all runs) | big ready |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const scenario of scenarios) {
    const failed = failures.get(scenario.label) ?? 0;
    const label = failed === 0 ? scenario.label : `${scenario.label} (${failed} of ${runs} runs failed)`;
    const measured = samples.get(scenario.label) ?? [];
    console.log(measured.length === 0 ? `| ${label} | — | — | — | — | — | — | — |` : row(label, measured));
  }
};

await main();
