/**
 * `pnpm bench`: measures promptyard-server on 10,000 generated prompt files (~2 KB each, nested
 * folders), each figure beside a baseline taken in the same run, medians of several runs.
 *
 *   spawn → ready     initialize + first prompts/list page, vs the same server on a 1-prompt folder
 *   full paged list   every page of prompts/list, vs as many pings
 *   prompts/get       p50/p99 against ping p50, interleaved on the same connection
 *   save → notify     file write → notifications/prompts/list_changed, vs a bare fs.watch on the same file
 *   RSS               server resident memory with 10,000 prompts, vs with 1 prompt
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median, ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'apps/server/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const bigDir = join(dataDir, 'prompts-10k');
const smallDir = join(dataDir, 'prompts-1');
const promptCount = Number(process.env['BENCH_PROMPTS'] ?? 10_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 5);


const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');
const filler = (seed: number, length: number): string => {
  let text = '';
  let state = seed;
  while (text.length < length) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    text += `${words[state % words.length] as string} `;
    if (state % 13 === 0) text += '\n';
  }
  return text;
};

/** 10,000 files, 10 top folders × 10 subfolders × 100 files, a mix of frontmatter and Liquid. */
const generate = async (): Promise<void> => {
  const marker = join(bigDir, '.generated');
  if ((await readFile(marker, 'utf8').catch(() => '')) === String(promptCount)) return;
  await rm(bigDir, { recursive: true, force: true });
  for (let index = 0; index < promptCount; index++) {
    const folder = join(bigDir, `area-${index % 10}`, `topic-${Math.floor(index / 10) % 10}`);
    if (index < 100) await mkdir(folder, { recursive: true });
    const body = [
      '---',
      `description: Generated prompt number ${index} for the benchmark`,
      'arguments:',
      '  - name: subject',
      '    description: What to write about',
      '    required: true',
      '  - name: tone',
      '    enum: [formal, casual, technical]',
      '    default: formal',
      `tags: [bench, area-${index % 10}]`,
      '---',
      `# Prompt ${index}`,
      '',
      'Write about {{ subject }} in a {{ tone }} tone.',
      '{% if audience %}The audience is {{ audience }}.{% endif %}',
      '',
      filler(index + 1, 1700),
    ].join('\n');
    await writeFile(join(folder, `prompt-${index}.md`), body);
  }
  await mkdir(smallDir, { recursive: true });
  await writeFile(join(smallDir, 'only.md'), '---\ndescription: The only prompt\n---\nWrite about {{ subject }}.');
  await writeFile(marker, String(promptCount));
};

interface Server {
  readonly client: Client;
  readonly pid: number;
  readonly readyMs: number;
  close(): Promise<void>;
}

const start = async (dir: string, watchFiles: boolean): Promise<Server> => {
  const began = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--prompts', dir, ...(watchFiles ? [] : ['--no-watch'])],
    stderr: 'pipe',
  });
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

const rssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN');
  return kb / 1024;
};

const listAll = async (client: Client): Promise<{ pages: number; prompts: number }> => {
  let cursor: string | undefined;
  let pages = 0;
  let prompts = 0;
  do {
    const page = (await client.request({ method: 'prompts/list', params: cursor === undefined ? {} : { cursor } })) as { prompts: unknown[]; nextCursor?: string };
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

const main = async (): Promise<void> => {
  process.stderr.write(`generating ${promptCount} prompts in ${bigDir} …\n`);
  await generate();

  const ready: number[] = [];
  const readyBaseline: number[] = [];
  const fullList: number[] = [];
  const fullListBaseline: number[] = [];
  const getP50: number[] = [];
  const getP99: number[] = [];
  const pingP50: number[] = [];
  const rss: number[] = [];
  const rssBaseline: number[] = [];
  let pagesSeen = 0;
  let promptsSeen = 0;

  for (let run = 0; run < runs; run++) {
    process.stderr.write(`run ${run + 1}/${runs}\n`);
    const small = await start(smallDir, false);
    readyBaseline.push(small.readyMs);
    rssBaseline.push(await rssMb(small.pid));
    await small.close();

    const server = await start(bigDir, false);
    ready.push(server.readyMs);
    const { client } = server;

    const listed = await listAll(client);
    pagesSeen = listed.pages;
    promptsSeen = listed.prompts;
    fullList.push(await time(() => listAll(client)));
    fullListBaseline.push(await time(async () => {
      for (let page = 0; page < listed.pages; page++) await client.ping();
    }));

    // Warm up, then interleave gets and pings so both see the same conditions.
    const gets: number[] = [];
    const pings: number[] = [];
    for (let index = 0; index < 2200; index++) {
      const id = (index * 7919) % promptCount;
      const name = `area-${id % 10}/topic-${Math.floor(id / 10) % 10}/prompt-${id}`;
      const getMs = await time(() => client.getPrompt({ name, arguments: { subject: `subject ${index}`, tone: 'casual' } }));
      const pingMs = await time(() => client.ping());
      if (index >= 200) {
        gets.push(getMs);
        pings.push(pingMs);
      }
    }
    getP50.push(median(gets));
    getP99.push(percentile(gets, 99));
    pingP50.push(median(pings));
    rss.push(await rssMb(server.pid));
    await server.close();
  }

  // Save → list_changed, 20 edits on a watched server, against a bare fs.watch on the same file.
  const server = await start(bigDir, true);
  const target = join(bigDir, 'area-3/topic-4/prompt-43.md');
  const original = await readFile(target, 'utf8');
  let onChange: () => void = () => {};
  server.client.setNotificationHandler('notifications/prompts/list_changed', () => onChange());
  // The watcher is ready once an edit is noticed; wait for the first one before measuring.
  const waitChange = (timeoutMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      onChange = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const noticed = waitChange(500);
    await writeFile(target, `${original}\nwarm-up ${attempt}`);
    if (await noticed) break;
  }
  const reload: number[] = [];
  for (let edit = 0; edit < 20; edit++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const noticed = waitChange(5000);
    const began = performance.now();
    await writeFile(target, `${original}\nedit ${edit}`);
    if (await noticed) reload.push(performance.now() - began);
  }
  const rawWatch: number[] = [];
  for (let edit = 0; edit < 20; edit++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const watcher = watch(target);
    const noticed = new Promise<void>((resolve) => watcher.once('change', () => resolve()));
    const began = performance.now();
    await writeFile(target, `${original}\nraw ${edit}`);
    await noticed;
    rawWatch.push(performance.now() - began);
    watcher.close();
  }
  await writeFile(target, original);
  const watchingRss = await rssMb(server.pid);
  await server.close();

  const rows: [string, string, string, string, string][] = [
    ['spawn → ready (initialize + first page)', `${ms(median(ready))} ms`, `${ms(median(readyBaseline))} ms (1 prompt)`, `${(median(ready) / median(readyBaseline)).toFixed(2)}×`, `< 1000 ms: ${median(ready) < 1000 ? 'met' : 'MISSED'}`],
    [`full paged list (${promptsSeen} prompts, ${pagesSeen} pages)`, `${ms(median(fullList))} ms`, `${ms(median(fullListBaseline))} ms (${pagesSeen} pings)`, `${(median(fullList) / median(fullListBaseline)).toFixed(2)}×`, `< 100 ms: ${median(fullList) < 100 ? 'met' : 'MISSED'}`],
    ['prompts/get p50', `${ms(median(getP50))} ms`, `${ms(median(pingP50))} ms (ping p50)`, `${(median(getP50) / median(pingP50)).toFixed(2)}×`, `≤ 1.3× ping: ${median(getP50) <= 1.3 * median(pingP50) ? 'met' : 'MISSED'}`],
    ['prompts/get p99', `${ms(median(getP99))} ms`, `${ms(median(pingP50))} ms (ping p50)`, `${(median(getP99) / median(pingP50)).toFixed(2)}×`, '—'],
    ['save → list_changed p50', `${ms(median(reload))} ms`, `${ms(median(rawWatch))} ms (bare fs.watch)`, `${(median(reload) / median(rawWatch)).toFixed(1)}×`, '—'],
    ['save → list_changed p95', `${ms(percentile(reload, 95))} ms`, `${ms(percentile(rawWatch, 95))} ms (bare fs.watch)`, `${(percentile(reload, 95) / percentile(rawWatch, 95)).toFixed(1)}×`, `< 150 ms: ${percentile(reload, 95) < 150 ? 'met' : 'MISSED'}`],
    ['RSS after load and 2,200 gets', `${ms(median(rss))} MB`, `${ms(median(rssBaseline))} MB (1 prompt)`, `${(median(rss) / median(rssBaseline)).toFixed(2)}×`, `< 150 MB: ${median(rss) < 150 ? 'met' : 'MISSED'}`],
    ['RSS, hot reload on (after the edits)', `${ms(watchingRss)} MB`, `${ms(median(rssBaseline))} MB (1 prompt)`, `${(watchingRss / median(rssBaseline)).toFixed(2)}×`, `< 150 MB: ${watchingRss < 150 ? 'met' : 'MISSED'}`],
  ];
  const table = [
    `promptyard-server, ${promptCount} prompts of ~2 KB, medians of ${runs} runs (reload: ${reload.length} edits), Node ${process.version}`,
    '',
    '| measure | promptyard | baseline (same run) | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await writeFile(join(dataDir, 'results.md'), `${table}\n`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
