/**
 * `pnpm bench:console`: how fast the operator console paints, and how much it ships. The built
 * promptyard-gateway with two stdio test servers and `[console]` on the static token, in Debian's
 * Chromium (playwright-core), on loopback:
 *
 *   first paint   each page (Servers, Catalog, Changes, Activity, Sessions) loaded in a fresh browser context
 *                 (cold cache, signed in by cookie) and again in the same context (warm: the files
 *                 revalidated by ETag): navigation start → first contentful paint, and → load
 *   baseline      the very same bytes (page, files, headers) answered by a plain node:http server that
 *                 only replays them: what the browser alone takes, so the ratio is what the gateway
 *                 adds (session, rendering, its HTTP front); and the browser's floor, a page of one
 *                 line with no files, which says how much of a paint is the browser's on this machine
 *   files         the Servers page and every file it names, gzipped (level 9), against the 150 KB target
 *
 * Scenarios alternate within each run; figures are medians of BENCH_RUNS runs (default 5) of
 * BENCH_LOADS loads each (default 5). Without the built gateway or /usr/bin/chromium it says so and
 * stops.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Browser, Cookie, Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../test-support/browser.js';
import { signInOverHttp } from '../apps/gateway/test/console-http.js';
import { cleanup, cli, gatewayToml, startHttpGateway, stdioBackendCommand } from '../apps/gateway/test/harness.js';
import { median, ms } from './stats.js';

const runs = Math.max(3, Number(process.env['BENCH_RUNS'] ?? 5));
const loads = Math.max(1, Number(process.env['BENCH_LOADS'] ?? 5));
const token = 'console-bench-token';
const pages = ['servers', 'catalog', 'changes', 'activity', 'sessions'] as const;
/** The browser's floor on this machine: a page of one line, no stylesheet, no script, from the replaying server. */
const floorPath = '/floor';
const floorPage = '<!doctype html><html lang="en"><title>Floor</title><p>Servers</p></html>';
const firstPaintTargetMs = 300;
const filesTargetKb = 150;

interface Recorded {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

interface Timing {
  readonly paint: number;
  readonly load: number;
}

/** The headers worth replaying: everything but the session's cookies and the hop-by-hop ones. */
const replayable = (headers: IncomingHttpHeaders | Headers): Record<string, string> => {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers).map(([k, v]) => [k, String(v)] as const);
  return Object.fromEntries(
    entries.filter(([name]) => !['set-cookie', 'connection', 'transfer-encoding', 'date', 'keep-alive'].includes(name)),
  );
};

/** Each page and every file it names, as the gateway answers them, for the replaying server. */
const record = async (origin: string, session: string): Promise<Map<string, Recorded>> => {
  const recorded = new Map<string, Recorded>();
  const get = async (path: string): Promise<Recorded> => {
    const response = await fetch(`${origin}${path}`, { headers: { cookie: `promptyard_console=${session}` } });
    const entry = { status: response.status, headers: replayable(response.headers), body: Buffer.from(await response.arrayBuffer()) };
    recorded.set(path, entry);
    return entry;
  };
  for (const page of pages) {
    const { body } = await get(`/console/${page}`);
    for (const [, path] of body.toString('utf8').matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)) await get(path as string);
  }
  return recorded;
};

/** A server that answers only the recorded requests, byte for byte; its event stream sends nothing and stays open. */
const replayServer = async (recorded: Map<string, Recorded>): Promise<{ origin: string; server: Server }> => {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://replay.invalid').pathname;
    if (path === floorPath) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(floorPage);
    if (path === '/console/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' }).flushHeaders();
      return;
    }
    const found = recorded.get(path);
    if (found === undefined) res.writeHead(404).end();
    else if (req.headers['if-none-match'] !== undefined && req.headers['if-none-match'] === found.headers['etag']) res.writeHead(304).end();
    else res.writeHead(found.status, found.headers).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

/** Navigation start → first contentful paint and → load, read from the page's own performance entries. */
const timingOf = async (page: Page, url: string): Promise<Timing> => {
  await page.goto(url, { waitUntil: 'load' });
  // The paint entry may come after `load` in a headless browser: wait for it (buffered) rather than read it once.
  return page.evaluate(
    () =>
      new Promise<Timing>((resolve, reject) => {
        // The bench's TypeScript has no DOM library: the page's performance API, typed as far as it is used.
        interface Entry {
          readonly startTime: number;
          readonly loadEventEnd?: number;
        }
        type Observer = new (callback: (list: { getEntriesByName(name: string): Entry[] }, observer: { disconnect(): void }) => void) => {
          observe(options: { type: string; buffered: boolean }): void;
        };
        const scope = globalThis as unknown as {
          performance: { getEntriesByType(type: string): Entry[] };
          PerformanceObserver: Observer;
        };
        const navigation = scope.performance.getEntriesByType('navigation')[0];
        const timer = setTimeout(() => reject(new Error('no first-contentful-paint within 5 s')), 5000);
        new scope.PerformanceObserver((list, observer) => {
          const paint = list.getEntriesByName('first-contentful-paint')[0];
          if (paint === undefined) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve({ paint: paint.startTime, load: navigation?.loadEventEnd ?? Number.NaN });
        }).observe({ type: 'paint', buffered: true });
      }),
  );
};

/** One cold load (a fresh context) and one warm load (the same context again) of `url`. */
const coldAndWarm = async (browser: Browser, url: string, cookie: Cookie): Promise<{ cold: Timing; warm: Timing }> => {
  const context = await browser.newContext({ viewport: { width: 1180, height: 720 } });
  try {
    await context.addCookies([cookie]);
    const page = await context.newPage();
    const cold = await timingOf(page, url);
    const warm = await timingOf(page, url);
    return { cold, warm };
  } finally {
    await context.close();
  }
};

/** The Servers page and every file it names (scripts, stylesheet, icon), as the gateway sends them, gzipped. */
const filesOf = (recorded: Map<string, Recorded>): { path: string; raw: number; gzipped: number }[] => {
  const page = recorded.get('/console/servers');
  if (page === undefined) return [];
  const named = [...page.body.toString('utf8').matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
  return ['/console/servers', ...new Set(named)].map((path) => {
    const body = recorded.get(path)?.body ?? Buffer.alloc(0);
    return { path, raw: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
};

const cookieFor = (origin: string, value: string): Cookie => ({
  name: 'promptyard_console',
  value,
  domain: new URL(origin).hostname,
  path: '/console',
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: 'Strict',
});

const main = async (): Promise<void> => {
  if (!existsSync(cli)) return void console.log(`console bench skipped: ${cli} is missing (run pnpm build first)`);
  if (!existsSync(chromiumPath))
    return void console.log(`console bench skipped: ${chromiumPath} is missing (bash scripts/ensure-tools.sh installs Debian's chromium)`);
  const gateway = await startHttpGateway({
    config: gatewayToml(
      { alpha: { command: stdioBackendCommand({ name: 'alpha' }) }, beta: { command: stdioBackendCommand({ name: 'beta' }) } },
      {},
      `[transport]\nauth_token = "${token}"\n\n[console]\nenabled = true`,
    ),
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  let replay: Server | undefined;
  try {
    const session = await signInOverHttp(gateway.origin, token);
    const recorded = await record(gateway.origin, session);
    const replayed = await replayServer(recorded);
    replay = replayed.server;
    const targets = { gateway: gateway.origin, replay: replayed.origin } as const;
    const samples = new Map<string, { cold: number[]; warm: number[]; load: number[] }>();
    const sample = (key: string) => samples.get(key) ?? (samples.set(key, { cold: [], warm: [], load: [] }).get(key) as never);
    for (let run = 0; run < runs; run += 1) {
      const perRun = new Map<string, { cold: number[]; warm: number[]; load: number[] }>();
      for (let load = 0; load < loads; load += 1) {
        const floor = await coldAndWarm(browser, `${targets.replay}${floorPath}`, cookieFor(targets.replay, session));
        const floorEntry = perRun.get('floor') ?? (perRun.set('floor', { cold: [], warm: [], load: [] }).get('floor') as never);
        floorEntry.cold.push(floor.cold.paint);
        floorEntry.warm.push(floor.warm.paint);
        floorEntry.load.push(floor.cold.load);
        for (const page of pages) {
          for (const [side, origin] of Object.entries(targets)) {
            const { cold, warm } = await coldAndWarm(browser, `${origin}/console/${page}`, cookieFor(origin, session));
            const key = `${page} ${side}`;
            const entry = perRun.get(key) ?? (perRun.set(key, { cold: [], warm: [], load: [] }).get(key) as never);
            entry.cold.push(cold.paint);
            entry.warm.push(warm.paint);
            entry.load.push(cold.load);
          }
        }
      }
      for (const [key, entry] of perRun) {
        const all = sample(key);
        all.cold.push(median(entry.cold));
        all.warm.push(median(entry.warm));
        all.load.push(median(entry.load));
      }
    }
    report(samples);
    reportFiles(filesOf(recorded));
  } finally {
    await browser.close();
    replay?.closeAllConnections();
    await new Promise((resolve) => (replay === undefined ? resolve(undefined) : replay.close(resolve)));
    await cleanup();
  }
};

const report = (samples: Map<string, { cold: number[]; warm: number[]; load: number[] }>): void => {
  console.log(`\nconsole first paint on loopback, medians of ${runs} runs × ${loads} loads (ms; ratio: gateway ÷ replayed bytes)\n`);
  console.log('| page | first paint, cold | replayed | ratio | first paint, warm | replayed | load, cold | target |');
  console.log('| --- | --: | --: | --: | --: | --: | --: | --- |');
  for (const page of pages) {
    const gateway = samples.get(`${page} gateway`);
    const replay = samples.get(`${page} replay`);
    if (gateway === undefined || replay === undefined) continue;
    const cold = median(gateway.cold);
    const ratio = median(gateway.cold.map((value, index) => value / (replay.cold[index] as number)));
    console.log(
      `| ${page} | ${ms(cold)} | ${ms(median(replay.cold))} | ${ratio.toFixed(2)}× | ${ms(median(gateway.warm))} | ${ms(median(replay.warm))} | ${ms(median(gateway.load))} | < ${firstPaintTargetMs} ms ${cold < firstPaintTargetMs ? 'met' : 'MISSED'} |`,
    );
  }
  const floor = samples.get('floor');
  if (floor !== undefined)
    console.log(
      `| (the browser's floor: one line of HTML, no files) | ${ms(median(floor.cold))} | | | ${ms(median(floor.warm))} | | ${ms(median(floor.load))} | |`,
    );
};

const reportFiles = (files: readonly { path: string; raw: number; gzipped: number }[]): void => {
  const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
  console.log('\nthe Servers page and the files it names (gzip -9)\n');
  console.log('| file | bytes | gzipped KB |');
  console.log('| --- | --: | --: |');
  for (const file of files) console.log(`| ${file.path} | ${file.raw} | ${kb(file.gzipped)} |`);
  const total = files.reduce((sum, file) => sum + file.gzipped, 0);
  console.log(
    `| **total** | ${files.reduce((sum, file) => sum + file.raw, 0)} | **${kb(total)}** (target ≤ ${filesTargetKb} KB: ${total <= filesTargetKb * 1024 ? 'met' : 'MISSED'}) |`,
  );
};

await main();
