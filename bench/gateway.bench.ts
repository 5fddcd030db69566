/**
 * `pnpm bench`: measures promptyard-gateway in front of the `echo` tool of the test backend
 * (apps/gateway/test/backends/test-server.mjs), each figure beside a baseline taken in the same run,
 * scenarios alternated within each run, medians of BENCH_RUNS runs (default 5). Ratios are the
 * median of each run's own ratio, so a noisy moment on a shared machine moves both sides.
 *
 *   stdio ↔ stdio       SDK client → gateway (stdio) → test-server (stdio), vs the client → test-server directly
 *   HTTP downstream     autocannon → gateway (Streamable HTTP) → test-server (stdio), vs autocannon → the
 *                       SDK's own HTTP server serving test-server directly; 2025-11-25 session requests and
 *                       stateless 2026-07-28 requests. The SDK client connects (cold ready) and makes one
 *                       call, whose HTTP request (headers, body) autocannon then posts, each with an id of
 *                       its own: a load generator much cheaper than the servers under test, so the figures
 *                       are the servers' (the SDK client set the pace on two cores).
 *   figures             p50/p99 of sequential calls, calls/s with 32 in flight, cold ready
 *                       (spawn → first tools/list answered), RSS of the process tree after the calls
 *   tools/list cost     lazy vs full tools/list over server-everything + two test-servers
 *
 * The table puts each target beside its ratio. BENCH_GATEWAY=<cli.js> measures another build;
 * BENCH_BEFORE=<cli.js> measures a second build in the same runs, alternating with this one, and
 * prints its table too (before/after on a shared, noisy machine: compare the ratios). BENCH_WARM, BENCH_WARM_BURST,
 * BENCH_CALLS, BENCH_BURST size the calls; BENCH_TOKENS=0 skips the tools/list cost. Until
 * apps/gateway/dist/cli.js exists (`pnpm build`), the gateway rows are skipped with a note and only
 * the baselines are measured.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import autocannon from 'autocannon';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingCommand, killTree, listDescendants, stdioBackendCommand, testServerPath } from '../apps/gateway/test/backends/spawn.js';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayCli = process.env['BENCH_GATEWAY'] ?? join(root, 'apps/gateway/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const runs = Math.max(3, Number(process.env['BENCH_RUNS'] ?? 5));
const warmCalls = Number(process.env['BENCH_WARM'] ?? 200);
const measuredCalls = Number(process.env['BENCH_CALLS'] ?? 2000);
const burstCalls = Number(process.env['BENCH_BURST'] ?? 5000);
const inFlight = 32;
// Calls at 32 in flight before the timed burst, on the same connections' path: the first thousand
// concurrent calls of a fresh process run cold code (and autocannon opens its connections), which
// over a 2,000-call burst put the HTTP figures at ~1,000/s where a warm gateway holds ~2,000/s.
const warmBurstCalls = Number(process.env['BENCH_WARM_BURST'] ?? 2000);
const hasGateway = existsSync(gatewayCli);
/** Another build's cli.js, measured in the same runs, alternating with this one: a before/after comparison. */
const beforeCli = process.env['BENCH_BEFORE'];

// The SDK 2.4.0 Streamable HTTP client links each request's signal to the transport's with a listener
// it removes only on abort, so thousands of calls on one connection pass the warning threshold.
setMaxListeners(1_000_000);

type Era = 'legacy' | 'modern';

interface Target {
  readonly client: Client;
  readonly tool: string;
  /** The process the client talks to (gateway or backend). */
  readonly pid: number;
  readonly readyMs: number;
  /** Over HTTP: the endpoint and the SDK client's own `tools/call` request, which autocannon replays. */
  readonly http?: { readonly url: string; readonly call: () => Promise<CapturedRequest> };
  close(): Promise<void>;
}

/** An HTTP request as the SDK client sent it. */
interface CapturedRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

interface Sample {
  readonly p50: number;
  readonly p99: number;
  readonly callsPerSecond: number;
  readonly readyMs: number;
  /** The process the client talks to. */
  readonly rssMb: number;
  /** That process and everything it started (a gateway and its backend). */
  readonly treeRssMb: number;
  /** The same tree's proportional set size: pages the processes share (the node binary) counted once. */
  readonly treePssMb: number;
  /** CPU time of that process tree per call with 32 in flight: steadier than wall time on a busy machine. */
  readonly cpuMsPerCall: number;
}

const rssOf = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
};

/** User + system CPU time of a process in ms (clock ticks of 10 ms on Linux). */
const cpuMsOf = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
};
const treeCpuMs = (pid: number): number => [pid, ...listDescendants(pid)].reduce((sum, each) => sum + cpuMsOf(each), 0);

const makeClient = (era: Era): Client =>
  new Client({ name: 'promptyard-bench', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});

const stopPid = (pid: number): void => killTree(pid);

/** Spawns a stdio server, connects and lists tools; ready = spawn → tools/list answered. */
const startStdio = async (command: string, args: string[], tool: string): Promise<Target> => {
  const began = performance.now();
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = makeClient('legacy');
  await client.connect(transport);
  return ready(client, tool, transport.pid as number, began);
};

/** A connected target once tools/list answered: ready = `began` → now. */
const ready = async (client: Client, tool: string, pid: number, began: number): Promise<Target> => {
  await client.listTools();
  return {
    client,
    tool,
    pid,
    readyMs: performance.now() - began,
    close: async () => {
      await client.close().catch(() => {});
      stopPid(pid);
    },
  };
};

/** Spawns `args` (which print `listening on <url>` on stderr) and resolves with the process and URL. */
const spawnListening = (args: string[]): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      stopPid(child.pid as number);
      reject(new Error(`no "listening on" line within 15 s:\n${output}`));
    }, 15_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        child.stdout?.resume();
        resolve({ child, url: match[1] as string });
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });

/** A connected SDK client, and the last `tools/call` request it posted (headers and body). */
const connectHttp = async (url: string, era: Era): Promise<{ client: Client; lastCall: () => CapturedRequest | undefined }> => {
  const client = makeClient(era);
  let lastCall: CapturedRequest | undefined;
  const recording = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    if (init?.method === 'POST' && typeof body === 'string' && body.includes('"tools/call"'))
      lastCall = { headers: Object.fromEntries(new Headers(init.headers).entries()), body };
    return fetch(input, init);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
  if (era === 'modern' && client.getProtocolEra() !== 'modern') throw new Error(`${url} did not negotiate 2026-07-28`);
  return { client, lastCall: () => lastCall };
};

/** Spawns an HTTP server, connects and lists tools; ready = spawn → tools/list answered. */
const startHttp = async (args: string[], tool: string, era: Era): Promise<Target> => {
  const began = performance.now();
  const { child, url } = await spawnListening(args);
  const { client, lastCall } = await connectHttp(url, era);
  const target = await ready(client, tool, child.pid as number, began);
  const call = async (): Promise<CapturedRequest> => {
    await client.callTool({ name: tool, arguments: { text: 'message' } });
    const captured = lastCall();
    if (captured === undefined) throw new Error(`the SDK client's tools/call to ${url} was not seen`);
    return captured;
  };
  return { ...target, http: { url, call } };
};

const call = (target: Target, index: number): Promise<unknown> =>
  target.client.callTool({ name: target.tool, arguments: { text: `message ${index}` } });

const pssOf = (pid: number): number => {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
};

const treeSum = (pid: number, of: (pid: number) => number): number =>
  [pid, ...listDescendants(pid)].reduce((sum, each) => sum + (Number.isFinite(of(each)) ? of(each) : 0), 0);

/**
 * `amount` posts of the captured request by autocannon on `connections` connections, each with an id of
 * its own (2025-11-25 sessions route answers by id). Resolves with each answer's latency in ms and the
 * wall time; fails on any error or non-2xx answer.
 */
const cannon = async (
  url: string,
  request: CapturedRequest,
  connections: number,
  amount: number,
): Promise<{ latencies: number[]; seconds: number }> => {
  const message = JSON.parse(request.body) as Record<string, unknown>;
  let id = 1_000_000;
  const latencies: number[] = [];
  const began = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        headers: request.headers,
        connections,
        amount,
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...message, id: id++ }) }) }],
      },
      (error, done) => (error === null || error === undefined ? resolve(done) : reject(error)),
    );
    // At run time the instance's `response` event names the client first (the typings leave it out).
    (instance as NodeJS.EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
  const seconds = (performance.now() - began) / 1000;
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0)
    throw new Error(`autocannon against ${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  return { latencies, seconds };
};

/** A run's figures, once its sequential `latencies` and its timed burst (`seconds`, from `cpuBefore`) are in. */
const sampleOf = (target: Target, latencies: number[], seconds: number, cpuBefore: number): Sample => ({
  p50: median(latencies),
  p99: percentile(latencies, 99),
  callsPerSecond: burstCalls / seconds,
  readyMs: target.readyMs,
  rssMb: rssOf(target.pid),
  cpuMsPerCall: (treeCpuMs(target.pid) - cpuBefore) / burstCalls,
  treeRssMb: treeSum(target.pid, rssOf),
  treePssMb: treeSum(target.pid, pssOf),
});

/** Over HTTP: the SDK client's call replayed by autocannon: warm-up, sequentially (1 connection), then 32 in flight. */
const measureHttp = async (target: Target, http: NonNullable<Target['http']>): Promise<Sample> => {
  const request = await http.call();
  await cannon(http.url, request, 1, warmCalls);
  await cannon(http.url, request, inFlight, warmBurstCalls);
  const { latencies } = await cannon(http.url, request, 1, measuredCalls);
  const cpuBefore = treeCpuMs(target.pid);
  const { seconds } = await cannon(http.url, request, inFlight, burstCalls);
  return sampleOf(target, latencies, seconds, cpuBefore);
};

/** `amount` calls with 32 in flight. */
const burst = async (target: Target, amount: number): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < amount) await call(target, next++);
    }),
  );
};

/** Warm-up (sequential, then at 32 in flight), sequential latencies, then `burstCalls` calls with 32 in flight. */
const measure = async (target: Target): Promise<Sample> => {
  if (target.http !== undefined) return measureHttp(target, target.http);
  for (let index = 0; index < warmCalls; index++) await call(target, index);
  const latencies: number[] = [];
  for (let index = 0; index < measuredCalls; index++) {
    const began = performance.now();
    await call(target, index);
    latencies.push(performance.now() - began);
  }
  await burst(target, warmBurstCalls);
  const cpuBefore = treeCpuMs(target.pid);
  const began = performance.now();
  await burst(target, burstCalls);
  return sampleOf(target, latencies, (performance.now() - began) / 1000, cpuBefore);
};

const toml = (value: string): string => JSON.stringify(value);

const writeGatewayConfig = async (dir: string, file: string, body: string): Promise<string> => {
  const path = join(dir, file);
  await writeFile(path, body);
  return path;
};

const echoConfig = (): string => {
  const { command, args } = stdioBackendCommand({ name: 'echo' });
  return ['[servers.echo]', `command = ${toml(command)}`, `args = [${args.map(toml).join(', ')}]`, ''].join('\n');
};

type Build = 'gateway' | 'before';
type Scenario = 'direct stdio' | 'sdk http legacy' | 'sdk http modern' | `${Build} stdio` | `${Build} http legacy` | `${Build} http modern`;

const cliOf = (scenario: Scenario): string => (scenario.startsWith('before') && beforeCli !== undefined ? beforeCli : gatewayCli);

const runScenario = async (scenario: Scenario, configPath: string): Promise<Sample> => {
  let target: Target;
  switch (scenario) {
    case 'direct stdio': {
      const { command, args } = stdioBackendCommand({ name: 'echo' });
      target = await startStdio(command, args, 'echo');
      break;
    }
    case 'gateway stdio':
    case 'before stdio':
      target = await startStdio(process.execPath, [cliOf(scenario), '--config', configPath], 'echo_echo');
      break;
    case 'sdk http legacy':
    case 'sdk http modern':
      target = await startHttp(
        [testServerPath, '--name', 'echo', '--transport', 'http', '--port', '0'],
        'echo',
        scenario.endsWith('modern') ? 'modern' : 'legacy',
      );
      break;
    case 'gateway http legacy':
    case 'gateway http modern':
    case 'before http legacy':
    case 'before http modern':
      target = await startHttp(
        [cliOf(scenario), '--config', configPath, '--transport', 'http', '--port', '0'],
        'echo_echo',
        scenario.endsWith('modern') ? 'modern' : 'legacy',
      );
      break;
  }
  try {
    return await measure(target);
  } finally {
    await target.close();
  }
};

/** tools/list of a gateway over server-everything + two test-servers, lazy or not. */
const toolsListSize = async (dir: string, lazy: boolean): Promise<{ chars: number; tools: number }> => {
  const everything = everythingCommand('stdio');
  const servers = [
    `[gateway]\nlazy = ${lazy}\n`,
    '[servers.everything]',
    `command = ${toml(everything.command)}`,
    `args = [${everything.args.map(toml).join(', ')}]`,
    '',
    ...['alpha', 'beta'].flatMap((name) => {
      const { command, args } = stdioBackendCommand({ name });
      return [`[servers.${name}]`, `command = ${toml(command)}`, `args = [${args.map(toml).join(', ')}]`, ''];
    }),
  ].join('\n');
  const config = await writeGatewayConfig(dir, `tokens-${lazy ? 'lazy' : 'full'}.toml`, servers);
  const target = await startStdio(process.execPath, [gatewayCli, '--config', config], '');
  try {
    const listed = await target.client.listTools();
    return { chars: JSON.stringify(listed).length, tools: listed.tools.length };
  } finally {
    await target.close();
  }
};

const main = async (): Promise<void> => {
  if (!hasGateway) {
    process.stderr.write(
      `note: ${gatewayCli} is missing (run \`pnpm build\` once apps/gateway has a CLI); measuring the baselines only.\n`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-gateway-bench-'));
  const configPath = await writeGatewayConfig(dir, 'gateway.toml', echoConfig());
  const scenarios: Scenario[] = [
    'direct stdio',
    'sdk http legacy',
    'sdk http modern',
    ...(hasGateway ? (['gateway stdio', 'gateway http legacy', 'gateway http modern'] as const) : []),
    ...(beforeCli === undefined ? [] : (['before stdio', 'before http legacy', 'before http modern'] as const)),
  ];
  /** Each scenario's sample per run (index = run), so ratios pair figures taken in the same run. */
  const samples = new Map<Scenario, (Sample | undefined)[]>(scenarios.map((scenario) => [scenario, []]));
  const failures = new Map<Scenario, string>();
  try {
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`run ${run + 1}/${runs}\n`);
      for (const scenario of scenarios) {
        if (failures.has(scenario)) continue;
        try {
          const sample = await runScenario(scenario, configPath);
          const list = samples.get(scenario);
          if (list !== undefined) list[run] = sample;
        } catch (error) {
          // A gateway that is still being written may not serve every mode yet: report, keep going.
          failures.set(scenario, error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
          process.stderr.write(`${scenario}: failed — ${failures.get(scenario)}\n`);
        }
      }
    }

    let tokens: { lazy: { chars: number; tools: number }; full: { chars: number; tools: number } } | string = 'gateway not built';
    if (process.env['BENCH_TOKENS'] === '0') tokens = 'BENCH_TOKENS=0';
    else if (hasGateway) {
      try {
        tokens = { full: await toolsListSize(dir, false), lazy: await toolsListSize(dir, true) };
      } catch (error) {
        tokens = `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      }
    }

    type Pick = (sample: Sample) => number;
    const finite = (values: readonly (number | undefined)[]): number[] =>
      values.filter((value): value is number => value !== undefined && Number.isFinite(value));
    const figure = (scenario: Scenario, pick: Pick): number | undefined => {
      const values = finite((samples.get(scenario) ?? []).map((sample) => (sample === undefined ? undefined : pick(sample))));
      return values.length === 0 ? undefined : median(values);
    };
    /** The median of the runs' own ratios (gateway ÷ baseline, both from the same run). */
    const ratioOf = (gateway: Scenario, baseline: Scenario, pick: Pick, baselinePick: Pick = pick): number | undefined => {
      const baselines = samples.get(baseline) ?? [];
      const ratios = finite(
        (samples.get(gateway) ?? []).map((sample, run) => {
          const base = baselines[run];
          return sample === undefined || base === undefined ? undefined : pick(sample) / baselinePick(base);
        }),
      );
      return ratios.length === 0 ? undefined : median(ratios);
    };
    const missing = (scenario: Scenario): string => (hasGateway ? `— (${failures.get(scenario) ?? 'no sample'})` : '— (not built)');
    type Unit = 'ms' | 'rate' | 'mb';
    const cell = (value: number | undefined, scenario: Scenario, unit: Unit): string => {
      if (value === undefined) return missing(scenario);
      if (unit === 'ms') return `${ms(value, 3)} ms`;
      if (unit === 'rate') return `${Math.round(value).toLocaleString('en-US')}/s`;
      return `${ms(value, 1)} MB`;
    };

    type Row = [string, string, string, string, string];
    /** The table of one build against the baselines: rows and each target's verdict. */
    const tableOf = (build: Build): { rows: Row[]; verdicts: string[] } => {
      const rows: Row[] = [];
      const verdicts: string[] = [];
      /** One row: the gateway's figure, the baseline's, the ratio, and the target (`≤ n×` or `≥ n×`) with its verdict. */
      const row = (
        label: string,
        gateway: Scenario,
        baseline: Scenario,
        baselineLabel: string,
        unit: Unit,
        pick: Pick,
        target?: { readonly op: '≤' | '≥'; readonly limit: number },
        basePick: Pick = pick,
      ): void => {
        const ratio = ratioOf(gateway, baseline, pick, basePick);
        let verdict = '—';
        if (target !== undefined) {
          const met = ratio === undefined ? undefined : target.op === '≤' ? ratio <= target.limit : ratio >= target.limit;
          verdict = `${target.op} ${target.limit.toFixed(1)}× ${met === undefined ? '(no figure)' : met ? 'met' : '**missed**'}`;
          verdicts.push(`${label}: ${met === undefined ? 'no figure' : met ? 'met' : 'missed'}`);
        }
        rows.push([
          label,
          cell(figure(gateway, pick), gateway, unit),
          `${cell(figure(baseline, basePick), baseline, unit)} (${baselineLabel})`,
          ratio === undefined ? '—' : `${ratio.toFixed(2)}×`,
          verdict,
        ]);
      };
      const cpu: Pick = (sample) => sample.cpuMsPerCall;
      const p50: Pick = (sample) => sample.p50;
      const p99: Pick = (sample) => sample.p99;
      const rate: Pick = (sample) => sample.callsPerSecond;
      row('stdio echo p50', `${build} stdio`, 'direct stdio', 'direct', 'ms', p50, { op: '≤', limit: 2 });
      row('stdio echo p99', `${build} stdio`, 'direct stdio', 'direct', 'ms', p99);
      row(`stdio calls/s, ${inFlight} in flight`, `${build} stdio`, 'direct stdio', 'direct', 'rate', rate, { op: '≥', limit: 0.5 });
      row('stdio CPU per call, process tree', `${build} stdio`, 'direct stdio', 'direct', 'ms', cpu);
      for (const [era, revision] of [
        ['legacy', '2025-11-25'],
        ['modern', '2026-07-28'],
      ] as const) {
        const gateway: Scenario = `${build} http ${era}`;
        const baseline: Scenario = `sdk http ${era}`;
        row(`HTTP ${revision} echo p50`, gateway, baseline, 'SDK HTTP server', 'ms', p50, { op: '≤', limit: 1 });
        row(`HTTP ${revision} echo p99`, gateway, baseline, 'SDK HTTP server', 'ms', p99);
        row(`HTTP ${revision} calls/s, ${inFlight} in flight`, gateway, baseline, 'SDK HTTP server', 'rate', rate, { op: '≥', limit: 2 });
        row(`HTTP ${revision} CPU per call, process tree`, gateway, baseline, 'SDK HTTP server', 'ms', cpu);
      }
      row(
        'cold ready, stdio (spawn → tools/list answered)',
        `${build} stdio`,
        'direct stdio',
        'backend alone',
        'ms',
        (sample) => sample.readyMs,
        { op: '≤', limit: 1.3 },
      );
      row(
        'cold ready, HTTP (spawn → tools/list answered)',
        `${build} http legacy`,
        'sdk http legacy',
        'SDK HTTP server',
        'ms',
        (sample) => sample.readyMs,
      );
      row(
        'RSS of the process tree after the calls, stdio',
        `${build} stdio`,
        'direct stdio',
        'backend alone',
        'mb',
        (sample) => sample.treeRssMb,
        { op: '≤', limit: 1.5 },
      );
      row(
        'PSS of the process tree after the calls, stdio (shared pages once)',
        `${build} stdio`,
        'direct stdio',
        'backend alone',
        'mb',
        (sample) => sample.treePssMb,
      );
      row('RSS of the gateway process alone, stdio', `${build} stdio`, 'direct stdio', 'backend alone', 'mb', (sample) => sample.rssMb);
      row(
        'RSS of the process tree after the calls, HTTP',
        `${build} http legacy`,
        'sdk http legacy',
        'SDK HTTP server',
        'mb',
        (sample) => sample.treeRssMb,
      );
      return { rows, verdicts };
    };
    const render = (build: Build, title: string): string[] => {
      const { rows, verdicts } = tableOf(build);
      const missed = verdicts.filter((line) => !line.endsWith(': met')).map((line) => line.split(':')[0]);
      return [
        title,
        '',
        '| measure | gateway | baseline (same run) | ratio (median of runs) | target |',
        '|---|---|---|---|---|',
        ...rows.map((row) => `| ${row.join(' | ')} |`),
        '',
        `targets met: ${verdicts.length - missed.length} of ${verdicts.length}${missed.length > 0 ? ` (not met: ${missed.join('; ')})` : ''}`,
      ];
    };

    const tokenLine =
      typeof tokens === 'string'
        ? `tools/list over server-everything + 2 test-servers: skipped (${tokens})`
        : [
            'tools/list over server-everything + 2 test-servers:',
            `full ${tokens.full.tools} tools, ${tokens.full.chars.toLocaleString('en-US')} chars ≈ ${Math.round(tokens.full.chars / 4).toLocaleString('en-US')} tokens;`,
            `lazy ${tokens.lazy.tools} tools, ${tokens.lazy.chars.toLocaleString('en-US')} chars ≈ ${Math.round(tokens.lazy.chars / 4).toLocaleString('en-US')} tokens`,
            `(${(tokens.lazy.chars / tokens.full.chars).toFixed(2)}× of full)`,
          ].join(' ');

    const table = [
      `promptyard-gateway, echo tool of test-server.mjs, ${warmCalls} + ${warmBurstCalls.toLocaleString('en-US')} warm (sequential, 32 in flight) + ${measuredCalls} sequential calls, ${burstCalls.toLocaleString('en-US')} calls at ${inFlight} in flight (HTTP: from autocannon), medians of ${runs} runs, Node ${process.version}`,
      ...(hasGateway ? [] : ['', `**Gateway not built** (${gatewayCli} missing): gateway rows are empty, baselines only.`]),
      '',
      ...render('gateway', `this build (${gatewayCli})`),
      ...(beforeCli === undefined ? [] : ['', ...render('before', `before: BENCH_BEFORE (${beforeCli}), same runs`)]),
      '',
      tokenLine,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'gateway-results.md'), `${table}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
