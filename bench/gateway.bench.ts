/**
 * `pnpm bench`: measures promptyard-gateway in front of the `echo` tool of the test backend
 * (apps/gateway/test/backends/test-server.mjs), each figure beside a baseline taken in the same run,
 * medians of BENCH_RUNS runs (default 3).
 *
 *   stdio ↔ stdio       SDK client → gateway (stdio) → test-server (stdio), vs the client → test-server directly
 *   HTTP downstream     SDK client → gateway (Streamable HTTP) → test-server (stdio), vs the SDK's own HTTP
 *                       server serving test-server directly; 2025-11-25 sessions and 2026-07-28 requests
 *   figures             p50/p99 of sequential calls, calls/s with 32 in flight, cold ready
 *                       (spawn → connected + tools/list), RSS of gateway and backend
 *   tools/list cost     lazy vs full tools/list over server-everything + two test-servers
 *
 * Until apps/gateway/dist/cli.js exists (`pnpm build`), the gateway rows are skipped with a note
 * and only the baselines are measured.
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
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingCommand, killTree, listDescendants, stdioBackendCommand, testServerPath } from '../apps/gateway/test/backends/spawn.js';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayCli = join(root, 'apps/gateway/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const runs = Number(process.env['BENCH_RUNS'] ?? 3);
const warmCalls = Number(process.env['BENCH_WARM'] ?? 200);
const measuredCalls = Number(process.env['BENCH_CALLS'] ?? 2000);
const burstCalls = Number(process.env['BENCH_BURST'] ?? 5000);
const inFlight = 32;
const hasGateway = existsSync(gatewayCli);

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
  close(): Promise<void>;
}

interface Sample {
  readonly p50: number;
  readonly p99: number;
  readonly callsPerSecond: number;
  readonly readyMs: number;
  readonly rssMb: number;
  /** The backend behind a gateway, when there is one. */
  readonly backendRssMb?: number;
}

const rssOf = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
};

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

const connectHttp = async (url: string, era: Era): Promise<Client> => {
  const client = makeClient(era);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (era === 'modern' && client.getProtocolEra() !== 'modern') throw new Error(`${url} did not negotiate 2026-07-28`);
  return client;
};

/** Spawns an HTTP server, connects and lists tools; ready = spawn → tools/list answered. */
const startHttp = async (args: string[], tool: string, era: Era): Promise<Target> => {
  const began = performance.now();
  const { child, url } = await spawnListening(args);
  return ready(await connectHttp(url, era), tool, child.pid as number, began);
};

const call = (target: Target, index: number): Promise<unknown> => target.client.callTool({ name: target.tool, arguments: { text: `message ${index}` } });

/** Warm-up, sequential latencies, then `burstCalls` calls with 32 in flight. */
const measure = async (target: Target, backendPid?: number): Promise<Sample> => {
  for (let index = 0; index < warmCalls; index++) await call(target, index);
  const latencies: number[] = [];
  for (let index = 0; index < measuredCalls; index++) {
    const began = performance.now();
    await call(target, index);
    latencies.push(performance.now() - began);
  }
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < burstCalls) await call(target, next++);
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  return {
    p50: median(latencies),
    p99: percentile(latencies, 99),
    callsPerSecond: burstCalls / seconds,
    readyMs: target.readyMs,
    rssMb: rssOf(target.pid),
    ...(backendPid === undefined ? {} : { backendRssMb: rssOf(backendPid) }),
  };
};

/** The test-server below a gateway process (for its RSS). */
const backendBelow = (gatewayPid: number): number | undefined =>
  listDescendants(gatewayPid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('test-server.mjs');
    } catch {
      return false;
    }
  });

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

type Scenario = 'direct stdio' | 'gateway stdio' | 'sdk http legacy' | 'sdk http modern' | 'gateway http legacy' | 'gateway http modern';

const runScenario = async (scenario: Scenario, configPath: string): Promise<Sample> => {
  let target: Target;
  switch (scenario) {
    case 'direct stdio': {
      const { command, args } = stdioBackendCommand({ name: 'echo' });
      target = await startStdio(command, args, 'echo');
      break;
    }
    case 'gateway stdio':
      target = await startStdio(process.execPath, [gatewayCli, '--config', configPath], 'echo_echo');
      break;
    case 'sdk http legacy':
    case 'sdk http modern':
      target = await startHttp([testServerPath, '--name', 'echo', '--transport', 'http', '--port', '0'], 'echo', scenario.endsWith('modern') ? 'modern' : 'legacy');
      break;
    case 'gateway http legacy':
    case 'gateway http modern':
      target = await startHttp([gatewayCli, '--config', configPath, '--transport', 'http', '--port', '0'], 'echo_echo', scenario.endsWith('modern') ? 'modern' : 'legacy');
      break;
  }
  try {
    return await measure(target, scenario.startsWith('gateway') ? backendBelow(target.pid) : undefined);
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
    process.stderr.write(`note: ${gatewayCli} is missing (run \`pnpm build\` once apps/gateway has a CLI); measuring the baselines only.\n`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-gateway-bench-'));
  const configPath = await writeGatewayConfig(dir, 'gateway.toml', echoConfig());
  const scenarios: Scenario[] = [
    'direct stdio',
    'sdk http legacy',
    'sdk http modern',
    ...(hasGateway ? (['gateway stdio', 'gateway http legacy', 'gateway http modern'] as const) : []),
  ];
  const samples = new Map<Scenario, Sample[]>(scenarios.map((scenario) => [scenario, []]));
  const failures = new Map<Scenario, string>();
  try {
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`run ${run + 1}/${runs}\n`);
      for (const scenario of scenarios) {
        if (failures.has(scenario)) continue;
        try {
          samples.get(scenario)?.push(await runScenario(scenario, configPath));
        } catch (error) {
          // A gateway that is still being written may not serve every mode yet: report, keep going.
          failures.set(scenario, error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error));
          process.stderr.write(`${scenario}: failed — ${failures.get(scenario)}\n`);
        }
      }
    }

    let tokens: { lazy: { chars: number; tools: number }; full: { chars: number; tools: number } } | string = 'gateway not built';
    if (hasGateway) {
      try {
        tokens = { full: await toolsListSize(dir, false), lazy: await toolsListSize(dir, true) };
      } catch (error) {
        tokens = `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      }
    }

    const figure = (scenario: Scenario, pick: (sample: Sample) => number | undefined): number | undefined => {
      const values = (samples.get(scenario) ?? []).map(pick).filter((value): value is number => value !== undefined && Number.isFinite(value));
      return values.length === 0 ? undefined : median(values);
    };
    const missing = (scenario: Scenario): string => (hasGateway ? `— (${failures.get(scenario) ?? 'no sample'})` : '— (not built)');
    const msCell = (value: number | undefined, scenario: Scenario): string => (value === undefined ? missing(scenario) : `${ms(value, 3)} ms`);
    const rateCell = (value: number | undefined, scenario: Scenario): string => (value === undefined ? missing(scenario) : `${Math.round(value).toLocaleString('en-US')}/s`);
    const mbCell = (value: number | undefined, scenario: Scenario): string => (value === undefined ? missing(scenario) : `${ms(value, 1)} MB`);
    const ratio = (gateway: number | undefined, baseline: number | undefined): string =>
      gateway === undefined || baseline === undefined ? '—' : `${(gateway / baseline).toFixed(2)}×`;
    const verdict = (gateway: number | undefined, ok: (value: number) => boolean, label: string): string =>
      gateway === undefined ? `${label}: —` : `${label}: ${ok(gateway) ? 'met' : 'MISSED'}`;

    type Row = [string, string, string, string, string];
    const rows: Row[] = [];
    const latencyRows = (label: string, gateway: Scenario, baseline: Scenario, baselineLabel: string, target: 'stdio' | 'http'): void => {
      const g50 = figure(gateway, (sample) => sample.p50);
      const b50 = figure(baseline, (sample) => sample.p50);
      const g99 = figure(gateway, (sample) => sample.p99);
      const b99 = figure(baseline, (sample) => sample.p99);
      const gRate = figure(gateway, (sample) => sample.callsPerSecond);
      const bRate = figure(baseline, (sample) => sample.callsPerSecond);
      const p50Target =
        target === 'stdio'
          ? verdict(g50, (value) => b50 !== undefined && value <= 2 * b50, '≤ 2× direct')
          : verdict(g50, (value) => b50 !== undefined && value <= b50, '≤ SDK HTTP');
      const rateTarget =
        target === 'stdio'
          ? verdict(gRate, (value) => value >= 10_000, '≥ 10,000/s')
          : verdict(gRate, (value) => bRate !== undefined && value >= bRate, '≥ SDK HTTP');
      rows.push([`${label} p50`, msCell(g50, gateway), `${msCell(b50, baseline)} (${baselineLabel})`, ratio(g50, b50), p50Target]);
      rows.push([`${label} p99`, msCell(g99, gateway), `${msCell(b99, baseline)} (${baselineLabel})`, ratio(g99, b99), '—']);
      rows.push([`${label} calls/s, ${inFlight} in flight`, rateCell(gRate, gateway), `${rateCell(bRate, baseline)} (${baselineLabel})`, ratio(gRate, bRate), rateTarget]);
    };
    latencyRows('stdio↔stdio echo', 'gateway stdio', 'direct stdio', 'direct stdio', 'stdio');
    latencyRows('HTTP 2025-11-25 echo', 'gateway http legacy', 'sdk http legacy', 'SDK HTTP server', 'http');
    latencyRows('HTTP 2026-07-28 echo', 'gateway http modern', 'sdk http modern', 'SDK HTTP server', 'http');
    const readyRow = (label: string, gateway: Scenario, baseline: Scenario, baselineLabel: string): void => {
      const g = figure(gateway, (sample) => sample.readyMs);
      const b = figure(baseline, (sample) => sample.readyMs);
      rows.push([label, msCell(g, gateway), `${msCell(b, baseline)} (${baselineLabel})`, ratio(g, b), '—']);
    };
    readyRow('cold ready, stdio (spawn → tools/list)', 'gateway stdio', 'direct stdio', 'backend alone');
    readyRow('cold ready, HTTP (spawn → tools/list)', 'gateway http legacy', 'sdk http legacy', 'backend alone');
    const gatewayRss = figure('gateway stdio', (sample) => sample.rssMb);
    const backendRss = figure('gateway stdio', (sample) => sample.backendRssMb);
    const directRss = figure('direct stdio', (sample) => sample.rssMb);
    rows.push(['RSS after the calls, stdio', mbCell(gatewayRss, 'gateway stdio'), `${mbCell(directRss, 'direct stdio')} (backend alone)`, ratio(gatewayRss, directRss), '—']);
    rows.push(['RSS of the backend behind the gateway', mbCell(backendRss, 'gateway stdio'), `${mbCell(directRss, 'direct stdio')} (backend alone)`, ratio(backendRss, directRss), '—']);
    const httpRss = figure('gateway http legacy', (sample) => sample.rssMb);
    const sdkHttpRss = figure('sdk http legacy', (sample) => sample.rssMb);
    rows.push(['RSS after the calls, HTTP', mbCell(httpRss, 'gateway http legacy'), `${mbCell(sdkHttpRss, 'sdk http legacy')} (SDK HTTP server)`, ratio(httpRss, sdkHttpRss), '—']);

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
      `promptyard-gateway, echo tool of test-server.mjs, ${warmCalls} warm + ${measuredCalls} sequential calls, ${burstCalls.toLocaleString('en-US')} calls at ${inFlight} in flight, medians of ${runs} runs, Node ${process.version}`,
      ...(hasGateway ? [] : ['', `**Gateway not built** (${gatewayCli} missing): gateway rows are empty, baselines only.`]),
      '',
      '| measure | gateway | baseline (same run) | ratio | target |',
      '|---|---|---|---|---|',
      ...rows.map((row) => `| ${row.join(' | ')} |`),
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
