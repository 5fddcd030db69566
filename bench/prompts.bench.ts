/**
 * `pnpm bench:prompts`: promptyard-server against the naive reference server (`bench/naive-server.mjs`:
 * the SDK's low-level `Server`, `yaml` frontmatter, regex `{{var}}`, `fs.watch`, 100-item pages), both
 * on the same 10,000 generated prompt files (~2 KB each, nested folders), in the same run, medians of
 * BENCH_RUNS runs. Both servers are up at once and measured call by call in turn (the machine may
 * be shared: compare the columns of one run, not absolute figures across runs).
 *
 *   spawn → ready     initialize + first prompts/list page
 *   full paged list   every page of prompts/list
 *   prompts/get       p50/p99, interleaved with pings on the same connection
 *   save → notify     file write → notifications/prompts/list_changed (p95 and missed, all runs' edits)
 *   RSS               resident memory after loading and the gets
 *   50,000 prompts    promptyard alone (BENCH_LARGE=0 skips): ready, get p50, RSS growth per prompt
 *
 * BENCH_BEFORE_SERVER=<cli.js of another build> measures that build too, in the same runs and call by
 * call in turn with the other two, and prints a second table: this build against it (a before/after
 * comparison of a change, with the old build kept aside).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nameOf, writePrompts } from './generated-prompts.js';
import { median, ms, percentile, rssMb } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const commands = {
  naive: (dir: string): string[] => [join(root, 'bench/naive-server.mjs'), dir],
  promptyard: (dir: string, watching: boolean): string[] => [
    join(root, 'apps/server/dist/cli.js'),
    '--prompts',
    dir,
    ...(watching ? [] : ['--no-watch']),
  ],
  before: (dir: string, watching: boolean): string[] => [
    process.env['BENCH_BEFORE_SERVER'] ?? '',
    '--prompts',
    dir,
    ...(watching ? [] : ['--no-watch']),
  ],
};
type Kind = keyof typeof commands;
/** The other build measured beside this one, when BENCH_BEFORE_SERVER names its cli.js. */
const withBefore = (process.env['BENCH_BEFORE_SERVER'] ?? '') !== '';
const dataDir = join(root, 'bench/.data');
const smallDir = join(dataDir, 'prompts-1');
const promptCount = Number(process.env['BENCH_PROMPTS'] ?? 10_000);
const largeCount = Number(process.env['BENCH_LARGE'] ?? 50_000);
const runs = Math.max(3, Number(process.env['BENCH_RUNS'] ?? 5));
const edits = Number(process.env['BENCH_EDITS'] ?? 20);
const dirOf = (count: number): string => join(dataDir, count === 10_000 ? 'prompts-10k' : `prompts-${count}`);

/** `count` files, 10 top folders × 10 subfolders × count/100 files, a mix of frontmatter and Liquid. */
const generate = async (count: number): Promise<string> => {
  const dir = dirOf(count);
  const marker = join(dir, '.generated');
  if ((await readFile(marker, 'utf8').catch(() => '')) === String(count)) return dir;
  await rm(dir, { recursive: true, force: true });
  await writePrompts(dir, count);
  await mkdir(smallDir, { recursive: true });
  await writeFile(join(smallDir, 'only.md'), '---\ndescription: The only prompt\n---\nWrite about {{ subject }}.');
  await writeFile(marker, String(count));
  return dir;
};

interface Server {
  readonly client: Client;
  readonly pid: number;
  readonly readyMs: number;
  close(): Promise<void>;
}

const start = async (kind: Kind, dir: string, watching: boolean): Promise<Server> => {
  const began = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: commands[kind](dir, watching), stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.request({ method: 'prompts/list', params: {} });
  const readyMs = performance.now() - began;
  const pid = transport.pid as number;
  return {
    client,
    pid,
    readyMs,
    close: async () => {
      await client.close();
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
};

const listAll = async (client: Client): Promise<{ pages: number; prompts: number }> => {
  let cursor: string | undefined;
  let pages = 0;
  let prompts = 0;
  do {
    const page = (await client.request({ method: 'prompts/list', params: cursor === undefined ? {} : { cursor } })) as {
      prompts: unknown[];
      nextCursor?: string;
    };
    pages += 1;
    prompts += page.prompts.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { pages, prompts };
};

const time = async (work: () => Promise<unknown>): Promise<number> => {
  const began = performance.now();
  await work();
  return performance.now() - began;
};

/**
 * Gets (and pings) on several servers, interleaved call by call so that all see the same conditions
 * on a shared machine; the first 200 rounds warm up.
 */
const measureGets = async (clients: readonly Client[], count: number): Promise<{ gets: number[][]; pings: number[][] }> => {
  const gets = clients.map((): number[] => []);
  const pings = clients.map((): number[] => []);
  for (let index = 0; index < 2200; index++) {
    const name = nameOf((index * 7919) % count);
    for (let turn = 0; turn < clients.length; turn++) {
      const which = (index + turn) % clients.length;
      const client = clients[which] as Client;
      const getMs = await time(() => client.getPrompt({ name, arguments: { subject: `subject ${index}`, tone: 'casual' } }));
      const pingMs = await time(() => client.ping());
      if (index >= 200) {
        gets[which]?.push(getMs);
        pings[which]?.push(pingMs);
      }
    }
  }
  return { gets, pings };
};

/** Save → list_changed on a watched server: latencies of the noticed edits, and how many were missed (none within 5 s). */
const measureReload = async (kind: Kind, dir: string): Promise<{ latencies: number[]; missed: number }> => {
  const server = await start(kind, dir, true);
  const target = join(dir, 'area-3/topic-4/prompt-43.md');
  const original = await readFile(target, 'utf8');
  let onChange: () => void = () => {};
  server.client.setNotificationHandler('notifications/prompts/list_changed', () => onChange());
  const waitChange = (timeoutMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      onChange = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  // The watcher is ready once an edit is noticed; wait for the first one before measuring.
  for (let attempt = 0; attempt < 100; attempt++) {
    const noticed = waitChange(500);
    await writeFile(target, `${original}\nwarm-up ${attempt}`);
    if (await noticed) break;
  }
  const latencies: number[] = [];
  let missed = 0;
  for (let edit = 0; edit < edits; edit++) {
    // Let the previous edit's notifications (a save can be two fs events) settle first.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const noticed = waitChange(5000);
    const began = performance.now();
    await writeFile(target, `${original}\nedit ${edit}`);
    if (await noticed) latencies.push(performance.now() - began);
    else missed += 1;
  }
  onChange = () => {};
  await writeFile(target, original);
  await server.close();
  return { latencies, missed };
};

interface Sample {
  ready: number[];
  fullList: number[];
  getP50: number[];
  getP99: number[];
  pingP50: number[];
  rss: number[];
  rssSmall: number[];
  reload: number[];
  missed: number;
}
const emptySample = (): Sample => ({
  ready: [],
  fullList: [],
  getP50: [],
  getP99: [],
  pingP50: [],
  rss: [],
  rssSmall: [],
  reload: [],
  missed: 0,
});

/** One run of every kind on the same folder: servers started one by one, then measured side by side. */
const measureRun = async (
  kinds: readonly Kind[],
  dir: string,
  count: number,
  samples: Record<Kind, Sample>,
  withReload: boolean,
): Promise<Record<Kind, { pages: number; prompts: number }>> => {
  for (const kind of kinds) {
    const small = await start(kind, smallDir, false);
    samples[kind].rssSmall.push(await rssMb(small.pid));
    await small.close();
  }
  const servers: Server[] = [];
  for (const kind of kinds) {
    const server = await start(kind, dir, false);
    samples[kind].ready.push(server.readyMs);
    servers.push(server);
  }
  const listed = {} as Record<Kind, { pages: number; prompts: number }>;
  const lists = kinds.map((): number[] => []);
  for (const [index, kind] of kinds.entries()) listed[kind] = await listAll((servers[index] as Server).client);
  for (let round = 0; round < 3; round++) {
    for (const [index, server] of servers.entries()) lists[index]?.push(await time(() => listAll(server.client)));
  }
  const { gets, pings } = await measureGets(
    servers.map((server) => server.client),
    count,
  );
  for (const [index, kind] of kinds.entries()) {
    const sample = samples[kind];
    sample.fullList.push(median(lists[index] ?? []));
    sample.getP50.push(median(gets[index] ?? []));
    sample.getP99.push(percentile(gets[index] ?? [], 99));
    sample.pingP50.push(median(pings[index] ?? []));
    sample.rss.push(await rssMb((servers[index] as Server).pid));
  }
  for (const server of servers) await server.close();

  if (withReload) {
    for (const kind of kinds) {
      const { latencies, missed } = await measureReload(kind, dir);
      samples[kind].reload.push(...latencies);
      samples[kind].missed += missed;
    }
  }
  return listed;
};

const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

const main = async (): Promise<void> => {
  process.stderr.write(`generating ${promptCount} prompts …\n`);
  const dir = await generate(promptCount);
  const samples: Record<Kind, Sample> = { naive: emptySample(), promptyard: emptySample(), before: emptySample() };
  let listed = { naive: { pages: 0, prompts: 0 }, promptyard: { pages: 0, prompts: 0 }, before: { pages: 0, prompts: 0 } };
  const kinds: Kind[] = withBefore ? ['naive', 'promptyard', 'before'] : ['naive', 'promptyard'];
  for (let run = 0; run < runs; run++) {
    process.stderr.write(`run ${run + 1}/${runs}\n`);
    // Each run starts with another kind, so no build is always first (cold caches) or last.
    const order = kinds.map((_, index) => kinds[(index + run) % kinds.length] as Kind);
    listed = await measureRun(order, dir, promptCount, samples, true);
  }
  const naive = samples.naive;
  const ours = samples.promptyard;
  const m = (values: number[]): number => median(values);
  const p95 = (values: number[]): number => (values.length === 0 ? Number.NaN : percentile(values, 95));

  const rows: string[][] = [
    [
      'spawn → ready (initialize + first page)',
      `${ms(m(naive.ready))} ms`,
      `${ms(m(ours.ready))} ms`,
      ratio(m(ours.ready), m(naive.ready)),
      `< 1000 ms: ${verdict(m(ours.ready) < 1000)}`,
    ],
    [
      'full paged list',
      `${ms(m(naive.fullList))} ms (${listed.naive.prompts} prompts, ${listed.naive.pages} pages)`,
      `${ms(m(ours.fullList))} ms (${listed.promptyard.prompts} prompts, ${listed.promptyard.pages} pages)`,
      ratio(m(ours.fullList), m(naive.fullList)),
      `< 100 ms and ≤ 1.0×: ${verdict(m(ours.fullList) < 100 && m(ours.fullList) <= m(naive.fullList))}`,
    ],
    [
      'prompts/get p50',
      `${ms(m(naive.getP50), 3)} ms`,
      `${ms(m(ours.getP50), 3)} ms`,
      ratio(m(ours.getP50), m(naive.getP50)),
      `≤ 1.0×: ${verdict(m(ours.getP50) <= m(naive.getP50))}`,
    ],
    ['prompts/get p99', `${ms(m(naive.getP99), 3)} ms`, `${ms(m(ours.getP99), 3)} ms`, ratio(m(ours.getP99), m(naive.getP99)), '—'],
    [
      'ping p50 (same connections)',
      `${ms(m(naive.pingP50), 3)} ms`,
      `${ms(m(ours.pingP50), 3)} ms`,
      ratio(m(ours.pingP50), m(naive.pingP50)),
      '—',
    ],
    ['save → list_changed p50', `${ms(m(naive.reload))} ms`, `${ms(m(ours.reload))} ms`, ratio(m(ours.reload), m(naive.reload)), '—'],
    [
      `save → list_changed p95 (${runs * edits} edits each)`,
      `${ms(p95(naive.reload))} ms, ${naive.missed} missed`,
      `${ms(p95(ours.reload))} ms, ${ours.missed} missed`,
      ratio(p95(ours.reload), p95(naive.reload)),
      `< 100 ms, none missed: ${verdict(p95(ours.reload) < 100 && ours.missed === 0)}`,
    ],
    [
      'RSS after load and 2,000 gets',
      `${ms(m(naive.rss))} MB`,
      `${ms(m(ours.rss))} MB`,
      ratio(m(ours.rss), m(naive.rss)),
      `< 150 MB and ≤ 1.0×: ${verdict(m(ours.rss) < 150 && m(ours.rss) <= m(naive.rss))}`,
    ],
    ['RSS with 1 prompt', `${ms(m(naive.rssSmall))} MB`, `${ms(m(ours.rssSmall))} MB`, ratio(m(ours.rssSmall), m(naive.rssSmall)), '—'],
  ];

  if (largeCount > 0) {
    process.stderr.write(`generating ${largeCount} prompts …\n`);
    const largeDir = await generate(largeCount);
    const largeSamples = { naive: emptySample(), promptyard: emptySample(), before: emptySample() };
    const large = largeSamples.promptyard;
    for (let run = 0; run < runs; run++) {
      process.stderr.write(`${largeCount} prompts, run ${run + 1}/${runs}\n`);
      await measureRun(['promptyard'], largeDir, largeCount, largeSamples, false);
    }
    // Growth per prompt over the 1-prompt floor: at 50,000 it may not exceed the 10,000 figure's.
    const perPrompt = (rss: number, count: number): number => ((rss - m(ours.rssSmall)) * 1024) / count;
    const small = perPrompt(m(ours.rss), promptCount);
    const big = perPrompt(m(large.rss), largeCount);
    const label = largeCount.toLocaleString('en-US');
    rows.push(
      [`promptyard, ${label} prompts: spawn → ready`, '—', `${ms(m(large.ready))} ms`, '—', `< 5000 ms: ${verdict(m(large.ready) < 5000)}`],
      [
        `promptyard, ${label} prompts: get p50`,
        '—',
        `${ms(m(large.getP50), 3)} ms`,
        `${ratio(m(large.getP50), m(ours.getP50))} the ${promptCount} figure`,
        `≤ 1.1×: ${verdict(m(large.getP50) <= 1.1 * m(ours.getP50))}`,
      ],
      [
        `promptyard, ${label} prompts: RSS`,
        '—',
        `${ms(m(large.rss))} MB (${big.toFixed(1)} KB/prompt)`,
        `${(big / small).toFixed(2)}× the ${promptCount} figure's ${small.toFixed(1)} KB/prompt`,
        `grows ≤ prompt count: ${verdict(big <= small * 1.05)}`,
      ],
    );
  }

  const table = [
    `naive reference vs promptyard-server, ${promptCount} prompts of ~2 KB, medians of ${runs} runs, same run, Node ${process.version}`,
    '',
    '| measure | naive | promptyard | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const comparison = withBefore ? `\n${beforeTable(samples.before, ours)}` : '';
  process.stdout.write(`${table}\n${comparison}`);
  await writeFile(join(dataDir, 'results.md'), `${table}\n${comparison}`);
};

/** This build against BENCH_BEFORE_SERVER's, from the same runs: the ratio is this build's figure over the other's. */
const beforeTable = (before: Sample, after: Sample): string => {
  const m = (values: number[]): number => median(values);
  const row = (label: string, pick: (sample: Sample) => number[], digits = 1, unit = 'ms'): string =>
    `| ${label} | ${ms(m(pick(before)), digits)} ${unit} | ${ms(m(pick(after)), digits)} ${unit} | ${ratio(m(pick(after)), m(pick(before)))} |`;
  return [
    `before (${process.env['BENCH_BEFORE_SERVER'] ?? ''}) vs this build, ${promptCount} prompts, medians of ${runs} runs, same runs`,
    '',
    '| measure | before | after | ratio |',
    '|---|---|---|---|',
    row('prompts/get p50', (sample) => sample.getP50, 3),
    row('prompts/get p99', (sample) => sample.getP99, 3),
    row('ping p50', (sample) => sample.pingP50, 3),
    row('full paged list', (sample) => sample.fullList),
    row('spawn → ready', (sample) => sample.ready),
    row('save → list_changed p50', (sample) => sample.reload),
    row('RSS after load and gets', (sample) => sample.rss, 1, 'MB'),
    '',
  ].join('\n');
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
