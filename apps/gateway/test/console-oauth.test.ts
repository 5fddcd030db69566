/**
 * The operator console's browser sign-in through the identity provider (a real `oidc-provider` on
 * loopback: authorization code with PKCE, its login interaction answered at once), in Debian's
 * Chromium driven by playwright-core against the built gateway with two stdio servers; the role from
 * `[console] admins`; a callback that did not start here; signing out, which ends the session at
 * the provider too (RP-initiated logout); and the Catalog page with its search, checked by axe-core. Screenshots go to $PROMPTYARD_CONSOLE_SHOTS, else a temporary folder.
 */
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import {
  chromiumArgs,
  chromiumPath,
  openFromNavigation,
  removeScreenshots,
  screenshotsFolder,
  seriousViolations,
  skipWithoutBrowser,
} from './console-browser.js';
import { freePort } from '../../../test-support/prometheus.js';
import { cleanup, gatewayToml, startHttpGateway, stdioBackendCommand } from './harness.js';

const consoleToml = (issuer: string, clientId: string, publicUrl: string): string =>
  gatewayToml(
    {
      alpha: { command: stdioBackendCommand({ name: 'alpha' }), pinning: 'warn' },
      beta: { command: stdioBackendCommand({ name: 'beta' }) },
    },
    { pins_file: 'pins.json' },
    [
      `[transport]\npublic_url = ${JSON.stringify(publicUrl)}`,
      `[auth]\nissuer = ${JSON.stringify(issuer)}`,
      `[[policy]]\nname = "operators"\nsubjects = ["ops-*"]\nservers = ["*"]`,
      `[console]\nenabled = true\nadmins = ["operators"]\nclient_id = ${JSON.stringify(clientId)}`,
      `[servers.alpha.overrides.tools.echo]\ndescription = "Says the text back, as the console shows."`,
      `[profiles.review.servers.alpha]\ntools = ["echo"]`,
    ].join('\n\n'),
  );

/**
 * The console as a public client of the provider (RFC 7591), a native one: its redirect may be plain
 * http on localhost. After signing out there, the provider sends the browser back to the sign-in page.
 */
const registerConsole = async (issuer: string, redirectUri: string, postLogoutRedirectUri: string): Promise<string> => {
  const response = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      application_type: 'native',
      redirect_uris: [redirectUri],
      post_logout_redirect_uris: [postLogoutRedirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'openid profile mcp',
    }),
  });
  const answer = (await response.json()) as { client_id?: string; error_description?: string };
  if (answer.client_id === undefined) throw new Error(`registration refused: ${answer.error_description ?? response.status}`);
  return answer.client_id;
};

/** The `data-name` of each item the locator finds. */
const namesOf = async (items: Locator): Promise<string[]> =>
  Promise.all((await items.all()).map(async (item) => (await item.getAttribute('data-name')) ?? ''));

describe.skipIf(skipWithoutBrowser('the console signs in through the identity provider'))(
  'the console signs in through the identity provider',
  () => {
    let issuer: TestIssuer;
    /** Where the browser opens the console: `localhost`, another site than the provider's 127.0.0.1, as a real provider is. */
    let origin = '';
    let browser: Browser;
    let shots: string;
    let resources: string[] = [];

    const newPage = async (): Promise<Page> => {
      const context = await browser.newContext({ viewport: { width: 1180, height: 700 } });
      const page = await context.newPage();
      // A step that cannot happen fails with its own error, well within the test's time.
      page.setDefaultTimeout(8000);
      return page;
    };

    /** From the sign-in page through the provider's login back to the console. */
    const signInThroughProvider = async (page: Page): Promise<void> => {
      await page.goto(`${origin}/console`);
      await page.getByRole('link', { name: 'Sign in with the identity provider' }).click();
      await page.waitForURL(`${origin}/console/servers`);
    };

    beforeAll(async () => {
      shots = await screenshotsFolder();
      issuer = await startTestIssuer({ resources: () => resources });
      const port = await freePort();
      origin = `http://localhost:${port}`;
      resources = [`${origin}/mcp`];
      const clientId = await registerConsole(issuer.issuer, `${origin}/console/callback`, `${origin}/console/login`);
      await startHttpGateway({ config: consoleToml(issuer.issuer, clientId, `${origin}/mcp`), args: ['--port', String(port)] });
      browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    });

    afterAll(async () => {
      await browser?.close();
      await cleanup();
      await issuer?.close();
      await removeScreenshots(shots);
    });

    it('signs a person in as a viewer, and one a rule in [console] admins applies to as an admin', async () => {
      const viewer = await newPage();
      await viewer.goto(`${origin}/console/login`);
      expect(await seriousViolations(viewer, axe.source)).toEqual([]);
      await viewer.screenshot({ path: join(shots, 'console-login-provider.png') });
      await signInThroughProvider(viewer);
      expect(await viewer.getByText('Signed in as ann (viewer)').count()).toBe(1);
      expect(await viewer.getByRole('button', { name: /^Restart/ }).count()).toBe(0);

      issuer.loginAs('ops-ann');
      const admin = await newPage();
      await signInThroughProvider(admin);
      expect(await admin.getByText('Signed in as ops-ann (admin)').count()).toBe(1);
      expect(await admin.getByRole('button', { name: 'Restart beta' }).count()).toBe(1);
      issuer.loginAs('ann');
    });

    it('signs out at the provider too, and comes back to the sign-in page', async () => {
      const page = await newPage();
      await signInThroughProvider(page);
      const providerSession = async (): Promise<boolean> =>
        (await page.context().cookies(issuer.issuer)).some((cookie) => cookie.name === '_session');
      expect(await providerSession()).toBe(true);
      await page.getByRole('button', { name: 'Sign out' }).click();
      // The provider's own page asks the person to confirm (oidc-provider always does), then sends the browser back.
      await page.waitForURL((url) => url.href.startsWith(`${issuer.issuer}/session/end`));
      const ending = new URL(page.url()).searchParams;
      expect(ending.get('post_logout_redirect_uri')).toBe(`${origin}/console/login`);
      expect(ending.get('id_token_hint')?.split('.')).toHaveLength(3);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL(`${origin}/console/login`);
      expect(await providerSession()).toBe(false);
      expect(await page.getByRole('link', { name: 'Sign in with the identity provider' }).count()).toBe(1);
      await page.goto(`${origin}/console/servers`);
      expect(page.url()).toBe(`${origin}/console/login`);
    });

    it('shows why on the sign-in page when the callback did not start in this browser', async () => {
      const page = await newPage();
      const answer = await page.goto(`${origin}/console/callback?code=stolen&state=guessed`);
      expect(answer?.status()).toBe(401);
      expect(await page.getByRole('alert').textContent()).toMatch(/the state does not match/);
      expect(await page.getByRole('link', { name: 'Sign in with the identity provider' }).count()).toBe(1);
    });

    it("lists both servers' tools on the Catalog page, narrows them by search, and passes axe-core", async () => {
      const page = await newPage();
      await signInThroughProvider(page);
      await openFromNavigation(page, origin, 'Catalog');
      const tools = page.locator('li[data-kind="tool"]');
      const names = await namesOf(tools);
      expect(names.some((name) => name.includes('alpha') && name.endsWith('whoami'))).toBe(true);
      expect(names.some((name) => name.includes('beta') && name.endsWith('whoami'))).toBe(true);
      expect(await seriousViolations(page, axe.source)).toEqual([]);

      await page.getByLabel('Search').fill('whoami');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/\/console\/catalog\?.*q=whoami/);
      const found = await namesOf(tools);
      expect(found.length).toBeLessThan(names.length);
      expect(found.filter((name) => name.endsWith('whoami'))).toHaveLength(2);
      // A definition opens with its input schema, the overrides applied and its pin.
      const echo = page.locator('li[data-name="alpha_echo"]');
      await page.getByLabel('Search').fill('echo');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/q=echo/);
      await echo.locator('summary').click();
      expect(await echo.getAttribute('data-pin')).toBe('pinned');
      expect(await echo.textContent()).toContain('Says the text back, as the console shows.');
      expect(await echo.locator('dt:has-text("Overrides applied") + dd').textContent()).toBe('description');
      expect(await echo.getByText('Input schema').isVisible()).toBe(true);
      expect(await seriousViolations(page, axe.source)).toEqual([]);
      await page.screenshot({ path: join(shots, 'console-catalog.png') });

      // Each profile has its own catalog.
      await page.getByLabel('Profile').selectOption('review');
      await page.getByLabel('Search').fill('');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/profile=review/);
      expect(await namesOf(tools)).toEqual(['alpha_echo']);
    });
  },
);
