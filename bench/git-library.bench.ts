/**
 * `pnpm bench:git`: a prompt library served from git against the same files served from a plain
 * folder, in the same runs, medians of BENCH_RUNS runs (default 3). The library is BENCH_GIT_PROMPTS
 * generated prompts (default 10,000, ~2 KB each, bench/generated-prompts.ts) committed to a bare,
 * packed repository served by `git daemon` on 127.0.0.1 (`git://`), and written once more into a
 * plain folder. Each timed start follows a `sync`, so that it does not pay for the writes before it.
 *
 *   cold start        spawn over stdio with a fresh `[state] dir` → connected and a full paged
 *                     prompts/list returned every prompt (shallow fetch, checkout, load). Plain:
 *                     `--prompts <folder>`. Target < 10 s. Beside it, the floor: what a cold start asks
 *                     of git (`init --bare`, `fetch --depth=1`, `worktree add`), done by git alone.
 *   warm start        the same with the state dir of the cold start (cache and checkout reused).
 *   webhook → notify  over HTTP, `poll = 0`, a 2025-11-25 session: commit one changed file, push, then
 *                     POST a signed GitHub push to /hooks/git; from the POST to notifications/prompts/
 *                     list_changed (the new text is then checked with prompts/get, and the notifications
 *                     of each edit counted). BENCH_GIT_PUSHES pushes a run (default 5). Plain: the same
 *                     edit saved into the watched folder (its hot reload), alternated edit by edit.
 *                     Target < 1 s.
 *   poll → notify     `poll = "2s"`: from the push (once `git push` returned) to list_changed, each push
 *                     after a random pause so that it lands anywhere in the poll's cycle. Target: within
 *                     the poll interval + 1 s.
 *   RSS               VmRSS of the server process alone after its full list (the short-lived git
 *                     processes it runs are not counted). Target ≤ 1.1× the plain folder. Also against
 *                     the plain folder with `--no-watch`: the checkout is not watched.
 *
 * Ratios are the median of each run's own ratio; each run's figures go to stderr as it ends. The
 * table goes to stdout and bench/.data/git-library.md. BENCH_GIT_PROFILE=1 runs every server with
 * `node --cpu-prof` (bench/.data/git-profile/<scenario>/) and git's trace2 events, and adds each
 * scenario's top self-time functions and the git commands its servers ran, timed (the profiler slows
 * what it measures: read the times of such a run as relative only). Needs apps/server/dist/cli.js
 * (`pnpm build`) and the system git (with `git daemon`).
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { nameOf, promptText, writePrompts } from './generated-prompts.js';
import { median, ms, rssMb } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverCli = join(root, 'apps/server/dist/cli.js');
const dataDir = join(root, 'bench/.data');
const profileDir = join(dataDir, 'git-profile');
const runs = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 3));
const promptCount = Number(process.env['BENCH_GIT_PROMPTS'] ?? 10_000);
const pushes = Number(process.env['BENCH_GIT_PUSHES'] ?? 5);
const profiling = process.env['BENCH_GIT_PROFILE'] === '1';
const pollMs = 2000;
const webhookSecret = 'bench-webhook-secret';
/** The prompt every edit changes. */
const editedIndex = 43;

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
/** The scenarios a server runs in: each has its folder of CPU profiles and git trace when profiling. */
const scenarios = ['cold-git', 'warm-git', 'start-plain', 'start-plain-unwatched', 'webhook-git', 'webhook-plain', 'poll-git'] as const;
type Scenario = (typeof scenarios)[number];
/** Where git's trace2 events of a scenario's servers go when profiling: every git command they ran, timed. */
const gitTraceOf = (scenario: Scenario): string => join(profileDir, scenario, 'git-trace2.jsonl');

const serverEnv = (scenario: Scenario): Record<string, string> => {
  const env: Record<string, string> = {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    PROMPTYARD_GIT_WEBHOOK_SECRET: webhookSecret,
    ...(profiling ? { GIT_TRACE2_EVENT: gitTraceOf(scenario) } : {}),
  };
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key] !== undefined) env[key] = process.env[key] as string;
  return env;
};

// Every process this benchmark starts, killed by PID at the end whatever happened.
const processes = new Set<number>();
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const killStarted = (): void => {
  for (const pid of processes) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  processes.clear();
};
/** Waits up to `timeoutMs` for `pid` to end, then kills it. */
const ended = async (pid: number, timeoutMs = 10_000): Promise<void> => {
  const deadline = performance.now() + timeoutMs;
  while (isAlive(pid) && performance.now() < deadline) await pause(20);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  processes.delete(pid);
};

const pause = (delayMs: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, delayMs));

const run = promisify(execFile);
const git = async (cwd: string, ...args: string[]): Promise<string> => {
  const { stdout } = await run('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd,
    env: gitEnv,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
};

/** A free loopback port: bound to 0, then released (git daemon takes no port 0). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

interface Fixture {
  readonly base: string;
  /** The repository commits are made in and pushed from. */
  readonly work: string;
  /** The same files, served from a plain folder. */
  readonly plain: string;
  /** `git://127.0.0.1:<port>/lib.git`, the bare repository behind git daemon. */
  readonly url: string;
}

/** The generated library in a repository pushed to a bare one behind git daemon, and in a plain folder. */
const makeFixture = async (base: string): Promise<Fixture> => {
  const work = join(base, 'work');
  const plain = join(base, 'plain');
  const repos = join(base, 'repos');
  await writePrompts(work, promptCount);
  await writePrompts(plain, promptCount);
  await mkdir(repos);
  await git(work, 'init', '-q', '-b', 'main');
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '-m', `${promptCount} generated prompts`);
  await git(base, 'clone', '-q', '--bare', work, join(repos, 'lib.git'));
  // Packed, as a hosted repository is: loose objects would make every fetch compress them all anew.
  await git(join(repos, 'lib.git'), 'repack', '-adq');
  await git(work, 'remote', 'add', 'origin', join(repos, 'lib.git'));
  const port = await freePort();
  // git-daemon itself (`git daemon` would run it as a child that outlives a kill of `git`).
  const daemon = spawn(
    join(await git(base, '--exec-path'), 'git-daemon'),
    ['--export-all', `--base-path=${repos}`, '--listen=127.0.0.1', `--port=${port}`, '--reuseaddr', repos],
    { env: gitEnv, stdio: 'ignore' },
  );
  if (daemon.pid !== undefined) processes.add(daemon.pid);
  const deadline = performance.now() + 10_000;
  while (!(await accepts(port))) {
    if (daemon.exitCode !== null || performance.now() > deadline) throw new Error(`git daemon did not start on port ${port}`);
    await pause(50);
  }
  return { base, work, plain, url: `git://127.0.0.1:${port}/lib.git` };
};

/** A promptyard.toml serving the repository's `main` from git, its cache in `stateDir`. */
const writeGitConfig = async (fixture: Fixture, stateDir: string, poll: string): Promise<string> => {
  const file = join(stateDir, '..', `promptyard-${poll === '0' ? 'push' : 'poll'}.toml`);
  const text = [
    '[[prompts.git]]',
    `url = "${fixture.url}"`,
    'ref = "main"',
    'path = ""',
    `poll = ${poll === '0' ? '0' : `"${poll}"`}`,
    '',
    '[state]',
    `dir = "${stateDir}"`,
    '',
  ].join('\n');
  await writeFile(file, text);
  return file;
};

/** `node` flags of a server: `--cpu-prof` into the scenario's folder when profiling. */
const nodeFlags = (scenario: Scenario): string[] => (profiling ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, scenario)}`] : []);

const listAll = async (client: Client): Promise<number> => {
  let cursor: string | undefined;
  let prompts = 0;
  do {
    const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
    prompts += page.prompts.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return prompts;
};

interface Started {
  /** Spawn → connected and every prompt listed. */
  readonly readyMs: number;
  readonly listed: number;
  /** The server process alone, after the full list. */
  readonly rssMb: number;
}

/** Spawns the server over stdio, connects, lists everything (timed), reads its RSS and closes it. */
const startStdio = async (scenario: Scenario, args: readonly string[]): Promise<Started> => {
  const began = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags(scenario), serverCli, ...args],
    env: serverEnv(scenario),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-4000)));
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  let pid: number | undefined;
  try {
    await client.connect(transport);
    pid = transport.pid ?? undefined;
    if (pid !== undefined) processes.add(pid);
    const listed = await listAll(client);
    const readyMs = performance.now() - began;
    if (listed < promptCount) throw new Error(`${scenario}: listed ${listed} prompts, expected ${promptCount}`);
    return { readyMs, listed, rssMb: await rssMb(pid as number) };
  } catch (error) {
    throw new Error(`${scenario} failed: ${String(error)}\n${stderr}`);
  } finally {
    await client.close().catch(() => {});
    if (pid !== undefined) await ended(pid);
  }
};

interface HttpServer {
  readonly url: string;
  readonly client: Client;
  readonly changes: ChangeCounter;
  close(): Promise<void>;
}

/** Counts list_changed notifications and waits for the next one. */
interface ChangeCounter {
  readonly count: number;
  /** True at the next list_changed, false after `timeoutMs` without one. */
  next(timeoutMs: number): Promise<boolean>;
}

const countChanges = (client: Client): ChangeCounter => {
  let count = 0;
  let waiter: (() => void) | undefined;
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    count += 1;
    waiter?.();
  });
  return {
    get count() {
      return count;
    },
    next: (timeoutMs) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve(false);
        }, timeoutMs);
        waiter = () => {
          clearTimeout(timer);
          waiter = undefined;
          resolve(true);
        };
      }),
  };
};

/** `promptyard-server --transport http --port 0 …`, a 2025-11-25 session connected and every prompt listed. */
const startHttp = async (scenario: Scenario, args: readonly string[]): Promise<HttpServer> => {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags(scenario), serverCli, '--transport', 'http', '--port', '0', ...args], {
    env: serverEnv(scenario),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid as number;
  processes.add(pid);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString()}`.slice(-8000);
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match !== null) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`${scenario}: the server exited with ${code}:\n${stderr}`)));
  });
  const client = new Client({ name: 'promptyard-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const changes = countChanges(client);
  const listed = await listAll(client);
  if (listed < promptCount) throw new Error(`${scenario}: listed ${listed} prompts, expected ${promptCount}\n${stderr}`);
  return {
    url,
    client,
    changes,
    close: async () => {
      await client.close().catch(() => {});
      if (isAlive(pid)) process.kill(pid, 'SIGTERM');
      await ended(pid);
    },
  };
};

/** Whether the server serves `marker` in the edited prompt. */
const serves = async (client: Client, marker: string): Promise<boolean> => {
  const result = await client.getPrompt({ name: nameOf(editedIndex), arguments: { subject: 'the benchmark' } });
  return JSON.stringify(result.messages).includes(marker);
};

/** Commits the edited prompt with `marker` and pushes it; returns the new commit. */
const pushEdit = async (fixture: Fixture, marker: string): Promise<string> => {
  await writeFile(join(fixture.work, `${nameOf(editedIndex)}.md`), `${promptText(editedIndex)}\n${marker}\n`);
  await git(fixture.work, 'commit', '-q', '-a', '-m', marker);
  await git(fixture.work, 'push', '-q', 'origin', 'main');
  return git(fixture.work, 'rev-parse', 'HEAD');
};

/** POSTs a GitHub push of `commit` to the server's /hooks/git, signed with the secret. */
const postWebhook = async (server: HttpServer, fixture: Fixture, commit: string): Promise<void> => {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit, repository: { clone_url: fixture.url } });
  const signature = createHmac('sha256', webhookSecret).update(body).digest('hex');
  const response = await fetch(new URL('/hooks/git', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${signature}` },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /hooks/git answered ${response.status}: ${text}`);
};

interface Notified {
  /** Per edit: trigger → list_changed (ms); missed edits are not in it. */
  readonly latencies: readonly number[];
  readonly missed: number;
  /** The most list_changed notifications one edit brought. */
  readonly mostPerEdit: number;
  /** Edits after which the new text was not served. */
  readonly stale: number;
}

/**
 * One edit: `trigger` (which returns the moment timing starts), then list_changed, then a check that
 * the new text is served; notifications still arriving within `settleMs` count towards this edit.
 */
const measureEdit = async (
  server: HttpServer,
  marker: string,
  trigger: () => Promise<number>,
  timeoutMs: number,
  settleMs: number,
): Promise<{ latency: number | undefined; notifications: number; served: boolean }> => {
  const before = server.changes.count;
  const noticed = server.changes.next(timeoutMs);
  const began = await trigger();
  const latency = (await noticed) ? performance.now() - began : undefined;
  const served = await serves(server.client, marker);
  await pause(settleMs);
  return { latency, notifications: server.changes.count - before, served };
};

const emptyNotified = (): Notified => ({ latencies: [], missed: 0, mostPerEdit: 0, stale: 0 });
const record = (into: Notified, edit: Awaited<ReturnType<typeof measureEdit>>): Notified => ({
  latencies: edit.latency === undefined ? into.latencies : [...into.latencies, edit.latency],
  missed: into.missed + (edit.latency === undefined ? 1 : 0),
  mostPerEdit: Math.max(into.mostPerEdit, edit.notifications),
  stale: into.stale + (edit.served ? 0 : 1),
});

/** Edits the plain folder until its watcher notices one (it is ready then). */
const warmWatcher = async (server: HttpServer, file: string): Promise<void> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const noticed = server.changes.next(500);
    await writeFile(file, `${promptText(editedIndex)}\nwarm-up ${attempt}\n`);
    if (await noticed) return;
  }
  throw new Error('the plain folder server never noticed an edit');
};

/** Webhook → list_changed from git against save → list_changed in a watched plain folder, alternated edit by edit. */
const measureWebhook = async (fixture: Fixture, stateDir: string, runIndex: number): Promise<{ git: Notified; plain: Notified }> => {
  const config = await writeGitConfig(fixture, stateDir, '0');
  const fromGit = await startHttp('webhook-git', ['--config', config]);
  const plainServer = await startHttp('webhook-plain', ['--prompts', fixture.plain]);
  try {
    const plainFile = join(fixture.plain, `${nameOf(editedIndex)}.md`);
    await warmWatcher(plainServer, plainFile);
    await pause(300);
    let git = emptyNotified();
    let plain = emptyNotified();
    for (let push = 0; push < pushes; push++) {
      const marker = `bench edit ${runIndex}.${push}`;
      const viaGit = async (): Promise<void> => {
        const commit = await pushEdit(fixture, marker);
        // Timed from the POST: the notification may come before the hook's answer, awaited afterwards.
        let posted: Promise<void> = Promise.resolve();
        const edit = await measureEdit(
          fromGit,
          marker,
          async () => {
            const began = performance.now();
            posted = postWebhook(fromGit, fixture, commit);
            return began;
          },
          10_000,
          300,
        );
        await posted;
        git = record(git, edit);
      };
      const viaFolder = async (): Promise<void> => {
        plain = record(
          plain,
          await measureEdit(
            plainServer,
            marker,
            async () => {
              const began = performance.now();
              await writeFile(plainFile, `${promptText(editedIndex)}\n${marker}\n`);
              return began;
            },
            10_000,
            300,
          ),
        );
      };
      if ((push + runIndex) % 2 === 0) await viaGit().then(viaFolder);
      else await viaFolder().then(viaGit);
    }
    return { git, plain };
  } finally {
    await Promise.all([fromGit.close(), plainServer.close()]);
  }
};

/** A small deterministic generator for the pauses before polled pushes. */
const randomFrom = (seed: number): (() => number) => {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
};

/** Push → list_changed with `poll = "2s"`; each push after a random pause within the poll interval. */
const measurePoll = async (fixture: Fixture, stateDir: string, runIndex: number): Promise<Notified> => {
  const config = await writeGitConfig(fixture, stateDir, `${pollMs / 1000}s`);
  const server = await startHttp('poll-git', ['--config', config]);
  const random = randomFrom(runIndex + 7);
  try {
    let polled = emptyNotified();
    for (let push = 0; push < pushes; push++) {
      const marker = `bench poll ${runIndex}.${push}`;
      await pause(random() * pollMs);
      polled = record(
        polled,
        await measureEdit(
          server,
          marker,
          async () => {
            await pushEdit(fixture, marker);
            return performance.now();
          },
          pollMs + 10_000,
          pollMs + 500,
        ),
      );
    }
    return polled;
  } finally {
    await server.close();
  }
};

/**
 * git alone, no server: what a cold start asks of git (a bare repository, a shallow fetch of `main`,
 * a worktree checked out at it), the floor of a cold start.
 */
const timeGitAlone = async (fixture: Fixture, into: string): Promise<number> => {
  const began = performance.now();
  await git(fixture.base, 'init', '-q', '--bare', `${into}.git`);
  await git(`${into}.git`, 'fetch', '-q', '--depth=1', '--no-tags', fixture.url, '+refs/heads/main:refs/heads/main');
  await git(`${into}.git`, 'worktree', 'add', '-q', '--detach', into, 'main');
  // Left in place until the end: deleting 10,000 files slows the file writes that follow (the next checkout's).
  return performance.now() - began;
};

/**
 * Writes what the page cache holds (`sync`) before a timed start, so that a start does not pay for
 * the writes before it (a checkout's 10,000 files were several times slower right after the fixture
 * was written).
 */
const flushed = async <T>(work: () => Promise<T>): Promise<T> => {
  await run('sync');
  return work();
};

interface RunSample {
  gitAloneMs: number;
  cold: Started;
  warm: Started;
  plain: Started;
  unwatched: Started;
  webhook: { git: Notified; plain: Notified };
  poll: Notified;
}

/** Cold, warm and plain starts (in an order that turns with the run), then the webhook and the poll. */
const measureRun = async (fixture: Fixture, runIndex: number): Promise<RunSample> => {
  const stateDir = join(await mkdtemp(join(fixture.base, `run-${runIndex}-`)), 'state');
  await mkdir(stateDir);
  const config = await writeGitConfig(fixture, stateDir, '0');
  const plainStart = (): Promise<Started> => flushed(() => startStdio('start-plain', ['--prompts', fixture.plain]));
  let plain: Started | undefined;
  if (runIndex % 2 === 0) plain = await plainStart();
  const cold = await flushed(() => startStdio('cold-git', ['--config', config]));
  const warm = await flushed(() => startStdio('warm-git', ['--config', config]));
  const gitAloneMs = await flushed(() => timeGitAlone(fixture, join(stateDir, '..', 'git-alone')));
  if (plain === undefined) plain = await plainStart();
  // The checkout is not watched (a move comes from git): the plain folder unwatched holds the same.
  const unwatched = await flushed(() => startStdio('start-plain-unwatched', ['--prompts', fixture.plain, '--no-watch']));
  const webhook = await measureWebhook(fixture, stateDir, runIndex);
  const poll = await measurePoll(fixture, stateDir, runIndex);
  return { gitAloneMs, cold, warm, plain, unwatched, webhook, poll };
};

const ratio = (value: number): string => `${value.toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

/** The table of medians (and the worst edits) over every run. */
const table = (samples: readonly RunSample[], commit: string): string => {
  const m = (pick: (sample: RunSample) => number): number => median(samples.map(pick));
  const notifiedMedian = (pick: (sample: RunSample) => Notified): number => m((sample) => median(pick(sample).latencies));
  const all = (pick: (sample: RunSample) => Notified): number[] => samples.flatMap((sample) => pick(sample).latencies);
  const sum = (pick: (sample: RunSample) => number): number => samples.reduce((total, sample) => total + pick(sample), 0);
  const edits = `${samples.length * pushes} edits`;
  const notes = (pick: (sample: RunSample) => Notified): string =>
    `${sum((sample) => pick(sample).missed)} missed, ≤ ${Math.max(...samples.map((sample) => pick(sample).mostPerEdit))} list_changed per edit, ${sum((sample) => pick(sample).stale)} stale`;
  const cold = m((sample) => sample.cold.readyMs);
  const warm = m((sample) => sample.warm.readyMs);
  const plain = m((sample) => sample.plain.readyMs);
  const hook = notifiedMedian((sample) => sample.webhook.git);
  const hookMax = Math.max(...all((sample) => sample.webhook.git));
  const saved = notifiedMedian((sample) => sample.webhook.plain);
  const polled = notifiedMedian((sample) => sample.poll);
  const polledMax = Math.max(...all((sample) => sample.poll));
  const rssGit = m((sample) => sample.cold.rssMb);
  const rssPlain = m((sample) => sample.plain.rssMb);
  const rssRatio = m((sample) => sample.cold.rssMb / sample.plain.rssMb);
  const rows: string[][] = [
    [
      `cold start: fresh state dir → ${promptCount.toLocaleString('en-US')} prompts listed`,
      `${ms(cold)} ms`,
      `${ms(plain)} ms`,
      ratio(m((sample) => sample.cold.readyMs / sample.plain.readyMs)),
      `< 10 s: ${verdict(cold < 10_000)}`,
    ],
    [
      'the floor: git alone (`init --bare`, `fetch --depth=1` of main, `worktree add`), no server',
      `${ms(m((sample) => sample.gitAloneMs))} ms`,
      '—',
      `cold start ${ratio(m((sample) => sample.cold.readyMs / sample.gitAloneMs))} of it`,
      '—',
    ],
    [
      'warm start: state dir kept',
      `${ms(warm)} ms`,
      `${ms(plain)} ms`,
      ratio(m((sample) => sample.warm.readyMs / sample.plain.readyMs)),
      '—',
    ],
    [
      'webhook POST → list_changed (plain: save → list_changed), median',
      `${ms(hook)} ms (${notes((sample) => sample.webhook.git)})`,
      `${ms(saved)} ms (${notes((sample) => sample.webhook.plain)})`,
      ratio(m((sample) => median(sample.webhook.git.latencies) / median(sample.webhook.plain.latencies))),
      `< 1 s: ${verdict(hook < 1000)}`,
    ],
    [
      `webhook POST → list_changed, slowest of ${edits}`,
      `${ms(hookMax)} ms`,
      `${ms(Math.max(...all((sample) => sample.webhook.plain)))} ms`,
      '—',
      `< 1 s: ${verdict(hookMax < 1000)}`,
    ],
    [
      `push → list_changed, poll = "${pollMs / 1000}s", median`,
      `${ms(polled)} ms (${notes((sample) => sample.poll)})`,
      `— (poll + 1 s = ${pollMs + 1000} ms)`,
      `${ratio(polled / (pollMs + 1000))} of poll + 1 s`,
      `≤ ${pollMs + 1000} ms: ${verdict(polled <= pollMs + 1000)}`,
    ],
    [
      `push → list_changed, poll, slowest of ${edits}`,
      `${ms(polledMax)} ms`,
      '—',
      `${ratio(polledMax / (pollMs + 1000))} of poll + 1 s`,
      `≤ ${pollMs + 1000} ms: ${verdict(polledMax <= pollMs + 1000)}`,
    ],
    [
      'RSS of the server process after the full list (cold start)',
      `${ms(rssGit)} MB`,
      `${ms(rssPlain)} MB`,
      ratio(rssRatio),
      `≤ 1.1×: ${verdict(rssRatio <= 1.1)}`,
    ],
    [
      'RSS after the full list (cold start), plain folder with `--no-watch`',
      `${ms(rssGit)} MB`,
      `${ms(m((sample) => sample.unwatched.rssMb))} MB`,
      ratio(m((sample) => sample.cold.rssMb / sample.unwatched.rssMb)),
      '—',
    ],
    [
      'RSS after the full list (warm start)',
      `${ms(m((sample) => sample.warm.rssMb))} MB`,
      `${ms(rssPlain)} MB`,
      ratio(m((sample) => sample.warm.rssMb / sample.plain.rssMb)),
      '—',
    ],
  ];
  return [
    `git library (git daemon on loopback) vs plain folder, ${promptCount.toLocaleString('en-US')} prompts of ~2 KB, medians of ${samples.length} runs (ratios: median of each run's ratio), commit ${commit}, Node ${process.version}, git ${gitVersion}${profiling ? ', UNDER THE CPU PROFILER' : ''}`,
    '',
    '| measure | git | plain folder | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ].join('\n');
};

let gitVersion = '?';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The top self-time functions over every profile of a scenario. */
const topSelfTime = async (scenario: Scenario, top = 15): Promise<string> => {
  const dir = join(profileDir, scenario);
  const files = (await readdir(dir).catch(() => [])).filter((file) => file.endsWith('.cpuprofile'));
  const self = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const labels = new Map<number, string>();
    for (const { id, callFrame } of profile.nodes) {
      const where = callFrame.url === '' ? '' : ` ${relative(root, callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}`;
      labels.set(id, `${callFrame.functionName === '' ? '(anonymous)' : callFrame.functionName}${where}`);
    }
    profile.samples.forEach((node, index) => {
      const delta = (profile.timeDeltas[index] ?? 0) / 1000;
      total += delta;
      const label = labels.get(node) ?? '?';
      self.set(label, (self.get(label) ?? 0) + delta);
    });
  }
  const lines = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([label, time]) => `| ${ms(time)} ms | ${((100 * time) / total).toFixed(1)}% | \`${label}\` |`);
  return [
    `#### ${scenario} (${files.length} profiles, ${ms(total)} ms sampled)`,
    '',
    '| self | share | function |',
    '|---|---|---|',
    ...lines,
    '',
  ].join('\n');
};

/** The git subcommand of an argv (`git -c a=b -C dir fetch …` → `fetch`). */
const subcommandOf = (argv: readonly string[]): string => {
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '-c' || arg === '-C' || arg === '--shallow-file') index += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return '?';
};

/**
 * The git commands a scenario's servers ran (trace2 events), by subcommand: how many, their total
 * and longest wall time. Commands git ran itself (index-pack under fetch …) are counted apart, as
 * their time is inside their parent's.
 */
const gitCommandTimes = async (scenario: Scenario): Promise<string> => {
  const text = await readFile(gitTraceOf(scenario), 'utf8').catch(() => '');
  const names = new Map<string, string>();
  const seconds = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const event = JSON.parse(line) as { event: string; sid: string; argv?: string[]; t_abs?: number };
    if (event.event === 'start' && event.argv !== undefined)
      names.set(event.sid, `${event.sid.includes('/') ? '(run by git) ' : ''}${subcommandOf(event.argv)}`);
    if ((event.event === 'exit' || event.event === 'atexit') && event.t_abs !== undefined)
      seconds.set(event.sid, Math.max(seconds.get(event.sid) ?? 0, event.t_abs));
  }
  const byCommand = new Map<string, { count: number; total: number; longest: number }>();
  for (const [sid, name] of names) {
    const elapsed = (seconds.get(sid) ?? 0) * 1000;
    const entry = byCommand.get(name) ?? { count: 0, total: 0, longest: 0 };
    byCommand.set(name, { count: entry.count + 1, total: entry.total + elapsed, longest: Math.max(entry.longest, elapsed) });
  }
  const lines = [...byCommand]
    .sort((a, b) => b[1].total - a[1].total)
    .map(([name, { count, total, longest }]) => `| \`git ${name}\` | ${count} | ${ms(total)} ms | ${ms(longest)} ms |`);
  return lines.length === 0
    ? ''
    : ['git commands the servers ran:', '', '| command | runs | total | longest |', '|---|---|---|---|', ...lines, ''].join('\n');
};

/** A scenario's top self-time functions and git commands. */
const scenarioProfile = async (scenario: Scenario): Promise<string> => {
  const git = await gitCommandTimes(scenario);
  return `${await topSelfTime(scenario)}${git === '' ? '' : `\n${git}`}`;
};

const main = async (): Promise<void> => {
  gitVersion = (await git(root, '--version')).replace(/^git version /, '');
  const commit = await git(root, 'rev-parse', '--short', 'HEAD');
  if (profiling) {
    await rm(profileDir, { recursive: true, force: true });
    for (const scenario of scenarios) await mkdir(join(profileDir, scenario), { recursive: true });
  }
  process.stderr.write(`generating ${promptCount} prompts in a repository and a plain folder …\n`);
  const base = await mkdtemp(join(tmpdir(), 'promptyard-bench-git-'));
  try {
    const fixture = await makeFixture(base);
    const samples: RunSample[] = [];
    for (let runIndex = 0; runIndex < runs; runIndex++) {
      process.stderr.write(`run ${runIndex + 1}/${runs}\n`);
      const sample = await measureRun(fixture, runIndex);
      samples.push(sample);
      process.stderr.write(
        `  cold ${ms(sample.cold.readyMs)} ms (git alone ${ms(sample.gitAloneMs)} ms), warm ${ms(sample.warm.readyMs)} ms, plain ${ms(sample.plain.readyMs)} ms; webhook ${sample.webhook.git.latencies.map((value) => ms(value)).join(' ')} ms; poll ${sample.poll.latencies.map((value) => ms(value)).join(' ')} ms\n`,
      );
    }
    const text = table(samples, commit);
    const profiles = profiling
      ? `\n### CPU profiles: top self time of the server processes, and the git commands they ran\n\n${(await Promise.all(scenarios.map(scenarioProfile))).join('\n')}`
      : '';
    process.stdout.write(`${text}${profiles}`);
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'git-library.md'), `${text}${profiles}`);
  } finally {
    killStarted();
    await rm(base, { recursive: true, force: true });
  }
};

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(killStarted);
