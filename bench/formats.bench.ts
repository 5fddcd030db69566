/**
 * `pnpm bench` (second part): the prompt formats issue's targets, each beside a baseline from the same run.
 *
 *   search           p50/p99 of the search itself over 10,000 loaded prompts, in process
 *   search_prompts   p50/p99 of a tools/call over 10,000 prompts, vs ping p50 on the same connection
 *   discovery        spawn → ready with no folders configured (a home holding 5 formats), vs the
 *                    same server given one prompt folder (no discovery); medians of several runs
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
// The built packages, as the server uses them (the bench runs after `pnpm build`).
import { createCatalog, type PromptEntry } from '../packages/core/dist/index.js';
import { createPromptFolderSource, createPromptSearch } from '../packages/prompts/dist/index.js';
import { createArgumentsEngine, createLiquidEngine, createPlainEngine } from '../packages/templates/dist/index.js';
import { ms, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'apps/server/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const libraryDir = join(dataDir, 'formats-10k');
const projectDir = join(dataDir, 'formats-project');
const homeDir = join(dataDir, 'formats-home');
const plainDir = join(dataDir, 'formats-plain');
const promptCount = Number(process.env['BENCH_PROMPTS'] ?? 10_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 7);
const calls = Number(process.env['BENCH_CALLS'] ?? 300);

const topics =
  'review commit refactor test deploy document translate summarise explain migrate benchmark release plan debug profile secure'.split(' ');
const objects = 'code diff schema query component service pipeline module api endpoint dataset config'.split(' ');

const writeAll = async (base: string, files: Readonly<Record<string, string>>): Promise<void> => {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(base, path, '..'), { recursive: true });
    await writeFile(join(base, path), text);
  }
};

const generate = async (): Promise<void> => {
  const marker = join(libraryDir, '.generated');
  if ((await readFile(marker, 'utf8').catch(() => '')) !== String(promptCount)) {
    await rm(libraryDir, { recursive: true, force: true });
    const files: Record<string, string> = {};
    for (let index = 0; index < promptCount; index++) {
      const topic = topics[index % topics.length] as string;
      const object = objects[Math.floor(index / topics.length) % objects.length] as string;
      files[`area-${index % 10}/${topic}-${object}-${index}.md`] =
        `---\ndescription: ${topic} the ${object} (variant ${index})\n---\nPlease ${topic} this ${object} carefully: {{ input }}\n\nConsider edge cases, naming and tests for variant ${index}.\n`;
    }
    await writeAll(libraryDir, files);
    await writeFile(marker, String(promptCount));
  }
  await rm(homeDir, { recursive: true, force: true });
  await rm(projectDir, { recursive: true, force: true });
  await rm(plainDir, { recursive: true, force: true });
  const home: Record<string, string> = {};
  for (let index = 0; index < 20; index++) {
    home[`.claude/commands/group-${index % 3}/cmd-${index}.md`] =
      `---\ndescription: Command ${index}\nargument-hint: [target]\n---\nRun ${index} on $1.\n`;
    home[`.claude/skills/skill-${index}/SKILL.md`] =
      `---\nname: skill-${index}\ndescription: Skill ${index}\n---\nUse skill ${index} for $ARGUMENTS.\n`;
    home[`.gemini/commands/ns/cmd-${index}.toml`] = `description = "Gemini ${index}"\nprompt = "Do {{args}} number ${index}"\n`;
    home[`.codex/prompts/prompt-${index}.md`] = `---\ndescription: Codex ${index}\n---\nCodex $1 and $$ ${index}\n`;
    home[`.continue/prompts/p-${index}.md`] = `---\nname: P ${index}\ndescription: Continue ${index}\n---\nContinue prompt ${index}.\n`;
  }
  await writeAll(homeDir, home);
  await writeAll(projectDir, { '.claude/commands/one.md': 'One $ARGUMENTS\n' });
  await writeAll(plainDir, { 'one.md': 'One {{ x }}\n' });
};

interface Server {
  readonly client: Client;
  close(): Promise<void>;
}

const start = async (args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Server> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--no-watch', '--log-level', 'error', ...args],
    env: { PATH: process.env['PATH'] ?? '', PROMPTYARD_HOME: homeDir, ...options.env },
    stderr: 'ignore',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    close: async () => {
      const pid = transport.pid;
      await client.close();
      if (pid !== null && pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
};

const benchSearch = async (): Promise<string[]> => {
  const server = await start(['--prompts', libraryDir], {
    env: {
      PROMPTYARD_FALLBACK_TOOLS: 'true',
      PROMPTYARD_TOOLS_WEB_SEARCH_ENABLED: 'false',
      PROMPTYARD_TOOLS_PERPLEXITY_SUMMARY_SEARCH_ENABLED: 'false',
    },
  });
  try {
    const queries = [
      'review code',
      'comit diff',
      'deploy pipe',
      'translat',
      'secure endpoint',
      'benchmark dataset',
      'explain schema',
      'profile query',
    ];
    await server.client.callTool({ name: 'search_prompts', arguments: { query: 'warm up' } }); // builds the index once
    const search: number[] = [];
    const ping: number[] = [];
    for (let index = 0; index < calls; index++) {
      let started = performance.now();
      await server.client.callTool({ name: 'search_prompts', arguments: { query: queries[index % queries.length] as string } });
      search.push(performance.now() - started);
      started = performance.now();
      await server.client.ping();
      ping.push(performance.now() - started);
    }
    return [
      `| search_prompts over ${promptCount} prompts (round trip) | p50 ${ms(percentile(search, 50))} ms, p99 ${ms(percentile(search, 99))} ms | ping p50 ${ms(percentile(ping, 50))} ms | < 2 ms p50 |`,
    ];
  } finally {
    await server.close();
  }
};

const benchSearchInProcess = async (): Promise<string[]> => {
  const engines = { liquid: createLiquidEngine(), arguments: createArgumentsEngine(), plain: createPlainEngine() };
  const source = createPromptFolderSource({ dir: libraryDir, engines });
  const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  catalog.owner('bench').replace(await source.load());
  const search = createPromptSearch({ catalog });
  let started = performance.now();
  search.search('warm up', 10);
  const build = performance.now() - started;
  const queries = [
    'review code',
    'comit diff',
    'deploy pipe',
    'translat',
    'secure endpoint',
    'benchmark dataset',
    'explain schema',
    'profile query',
  ];
  const times: number[] = [];
  for (let index = 0; index < calls * 3; index++) {
    started = performance.now();
    search.search(queries[index % queries.length] as string, 10);
    times.push(performance.now() - started);
  }
  return [
    `| search over ${catalog.size} prompts (in process; index built once in ${ms(build)} ms) | p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms | — | < 2 ms p50 |`,
  ];
};

const readyTime = async (args: readonly string[], cwd: string): Promise<number> => {
  const started = performance.now();
  const server = await start(args, { cwd });
  await server.client.listPrompts();
  const elapsed = performance.now() - started;
  await server.close();
  return elapsed;
};

const benchDiscovery = async (): Promise<string[]> => {
  const discovered: number[] = [];
  const configured: number[] = [];
  for (let run = 0; run < runs; run++) {
    configured.push(await readyTime(['--prompts', plainDir], plainDir));
    discovered.push(await readyTime([], projectDir));
  }
  const added = percentile(discovered, 50) - percentile(configured, 50);
  return [
    `| spawn → ready, discovery of a home with 5 formats (100 prompts) | ${ms(percentile(discovered, 50))} ms | ${ms(percentile(configured, 50))} ms with one configured folder | adds ${ms(added)} ms (< 100 ms) |`,
  ];
};

await generate();
const rows = [...(await benchSearchInProcess()), ...(await benchSearch()), ...(await benchDiscovery())];
process.stdout.write(['', '| measure | result | baseline (same run) | target |', '|---|---|---|---|', ...rows, ''].join('\n'));
