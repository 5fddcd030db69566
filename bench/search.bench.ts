/**
 * `pnpm bench` (second part): the overhead of a search tool call through promptyard-server.
 *
 * For each tool, N calls over stdio against its loopback fake, interleaved with N direct `fetch`
 * requests to the same fake (same path, headers and body) as the baseline in the same run; the
 * difference is what the MCP round trip, argument validation, the tool service and output
 * formatting cost. An MCP ping on the same connection shows how much of that is the stdio round
 * trip itself. Medians of several runs.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startPerplexityFake, startSerperFake } from '../packages/web-search/src/test-fakes.js';
import type { FakeService } from '../packages/web-search/src/test-fakes.js';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'apps/server/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const calls = Number(process.env['BENCH_CALLS'] ?? 500);
const warmup = 50;
const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const serperKey = 'bench-serper-key';
const perplexityKey = 'bench-perplexity-key';

const time = async (work: () => Promise<unknown>): Promise<number> => {
  const began = performance.now();
  await work();
  return performance.now() - began;
};

interface Case {
  readonly tool: string;
  readonly fake: FakeService;
  readonly args: Record<string, unknown>;
  /** The request the tool sends, made directly. */
  direct(): Promise<unknown>;
}

const post = async (url: string, headers: Record<string, string>, body: unknown): Promise<unknown> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
};

interface Sample {
  toolP50: number;
  toolP95: number;
  directP50: number;
  directP95: number;
  pingP50: number;
}

const runOnce = async (dir: string): Promise<Map<string, Sample>> => {
  const [serper, perplexity] = await Promise.all([startSerperFake({ apiKey: serperKey }), startPerplexityFake({ apiKey: perplexityKey })]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--prompts', dir, '--no-watch'],
    env: {
      PATH: process.env['PATH'] ?? '',
      SERPER_API_KEY: serperKey,
      PERPLEXITY_API_KEY: perplexityKey,
      SERPER_BASE_URL: serper.url,
      PERPLEXITY_BASE_URL: perplexity.url,
      PROMPTYARD_LOG_LEVEL: 'warning',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid as number;
  const cases: Case[] = [
    {
      tool: 'web_search',
      fake: serper,
      args: { query: 'model context protocol', num: 10 },
      direct: () => post(`${serper.url}/search`, { 'x-api-key': serperKey }, { q: 'model context protocol', num: 10 }),
    },
    {
      tool: 'perplexity_summary_search',
      fake: perplexity,
      args: { query: 'what is the model context protocol' },
      direct: () =>
        post(
          `${perplexity.url}/chat/completions`,
          { authorization: `Bearer ${perplexityKey}` },
          { model: 'sonar', messages: [{ role: 'user', content: 'what is the model context protocol' }] },
        ),
    },
  ];
  const samples = new Map<string, Sample>();
  try {
    for (const item of cases) {
      const toolTimes: number[] = [];
      const directTimes: number[] = [];
      const pingTimes: number[] = [];
      for (let index = 0; index < warmup + calls; index++) {
        const toolMs = await time(async () => {
          const result = await client.callTool({ name: item.tool, arguments: item.args });
          if (result.isError === true) throw new Error(`${item.tool} failed: ${JSON.stringify(result.content)}`);
        });
        const directMs = await time(item.direct);
        const pingMs = await time(() => client.ping());
        if (index >= warmup) {
          toolTimes.push(toolMs);
          directTimes.push(directMs);
          pingTimes.push(pingMs);
        }
      }
      samples.set(item.tool, {
        toolP50: median(toolTimes),
        toolP95: percentile(toolTimes, 95),
        directP50: median(directTimes),
        directP95: percentile(directTimes, 95),
        pingP50: median(pingTimes),
      });
    }
  } finally {
    await client.close();
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await Promise.all([serper.close(), perplexity.close()]);
  }
  return samples;
};

const main = async (): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-bench-search-'));
  await writeFile(join(dir, 'only.md'), '---\ndescription: The only prompt\n---\nWrite about {{ subject }}.');
  const all = new Map<string, Sample[]>();
  try {
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`search run ${run + 1}/${runs}\n`);
      for (const [tool, sample] of await runOnce(dir)) all.set(tool, [...(all.get(tool) ?? []), sample]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const rows = [...all].map(([tool, samples]) => {
    const pick = (key: keyof Sample): number => median(samples.map((sample) => sample[key]));
    const toolP50 = pick('toolP50');
    const directP50 = pick('directP50');
    return `| \`${tool}\` | ${ms(toolP50)} ms | ${ms(pick('toolP95'))} ms | ${ms(directP50)} ms | ${ms(pick('directP95'))} ms | +${ms(toolP50 - directP50)} ms | ${(toolP50 / directP50).toFixed(2)}× | ${ms(pick('pingP50'))} ms |`;
  });
  const table = [
    `search tool-call overhead: ${calls} calls per tool over stdio against loopback fakes, interleaved with ${calls} direct fetches to the same fake; medians of ${runs} runs, Node ${process.version}`,
    '',
    '| tool | tools/call p50 | tools/call p95 | direct fetch p50 (baseline) | direct fetch p95 | overhead p50 | ratio p50 | MCP ping p50 (reference) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'search-results.md'), `${table}\n`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
