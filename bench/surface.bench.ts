/**
 * `pnpm bench`: what a curated surface costs promptyard-gateway, each figure beside the same gateway
 * with a plain config, both measured in the same runs — the two gateways' calls alternated call by call
 * (bursts 500 calls at a time), the listings back to back in alternating order — medians of BENCH_RUNS
 * runs (default 3). Ratios are the median of each run's own ratio.
 *
 *   echo over stdio   SDK client → gateway (stdio) → test-server's `echo` (stdio). "surface": served through
 *                     `--profile bench` (a brace glob), `echo` renamed `say` with `text` fixed by an override,
 *                     `pinning = "enforce"` and an `[audit] file`; "plain": none of them (`pinning = "off"`).
 *                     p50 of sequential calls and calls/s with 32 in flight. Target ≤ 1.05× (calls/s ≥ 1/1.05).
 *   tools/list        a full (paged) `tools/list` of a backend with BENCH_LIST_TOOLS tools (default 5,000,
 *                     bench/many-tools-server.mjs) through a profile (`tools = ["tool_*"]`) against without.
 *                     Target ≤ 1.2×.
 *
 * BENCH_GATEWAY=<cli.js> measures another build; BENCH_WARM, BENCH_CALLS, BENCH_BURST size the calls,
 * BENCH_LISTS the listings per run. Needs apps/gateway/dist/cli.js (`pnpm build`).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { killTree, stdioBackendCommand } from '../apps/gateway/test/backends/spawn.js';
import { median, ms } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayCli = process.env['BENCH_GATEWAY'] ?? join(root, 'apps/gateway/dist/cli.js');
const manyToolsServer = join(root, 'bench/many-tools-server.mjs');
const dataDir = join(root, 'bench/.data');
const runs = Math.max(3, Number(process.env['BENCH_RUNS'] ?? 3));
const warmCalls = Number(process.env['BENCH_WARM'] ?? 200);
const measuredCalls = Number(process.env['BENCH_CALLS'] ?? 2000);
const burstCalls = Number(process.env['BENCH_BURST'] ?? 5000);
const listTools = Number(process.env['BENCH_LIST_TOOLS'] ?? 5000);
const listings = Number(process.env['BENCH_LISTS'] ?? 20);
const inFlight = 32;

interface Gateway {
  readonly client: Client;
  close(): Promise<void>;
}

/** Spawns the gateway over stdio with `config` (and `--profile`), connected once it answered `tools/list`. */
const startGateway = async (config: string, profile?: string): Promise<Gateway> => {
  const args = [gatewayCli, '--config', config, ...(profile === undefined ? [] : ['--profile', profile])];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid as number;
  await client.listTools();
  return {
    client,
    close: async () => {
      await client.close().catch(() => {});
      killTree(pid);
    },
  };
};

interface CallSample {
  readonly p50: number;
  readonly callsPerSecond: number;
}

/** The text the backend's echo sends back when the override fixes its argument. */
const fixedText = 'message 1000';

type Caller = (index: number) => Promise<unknown>;

/** Calls `tool` with a text argument; throws on an error result. */
const callerOf =
  ({ client }: Gateway, tool: string): Caller =>
  async (index) => {
    const result = await client.callTool({ name: tool, arguments: { text: `message ${index}` } });
    if (result.isError === true) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
    return result.content;
  };

/** Seconds `count` calls take with 32 in flight. */
const burst = async (call: Caller, count: number): Promise<number> => {
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await call(next++);
    }),
  );
  return (performance.now() - began) / 1000;
};

/**
 * Both gateways, measured in turn so a busy moment of a shared machine falls on both: warm-up, then
 * sequential calls alternating call by call (p50), then bursts of 500 calls with 32 in flight
 * alternating (calls/s). The first call checks the surface's override took effect: the backend got
 * the fixed text whatever the caller sent.
 */
const measureCalls = async (plain: Caller, surface: Caller): Promise<{ plain: CallSample; surface: CallSample }> => {
  const first = JSON.stringify(await surface(1));
  if (!first.includes(JSON.stringify(fixedText))) throw new Error(`the surface's echo did not get the fixed argument: ${first}`);
  for (let index = 0; index < warmCalls; index++) await Promise.all([plain(index), surface(index)]);
  const latencies = { plain: [] as number[], surface: [] as number[] };
  const timed = async (side: 'plain' | 'surface', index: number): Promise<void> => {
    const began = performance.now();
    await (side === 'plain' ? plain : surface)(index);
    latencies[side].push(performance.now() - began);
  };
  for (let index = 0; index < measuredCalls; index++) {
    const order = index % 2 === 0 ? (['plain', 'surface'] as const) : (['surface', 'plain'] as const);
    for (const side of order) await timed(side, index);
  }
  const seconds = { plain: 0, surface: 0 };
  for (let done = 0, round = 0; done < burstCalls; done += 500, round++) {
    const count = Math.min(500, burstCalls - done);
    const order = round % 2 === 0 ? (['plain', 'surface'] as const) : (['surface', 'plain'] as const);
    for (const side of order) seconds[side] += await burst(side === 'plain' ? plain : surface, count);
  }
  return {
    plain: { p50: median(latencies.plain), callsPerSecond: burstCalls / seconds.plain },
    surface: { p50: median(latencies.surface), callsPerSecond: burstCalls / seconds.surface },
  };
};

/** Every page of `tools/list`: how many tools. */
const listAll = async (client: Client): Promise<number> => {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    count += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return count;
};

/** The median time of a full `tools/list` (after two unmeasured ones), checking every listing has `expected` tools at least. */
const measureList = async ({ client }: Gateway, expected: number): Promise<number> => {
  const times: number[] = [];
  for (let index = -2; index < listings; index++) {
    const began = performance.now();
    const count = await listAll(client);
    if (count < expected) throw new Error(`tools/list gave ${count} tools, expected ${expected}`);
    if (index >= 0) times.push(performance.now() - began);
  }
  return median(times);
};

const toml = (value: string): string => JSON.stringify(value);

const serverLines = (name: string, command: string, args: readonly string[]): string[] => [
  `[servers.${name}]`,
  `command = ${toml(command)}`,
  `args = [${args.map(toml).join(', ')}]`,
];

/** The four configs: echo plain and with the whole surface, many tools with and without a profile. */
const writeConfigs = async (dir: string): Promise<Record<'plain' | 'surface' | 'listPlain' | 'listProfile', string>> => {
  const echo = stdioBackendCommand({ name: 'echo' });
  const many = serverLines('many', process.execPath, [manyToolsServer, String(listTools)]);
  const bodies = {
    plain: [...serverLines('echo', echo.command, echo.args), 'pinning = "off"'],
    surface: [
      '[gateway]',
      'pins_file = "pins.json"',
      '',
      ...serverLines('echo', echo.command, echo.args),
      'pinning = "enforce"',
      '',
      '[servers.echo.overrides.tools.echo]',
      'name = "say"',
      'description = "Says a fixed message."',
      `arguments = { text = ${toml(fixedText)} }`,
      '',
      '[profiles.bench.servers.echo]',
      'tools = ["{echo,add}"]',
      '',
      '[audit]',
      'file = "audit.log"',
    ],
    listPlain: [...many, 'pinning = "off"'],
    listProfile: [...many, 'pinning = "off"', '', '[profiles.bench.servers.many]', 'tools = ["tool_*"]'],
  };
  const paths = {} as Record<keyof typeof bodies, string>;
  for (const [key, lines] of Object.entries(bodies) as [keyof typeof bodies, string[]][]) {
    paths[key] = join(dir, `${key}.toml`);
    await writeFile(paths[key], `${lines.join('\n')}\n`);
  }
  return paths;
};

interface RunSample {
  plain: CallSample;
  surface: CallSample;
  listPlain: number;
  listProfile: number;
}

/** One run: the calls of both gateways interleaved; the listings back to back, their order flipped on odd runs. */
const runOnce = async (configs: Awaited<ReturnType<typeof writeConfigs>>, run: number): Promise<RunSample> => {
  const calls = async (): Promise<{ plain: CallSample; surface: CallSample }> => {
    const plain = await startGateway(configs.plain);
    try {
      const surface = await startGateway(configs.surface, 'bench');
      try {
        return await measureCalls(callerOf(plain, 'echo_echo'), callerOf(surface, 'echo_say'));
      } finally {
        await surface.close();
      }
    } finally {
      await plain.close();
    }
  };
  const list = async (kind: 'listPlain' | 'listProfile'): Promise<number> => {
    const gateway = await startGateway(configs[kind], kind === 'listProfile' ? 'bench' : undefined);
    try {
      return await measureList(gateway, listTools);
    } finally {
      await gateway.close();
    }
  };
  const flip = run % 2 === 1;
  const called = await calls();
  const listedFirst = flip ? await list('listProfile') : await list('listPlain');
  const listedSecond = flip ? await list('listPlain') : await list('listProfile');
  return flip
    ? { ...called, listPlain: listedSecond, listProfile: listedFirst }
    : { ...called, listPlain: listedFirst, listProfile: listedSecond };
};

const main = async (): Promise<void> => {
  if (!existsSync(gatewayCli)) {
    process.stderr.write(`note: ${gatewayCli} is missing (run \`pnpm build\`); skipping the surface benchmark.\n`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-surface-bench-'));
  try {
    const configs = await writeConfigs(dir);
    const samples: RunSample[] = [];
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`surface run ${run + 1}/${runs}\n`);
      samples.push(await runOnce(configs, run));
    }
    const audited = (await readFile(join(dir, 'audit.log'), 'utf8')).split('\n').filter((line) => line.includes('"echo_say"')).length;
    const expectedLines = runs * (1 + warmCalls + measuredCalls + burstCalls);
    if (audited !== expectedLines) throw new Error(`the audit file holds ${audited} lines of echo_say calls, expected ${expectedLines}`);
    type Row = readonly [
      label: string,
      pick: (sample: RunSample) => [number, number],
      unit: 'ms' | 'rate',
      target: string,
      met: (ratio: number) => boolean,
    ];
    const rows: Row[] = [
      ['stdio echo p50', (s) => [s.surface.p50, s.plain.p50], 'ms', '≤ 1.05×', (ratio) => ratio <= 1.05],
      [
        `stdio calls/s, ${inFlight} in flight`,
        (s) => [s.surface.callsPerSecond, s.plain.callsPerSecond],
        'rate',
        '≥ 0.95× (1/1.05)',
        (ratio) => ratio >= 1 / 1.05,
      ],
      [
        `full tools/list of ${listTools.toLocaleString('en-US')} tools`,
        (s) => [s.listProfile, s.listPlain],
        'ms',
        '≤ 1.2×',
        (ratio) => ratio <= 1.2,
      ],
    ];
    const format = (value: number, unit: 'ms' | 'rate'): string =>
      unit === 'ms' ? `${ms(value, 3)} ms` : `${Math.round(value).toLocaleString('en-US')}/s`;
    const lines = [
      `promptyard-gateway surfaces (${gatewayCli}), ${warmCalls} warm + ${measuredCalls} sequential echo calls, ${burstCalls.toLocaleString('en-US')} at ${inFlight} in flight, ${listings} full listings, medians of ${runs} runs, Node ${process.version}`,
      '',
      '| measure | profile + overrides + pinning enforce + audit file (list: profile) | plain config (same run) | ratio (median of runs) | each run | target |',
      '|---|---|---|---|---|---|',
      ...rows.map(([label, pick, unit, target, met]) => {
        const ratios = samples.map((sample) => pick(sample)[0] / pick(sample)[1]);
        const ratio = median(ratios);
        const [withSurface, plain] = [0, 1].map((side) => median(samples.map((sample) => pick(sample)[side] as number))) as [
          number,
          number,
        ];
        return `| ${label} | ${format(withSurface, unit)} | ${format(plain, unit)} | ${ratio.toFixed(3)}× | ${ratios.map((each) => each.toFixed(2)).join(', ')} | ${target} ${met(ratio) ? 'met' : '**missed**'} |`;
      }),
    ];
    const table = lines.join('\n');
    process.stdout.write(`${table}\n`);
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'surface-results.md'), `${table}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
