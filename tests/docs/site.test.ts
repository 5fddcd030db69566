/**
 * The documentation site as a reader meets it: the built site (`pnpm docs:build`) served on loopback and
 * opened in headless Chromium (Debian's `chromium`, installed by scripts/ensure-tools.sh). Every page is
 * reached from the home page, every internal link resolves (and its #anchor exists on the page it names),
 * and the search box finds a configuration key on the configuration reference.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath, skipWithoutBrowser } from '../../test-support/browser.js';
import { serveStaticSite, type StaticSite } from '../../test-support/static-site.js';

const dist = fileURLToPath(new URL('../../docs/.vitepress/dist', import.meta.url));
// The site's pages load over loopback only: no QUIC, no component downloads.
const siteArgs = [...chromiumArgs, '--disable-quic', '--disable-component-update'];

/** The page's URL path for each built page: `guide/x.html` → `/guide/x`, `gateway/index.html` → `/gateway/`. */
const builtPages = async (): Promise<string[]> => {
  const files = await readdir(dist, { recursive: true });
  return files
    .filter((file) => file.endsWith('.html') && file !== '404.html')
    .map((file) => `/${file.replace(/\\/g, '/')}`.replace(/index\.html$/, '').replace(/\.html$/, ''))
    .sort();
};

interface Visit {
  status: number;
  ids: Set<string>;
  links: string[];
}

const visit = async (page: Page, url: string): Promise<Visit> => {
  const response = await page.goto(url, { waitUntil: 'load' });
  const status = response?.status() ?? 0;
  if (status !== 200) return { status, ids: new Set(), links: [] };
  const ids = await page.$$eval('[id], a[name]', (elements) => elements.map((element) => element.id || element.getAttribute('name') || ''));
  const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  const links = hrefs.map((href) => new URL(href, page.url()).href);
  return { status, ids: new Set(ids), links };
};

describe.skipIf(skipWithoutBrowser('the documentation site'))('the documentation site', () => {
  let site: StaticSite | undefined;
  let context: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    if (!existsSync(join(dist, 'index.html'))) throw new Error(`no built site in ${dist}: run pnpm docs:build`);
    site = await serveStaticSite(dist);
    profile = await mkdtemp(join(tmpdir(), 'docs-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: siteArgs });
  });

  afterAll(async () => {
    await context?.close();
    await site?.close();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  });

  it('reaches every page from the home page, and every internal link and anchor resolves', async () => {
    const origin = site!.url;
    const page = await context!.newPage();
    const visited = new Map<string, Visit>();
    const linksFrom: { from: string; to: URL }[] = [];
    const queue = ['/'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (visited.has(path)) continue;
      const result = await visit(page, `${origin}${path}`);
      visited.set(path, result);
      for (const href of result.links) {
        const to = new URL(href);
        if (to.origin !== origin) continue;
        linksFrom.push({ from: path, to });
        if (!visited.has(to.pathname)) queue.push(to.pathname);
      }
    }
    await page.close();

    // One line per broken target, naming a page that links to it (the sidebar repeats a link on every page).
    const broken = new Map<string, string>();
    for (const { from, to } of linksFrom) {
      const target = visited.get(to.pathname);
      if (target?.status !== 200) broken.set(to.pathname, `${to.pathname}: HTTP ${target?.status ?? 'not visited'} (linked from ${from})`);
      else if (to.hash.length > 1 && !target.ids.has(decodeURIComponent(to.hash.slice(1))))
        broken.set(`${to.pathname}${to.hash}`, `${to.pathname}${to.hash}: no such anchor (linked from ${from})`);
    }
    expect([...broken.values()].sort()).toEqual([]);
    const reached = [...visited.keys()].filter((path) => visited.get(path)?.status === 200);
    expect(reached.sort()).toEqual(expect.arrayContaining(await builtPages()));
  });

  it('finds a configuration key with the search box and leads to the configuration reference', async () => {
    const page = await context!.newPage();
    await page.goto(`${site!.url}/`, { waitUntil: 'load' });
    await page.locator('.DocSearch-Button').click();
    await page.locator('#localsearch-input').fill('max_file_bytes');
    const result = page.locator('.VPLocalSearchBox a.result[href^="/reference/configuration"]').first();
    await result.waitFor({ state: 'visible' });
    await result.click();
    await page.waitForURL((url) => url.pathname === '/reference/configuration');
    // The router changes the URL before it renders the page: wait for the page's own heading.
    await page.locator('.vp-doc h1', { hasText: 'Configuration reference' }).waitFor({ state: 'visible' });
    await expect(page.locator('.vp-doc').textContent()).resolves.toContain('[limits] max_file_bytes');
    await page.close();
  });
});
