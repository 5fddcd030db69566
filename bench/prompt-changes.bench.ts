/**
 * `pnpm bench:changes`: the prompt-serving targets, promptyard-server beside the naive reference server
 * (`naive-server.mjs`) on the same 10,000 generated prompts, both watching the same folder, medians of
 * BENCH_RUNS runs:
 *
 *   create, edit, atomic save, rename, delete, a new folder with a prompt, a deleted folder
 *                                      → list_changed: p95 over every run's changes, each change seen
 *                                      by every server (their notifications timed apart)
 *   5 full listings + 1,000 gets       get p50/p99 (interleaved call by call), then RSS of each server
 *   mixed library                      ~1,200 files in every discovered format: spawn → full
 *                                      prompts/list, and the server's CPU for it (/proc/<pid>/stat)
 *
 * Knobs: BENCH_PROMPTS (10000), BENCH_RUNS (3), BENCH_CHANGES (changes of each kind per run, 10),
 * BENCH_GETS (1000), BENCH_MIXED (files of the mixed library, 1200; 0 skips it).
 * BENCH_CPU_PROF=<dir> starts each promptyard-server with `--cpu-prof` (a folder per build); BENCH_BEFORE_SERVER=<cli.js>
 * measures another build in the same runs and adds a table of this build against it.
 */
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nameOf, promptText, writePrompts } from './generated-prompts.js';
import { writeMixedLibrary } from './mixed-library.js';
import { median, ms, percentile, rssMb } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(root, 'bench/.data');
const promptCount = Number(process.env['BENCH_PROMPTS'] ?? 10_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 3);
const changes = Number(process.env['BENCH_CHANGES'] ?? 10);
const getCount = Number(process.env['BENCH_GETS'] ?? 1000);
const mixedCount = Number(process.env['BENCH_MIXED'] ?? 1200);
const cpuProf = process.env['BENCH_CPU_PROF'];
const settleMs = 250;
const timeoutMs = 3000;

const beforeCli = process.env['BENCH_BEFORE_SERVER'] ?? '';
type Kind = 'naive' | 'promptyard' | 'before';
/** `before` is another build of promptyard-server (BENCH_BEFORE_SERVER), measured in the same runs. */
const kinds: readonly Kind[] = beforeCli === '' ? ['naive', 'promptyard'] : ['naive', 'promptyard', 'before'];
const perKind = <T>(make: () => T): Record<Kind, T> => ({ naive: make(), promptyard: make(), before: make() });
const serverArgs = (kind: Kind, ...args: string[]): string[] => [
  ...(cpuProf === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(cpuProf, kind)}`]),
  kind === 'before' ? beforeCli : join(root, 'apps/server/dist/cli.js'),
  ...args,
];
const argsOf = (kind: Kind, dir: string): string[] =>
  kind === 'naive' ? [join(root, 'bench/naive-server.mjs'), dir] : serverArgs(kind, '--prompts', dir);

/** The same folder prompts.bench.ts uses (same marker), written once. */
const generate = async (): Promise<string> => {
  const dir = join(dataDir, promptCount === 10_000 ? 'prompts-10k' : `prompts-${promptCount}`);
  const marker = join(dir, '.generated');
  if ((await readFile(marker, 'utf8').catch(() => '')) === String(promptCount)) return dir;
  await rm(dir, { recursive: true, force: true });
  await writePrompts(dir, promptCount);
  await writeFile(marker, String(promptCount));
  return dir;
};

interface Server {
  readonly client: Client;
  readonly pid: number;
  /** Resolves at the next list_changed after the call, with its time; false after `timeoutMs`. */
  nextChange(): Promise<number | false>;
  close(): Promise<void>;
}

const start = async (command: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Server> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...command],
    stderr: 'ignore',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  let onChange: (at: number) => void = () => {};
  client.setNotificationHandler('notifications/prompts/list_changed', () => onChange(performance.now()));
  await client.connect(transport);
  const pid = transport.pid as number;
  return {
    client,
    pid,
    nextChange: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        onChange = (at) => {
          clearTimeout(timer);
          onChange = () => {};
          resolve(at);
        };
      }),
    close: async () => {
      // SIGINT first, so that a --cpu-prof server writes its profile.
      process.kill(pid, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, cpuProf === undefined ? 50 : 1000));
      await client.close();
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
};

const listAll = async (client: Client): Promise<number> => {
  let cursor: string | undefined;
  let prompts = 0;
  do {
    // One request a page (listPrompts would walk every page itself, up to a limit).
    const page = (await client.request({ method: 'prompts/list', params: cursor === undefined ? {} : { cursor } })) as {
      prompts: unknown[];
      nextCursor?: string;
    };
    prompts += page.prompts.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return prompts;
};

/** User + system CPU of a process so far, in ms (/proc/<pid>/stat fields 14 and 15, at 100 ticks a second). */
const cpuMs = async (pid: number): Promise<number> => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const sleep = (delay: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, delay));

const changeKinds = ['create', 'edit', 'atomic save', 'rename', 'delete', 'create in a new folder', 'delete a folder'] as const;
type ChangeKind = (typeof changeKinds)[number];
type Latencies = Record<Kind, Record<ChangeKind, number[]> & { missed: number }>;
const emptyLatencies = (): Latencies => {
  const one = () => ({
    ...(Object.fromEntries(changeKinds.map((kind) => [kind, []])) as unknown as Record<ChangeKind, number[]>),
    missed: 0,
  });
  return perKind(one);
};

/** One change on disk, timed to each server's next list_changed. */
const timeChange = async (servers: Record<Kind, Server>, latencies: Latencies, change: ChangeKind, work: () => Promise<void>) => {
  await sleep(settleMs); // the previous change's notifications (a save can be several fs events) pass first
  const waits = kinds.map((kind) => servers[kind].nextChange());
  const began = performance.now();
  await work();
  for (const [index, at] of (await Promise.all(waits)).entries()) {
    const kind = kinds[index] as Kind;
    if (at === false) latencies[kind].missed += 1;
    else latencies[kind][change].push(at - began);
  }
};

/** Creates, edits, saves atomically, renames and deletes prompts in the folder both servers watch. */
const measureChanges = async (servers: Record<Kind, Server>, dir: string, run: number, latencies: Latencies): Promise<void> => {
  const edited = join(dir, `${nameOf(43)}.md`);
  const original = await readFile(edited, 'utf8');
  // The watchers are ready once an edit reaches both servers.
  for (let attempt = 0; attempt < 40; attempt++) {
    const seen = await Promise.all([...kinds.map((kind) => servers[kind].nextChange()), writeFile(edited, `${original}\nwarm ${attempt}`)]);
    if (seen.every((at) => at !== false)) break;
  }
  for (let index = 0; index < changes; index++) {
    const fresh = join(dir, 'area-1/topic-2', `new-${run}-${index}.md`);
    const moved = join(dir, 'area-2/topic-3', `moved-${run}-${index}.md`);
    await timeChange(servers, latencies, 'create', () => writeFile(fresh, promptText(100_000 + index)));
    await timeChange(servers, latencies, 'edit', () => writeFile(edited, `${original}\nedit ${run}-${index}`));
    await timeChange(servers, latencies, 'atomic save', async () => {
      // An editor's safe save: a temporary file beside it, renamed over the prompt.
      const temporary = `${edited}.tmp-${index}`;
      await writeFile(temporary, `${original}\nsaved ${run}-${index}`);
      await rename(temporary, edited);
    });
    await timeChange(servers, latencies, 'rename', () => rename(fresh, moved));
    await timeChange(servers, latencies, 'delete', () => unlink(moved));
    const folder = join(dir, 'area-4', `new-${run}-${index}`);
    await timeChange(servers, latencies, 'create in a new folder', async () => {
      await mkdir(folder);
      await writeFile(join(folder, 'first.md'), promptText(200_000 + index));
    });
    await timeChange(servers, latencies, 'delete a folder', () => rm(folder, { recursive: true }));
  }
  await writeFile(edited, original);
  await sleep(settleMs);
};

interface Figures {
  getP50: number[];
  getP99: number[];
  rss: number[];
  listMs: number[];
}
const emptyFigures = (): Record<Kind, Figures> => perKind(() => ({ getP50: [], getP99: [], rss: [], listMs: [] }));

/** 5 full listings, then gets interleaved call by call (the first 100 rounds warm up), then RSS. */
const measureServing = async (servers: Record<Kind, Server>, figures: Record<Kind, Figures>): Promise<void> => {
  for (let round = 0; round < 5; round++) {
    for (const kind of kinds) {
      const began = performance.now();
      await listAll(servers[kind].client);
      figures[kind].listMs.push(performance.now() - began);
    }
  }
  const gets = perKind((): number[] => []);
  for (let index = 0; index < getCount + 100; index++) {
    const name = nameOf((index * 7919) % promptCount);
    for (let turn = 0; turn < kinds.length; turn++) {
      const kind = kinds[(index + turn) % kinds.length] as Kind;
      const began = performance.now();
      await servers[kind].client.getPrompt({ name, arguments: { subject: `subject ${index}`, tone: 'casual' } });
      if (index >= 100) gets[kind].push(performance.now() - began);
    }
  }
  for (const kind of kinds) {
    figures[kind].getP50.push(median(gets[kind]));
    figures[kind].getP99.push(percentile(gets[kind], 99));
    figures[kind].rss.push(await rssMb(servers[kind].pid));
  }
};

interface Mixed {
  files: number;
  prompts: number;
  ready: number[];
  cpu: number[];
  cpuLater: number[];
}

/** Spawn → every page of prompts/list for the mixed library, and the server's CPU by then and 1 s later (builds in turn). */
const measureMixed = async (): Promise<Record<Kind, Mixed>> => {
  const library = await writeMixedLibrary(join(dataDir, 'mixed'), mixedCount);
  const result = perKind((): Mixed => ({ files: library.files, prompts: 0, ready: [], cpu: [], cpuLater: [] }));
  const builds = kinds.filter((kind) => kind !== 'naive');
  for (let run = 0; run < Math.max(3, runs); run++) {
    for (const kind of run % 2 === 0 ? builds : [...builds].reverse()) {
      const began = performance.now();
      const server = await start(serverArgs(kind), {
        cwd: library.project,
        env: { PATH: process.env['PATH'] ?? '', PROMPTYARD_HOME: library.home },
      });
      result[kind].prompts = await listAll(server.client);
      result[kind].ready.push(performance.now() - began);
      result[kind].cpu.push(await cpuMs(server.pid));
      await sleep(1000);
      result[kind].cpuLater.push(await cpuMs(server.pid));
      await server.close();
    }
  }
  return result;
};

const p95 = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : percentile(values, 95));
const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');

interface Results {
  readonly latencies: Latencies;
  readonly figures: Record<Kind, Figures>;
  readonly mixed: Record<Kind, Mixed> | undefined;
}

/** Rows of `ours` beside `base` (the naive server, or the other build): measure, base, ours, ratio, target. */
const rowsOf = ({ latencies, figures, mixed }: Results, base: Kind, ours: Kind): string[][] => {
  const m = (kind: Kind, key: keyof Figures): number => median(figures[kind][key]);
  const cell = (values: number[]): string => `${ms(p95(values))} ms (${ms(median(values))} ms)`;
  const row = (label: string, pick: (kind: Kind) => number, show: (value: number) => string, target: string): string[] => [
    label,
    show(pick(base)),
    show(pick(ours)),
    ratio(pick(ours), pick(base)),
    target,
  ];
  // Against another build, only the absolute targets apply.
  const relative = (target: string): string => (base === 'naive' ? target : '—');
  const rows = [
    ...changeKinds.map((change) => [
      `${change} → list_changed p95 (p50)`,
      cell(latencies[base][change]),
      cell(latencies[ours][change]),
      ratio(p95(latencies[ours][change]), p95(latencies[base][change])),
      `< 100 ms: ${verdict(p95(latencies[ours][change]) < 100)}`,
    ]),
    [
      'changes not seen within 3 s',
      String(latencies[base].missed),
      String(latencies[ours].missed),
      '—',
      `none: ${verdict(latencies[ours].missed === 0)}`,
    ],
    row(
      'full paged list (median of 5)',
      (kind) => m(kind, 'listMs'),
      (value) => `${ms(value)} ms`,
      '—',
    ),
    row(
      'prompts/get p50',
      (kind) => m(kind, 'getP50'),
      (value) => `${ms(value, 3)} ms`,
      relative(`≤ 1.0×: ${verdict(m(ours, 'getP50') <= m(base, 'getP50'))}`),
    ),
    row(
      'prompts/get p99',
      (kind) => m(kind, 'getP99'),
      (value) => `${ms(value, 3)} ms`,
      `≤ 5 ms: ${verdict(m(ours, 'getP99') <= 5)}`,
    ),
    row(
      `RSS after 5 full listings + ${getCount} gets`,
      (kind) => m(kind, 'rss'),
      (value) => `${ms(value)} MB`,
      base === 'naive'
        ? `≤ 1.0× and < 150 MB: ${verdict(m(ours, 'rss') <= m(base, 'rss') && m(ours, 'rss') < 150)}`
        : `< 150 MB: ${verdict(m(ours, 'rss') < 150)}`,
    ),
  ];
  if (mixed !== undefined) {
    const has = base !== 'naive';
    const show = (kind: Kind, pick: (result: Mixed) => string): string => (kind === 'naive' ? '—' : pick(mixed[kind]));
    rows.push(
      [
        `mixed library (${mixed[ours].files} files, ${mixed[ours].prompts} prompts): spawn → full list`,
        show(base, (result) => `${ms(median(result.ready))} ms`),
        show(ours, (result) => `${ms(median(result.ready))} ms`),
        has ? ratio(median(mixed[ours].ready), median(mixed[base].ready)) : '—',
        '—',
      ],
      [
        'mixed library: server CPU by then (1 s later)',
        show(base, (result) => `${ms(median(result.cpu))} ms (${ms(median(result.cpuLater))} ms)`),
        show(ours, (result) => `${ms(median(result.cpu))} ms (${ms(median(result.cpuLater))} ms)`),
        has ? ratio(median(mixed[ours].cpu), median(mixed[base].cpu)) : '—',
        `≤ 2000 ms: ${verdict(median(mixed[ours].cpu) <= 2000)}`,
      ],
    );
  }
  return rows;
};

const tableOf = (title: string, columns: readonly [string, string], rows: readonly string[][]): string =>
  [
    title,
    '',
    `| measure | ${columns[0]} | ${columns[1]} | ratio | target |`,
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ].join('\n');

const main = async (): Promise<void> => {
  const dir = await generate();
  const latencies = emptyLatencies();
  const figures = emptyFigures();
  for (let run = 0; run < runs; run++) {
    process.stderr.write(`run ${run + 1}/${runs}\n`);
    const servers = {} as Record<Kind, Server>;
    // Started one at a time, each kind first in turn, so none always loads beside the others.
    for (let turn = 0; turn < kinds.length; turn++) {
      const kind = kinds[(run + turn) % kinds.length] as Kind;
      servers[kind] = await start(argsOf(kind, dir));
    }
    await measureServing(servers, figures);
    await measureChanges(servers, dir, run, latencies);
    for (const kind of kinds) await servers[kind].close();
  }
  process.stderr.write(`mixed library …\n`);
  const results: Results = { latencies, figures, mixed: mixedCount > 0 ? await measureMixed() : undefined };
  const what = `${promptCount} prompts, medians of ${runs} runs (p95 over all runs' changes), Node ${process.version}`;
  const tables = [
    tableOf(`naive reference vs promptyard-server, ${what}`, ['naive', 'promptyard'], rowsOf(results, 'naive', 'promptyard')),
  ];
  if (kinds.includes('before')) {
    tables.push(tableOf(`before (${beforeCli}) vs this build, ${what}`, ['before', 'this build'], rowsOf(results, 'before', 'promptyard')));
  }
  process.stdout.write(tables.join('\n'));
  await writeFile(join(dataDir, 'changes-results.md'), tables.join('\n'));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
