/**
 * `pnpm bench` (resources part): `doc://` and `url:` reads in-process, against loopback fakes.
 *
 * Baseline in the same run: a plain uncached `fetch` of the same file from the loopback host.
 * - `doc://` cached read: the provider answering from its cache (memory in front of the disk cache);
 *   after a restart: a fresh provider reading the warm disk cache.
 * - `doc://` cold read: a fresh provider and an empty cache dir each time (fetch + disk write).
 * - `url:` local mode on a ~200 KB page: guarded fetch + Readability on linkedom + Turndown (GFM),
 *   with the TTL cache off so every read converts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocProvider, createUrlProvider } from '../packages/resources/src/index.js';
import { startFakeDocsSite } from '../packages/resources/src/test-fakes.js';
import { startFakeSite } from '../packages/resources/src/test-web.js';
import { percentile, ms } from './stats.js';
const ms3 = (value: number): string => ms(value, 3);

const iterations = Number(process.env['BENCH_CALLS'] ?? 200);

const sample = async (count: number, work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> => {
  for (let index = 0; index < Math.min(20, count); index++) await work();
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const began = performance.now();
    await work();
    times.push(performance.now() - began);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
};

const docs = await startFakeDocsSite();
const site = await startFakeSite({ bigBytes: 200_000 });
const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-bench-'));
  dirs.push(dir);
  return dir;
};

try {
  const docOptions = { libraries: { fakelib: `${docs.url}/llms.txt` }, ttlMs: 3_600_000, maxBytes: 10_485_760, timeoutMs: 10_000 };
  const fetchText = async (url: string): Promise<string> => (await fetch(url)).text();
  const pageBytes = Buffer.byteLength(await fetchText(`${site.url}/big`));

  const docBaseline = await sample(iterations, () => fetchText(`${docs.url}/llms.txt`));
  const warmDir = await tempDir();
  const warm = createDocProvider({ ...docOptions, cacheDir: warmDir });
  await warm.read('doc://fakelib');
  const docCached = await sample(iterations, () => warm.read('doc://fakelib'));
  const docDisk = await sample(iterations, () => createDocProvider({ ...docOptions, cacheDir: warmDir }).read('doc://fakelib'));
  const docCold = await sample(Math.min(iterations, 100), async () =>
    createDocProvider({ ...docOptions, cacheDir: await tempDir() }).read('doc://fakelib'),
  );

  const urlBaseline = await sample(Math.min(iterations, 100), () => fetchText(`${site.url}/big`));
  const local = createUrlProvider({
    mode: 'local',
    readerUrl: 'http://127.0.0.1:9',
    allow: ['127.0.0.1'],
    timeoutMs: 10_000,
    maxBytes: 5_242_880,
    contentTypes: ['text/'],
    cacheTtlMs: 0,
  });
  const urlLocal = await sample(Math.min(iterations, 100), () => local.read(`url:${site.url}/big`));

  const rows = [
    ['baseline: uncached `fetch` of llms.txt from loopback', docBaseline],
    ['`doc://` cached read', docCached],
    ['`doc://` cached read after a restart (fresh provider, disk cache)', docDisk],
    ['`doc://` cold read (fetch + disk cache write)', docCold],
    [`baseline: uncached \`fetch\` of a ${Math.round(pageBytes / 1000)} KB page from loopback`, urlBaseline],
    [`\`url:\` local mode: fetch + Readability + GFM Markdown (${Math.round(pageBytes / 1000)} KB)`, urlLocal],
  ] as const;
  console.log(`\nResources (${iterations} iterations, Node ${process.version})\n`);
  console.log('| case | p50 ms | p95 ms |');
  console.log('|---|---:|---:|');
  for (const [name, { p50, p95 }] of rows) console.log(`| ${name} | ${ms3(p50)} | ${ms3(p95)} |`);
  console.log(
    `\nconversion cost over the fetch (p50): ${ms3(urlLocal.p50 - urlBaseline.p50)} ms; cached doc:// vs fetch: ${(docBaseline.p50 / docCached.p50).toFixed(0)}× faster\n`,
  );
} finally {
  await Promise.all([docs.close(), site.close()]);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
