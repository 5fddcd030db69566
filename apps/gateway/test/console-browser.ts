/**
 * What the console's browser tests share: Debian's Chromium, signing in through the form, axe-core's
 * serious and critical violations, and a POST from the page with or without its CSRF token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { chromiumArgs, chromiumPath } from '../../../test-support/browser.js';

export { chromiumArgs, chromiumPath, skipWithoutBrowser } from '../../../test-support/browser.js';

/** Accessibility violations axe-core rates serious or critical, as "rule: where" lines. */
export const seriousViolations = async (page: Page, axeSource: string): Promise<string[]> => {
  // Evaluated over the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
};

export const signIn = async (page: Page, origin: string, credential: string): Promise<void> => {
  await page.goto(`${origin}/console`);
  expect(new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('Token').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/console/servers`);
  await page.waitForFunction(() => 'htmx' in globalThis);
};

/** POST a form from the page itself (same origin, its cookie), with or without the session's CSRF token. */
export const postFromPage = (page: Page, path: string, withCsrf: boolean, fields: Record<string, string> = {}): Promise<number> =>
  page.evaluate(
    async ({ path, withCsrf, fields }) => {
      // The test's TypeScript has no DOM library: the page's document, typed as far as it is used.
      const { document } = globalThis as unknown as { document: { body: { getAttribute(name: string): string | null } } };
      const headers = JSON.parse(document.body.getAttribute('hx-headers') ?? '{}') as Record<string, string>;
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCsrf ? headers : {}) },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
      return response.status;
    },
    { path, withCsrf, fields },
  );

/**
 * Pages of their own browser contexts at the console's width (`height` tall), each reporting the
 * Content-Security-Policy violations its console prints; `close` closes every context made.
 */
export const consolePages = (browser: () => Browser, height: number) => {
  const contexts: BrowserContext[] = [];
  const cspViolations: string[] = [];
  const newPage = async (): Promise<Page> => {
    const context = await browser().newContext({ viewport: { width: 1180, height } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return page;
  };
  const close = async (): Promise<void> => {
    for (const context of contexts.splice(0)) await context.close();
  };
  return { newPage, cspViolations, close };
};

/** Where a test saves its screenshots: $PROMPTYARD_CONSOLE_SHOTS (`pnpm console:screenshots`), else a temporary folder. */
export const screenshotsFolder = async (): Promise<string> =>
  process.env['PROMPTYARD_CONSOLE_SHOTS'] ?? (await mkdtemp(join(tmpdir(), 'promptyard-console-shots-')));

/** Removes the folder `screenshotsFolder` made; one named by $PROMPTYARD_CONSOLE_SHOTS is left for its owner. */
export const removeScreenshots = async (folder: string | undefined): Promise<void> => {
  if (process.env['PROMPTYARD_CONSOLE_SHOTS'] === undefined && folder !== undefined) await rm(folder, { recursive: true, force: true });
};

/** Follows the console's navigation to the page `name`s (Activity, Changes, Sessions …), as a keyboard or mouse user would. */
export const openFromNavigation = async (page: Page, origin: string, name: string): Promise<void> => {
  await page.getByRole('link', { name }).click();
  await page.waitForURL(`${origin}/console/${name.toLowerCase()}`);
};

/**
 * A browser test's Chromium, its pages (as `consolePages`) and its screenshots folder: `start` in
 * `beforeAll`, `close` in `afterAll` (pages, browser, then the folder `screenshotsFolder` made).
 */
export const consoleBrowser = (height: number) => {
  let browser: Browser | undefined;
  let shots: string | undefined;
  const pages = consolePages(() => browser as Browser, height);
  return {
    ...pages,
    start: async (): Promise<void> => {
      shots = await screenshotsFolder();
      browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    },
    /** Where a screenshot named `name` goes. */
    shot: (name: string): string => join(shots as string, name),
    close: async (): Promise<void> => {
      await pages.close();
      await browser?.close();
      await removeScreenshots(shots);
    },
  };
};
