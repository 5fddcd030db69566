/**
 * The operator console in a real browser: Debian's Chromium, driven by playwright-core, against the
 * built gateway with two stdio servers, the static token and `[auth]` against a real OpenID provider.
 * Sign-in, the Servers page and its live updates (states, and the latency and error rate of the calls
 * an MCP client makes), the admin/viewer split, the CSRF refusal, the
 * Content-Security-Policy holding, and axe-core's accessibility rules on each page. Screenshots go to
 * $PROMPTYARD_CONSOLE_SHOTS (`pnpm console:screenshots` copies them into the docs), else a temporary folder.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { consoleBrowser, postFromPage, seriousViolations, signIn, skipWithoutBrowser } from './console-browser.js';
import { cleanup, connectHttp, gatewayToml, health, startHttpGateway, stdioBackendCommand } from './harness.js';
import type { HttpGateway } from './harness.js';

const token = 'console-test-token';

const consoleToml = (issuer: string): string =>
  gatewayToml(
    { alpha: { command: stdioBackendCommand({ name: 'alpha' }) }, beta: { command: stdioBackendCommand({ name: 'beta' }) } },
    {},
    [
      `[transport]\nauth_token = "${token}"`,
      `[auth]\nissuer = ${JSON.stringify(issuer)}`,
      // Admins are the callers of the rule named "operators"; the provider's machine client is not one: a viewer.
      `[[policy]]\nname = "operators"\nsubjects = ["ops-*"]\nservers = ["*"]`,
      // The static token's caller may call the servers (the calls the Servers page counts).
      `[[policy]]\nname = "token"\nsubjects = ["server-token"]\nservers = ["*"]`,
      `[console]\nenabled = true\nadmins = ["operators"]`,
    ].join('\n\n'),
  );

const rowState = (page: Page, server: string): Promise<string | null> =>
  page.locator(`tr[data-server="${server}"]`).getAttribute('data-state');

describe.skipIf(skipWithoutBrowser('the operator console in a browser'))('the operator console in a browser', () => {
  let issuer: TestIssuer;
  let gateway: HttpGateway;
  let axeSource: string;
  let resources: string[] = [];
  const { start, newPage, cspViolations, shot, close: closeBrowser } = consoleBrowser(560);

  beforeAll(async () => {
    axeSource = axe.source;
    issuer = await startTestIssuer({ resources: () => resources });
    gateway = await startHttpGateway({ config: consoleToml(issuer.issuer) });
    resources = [gateway.url];
    await start();
  });

  afterAll(async () => {
    await closeBrowser();
    await cleanup();
    await issuer?.close();
  });

  it('signs in with the static token and shows both servers, accessible and within the CSP', async () => {
    const page = await newPage();
    await page.goto(`${gateway.origin}/console/login`);
    expect(await seriousViolations(page, axeSource)).toEqual([]);
    await page.screenshot({ path: shot('console-login.png') });
    await signIn(page, gateway.origin, token);
    await expect.poll(() => rowState(page, 'alpha')).toBe('ready');
    await expect.poll(() => rowState(page, 'beta')).toBe('ready');
    expect(await page.getByText('Signed in as server-token (admin)').count()).toBe(1);
    expect(await seriousViolations(page, axeSource)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('shows a killed server restarting within 2 s over the event stream, and restarts one for an admin', async () => {
    const page = await newPage();
    await signIn(page, gateway.origin, token);
    await page.locator('tr[data-server="alpha"][data-state="ready"]').waitFor();
    const { servers } = await health(gateway, { authorization: `Bearer ${token}` });
    const pid = servers.find((server) => server.id === 'alpha')?.pid;
    expect(pid).toBeGreaterThan(0);
    const killedAt = Date.now();
    process.kill(pid as number, 'SIGKILL');
    // No reload: the row changes when the gateway's event reaches the page.
    await page.locator('tr[data-server="alpha"]:not([data-state="ready"])').waitFor({ timeout: 2000 });
    expect(Date.now() - killedAt).toBeLessThan(2000);
    await page.locator('tr[data-server="alpha"][data-state="ready"]').waitFor({ timeout: 10_000 });

    const before = await page.locator('tr[data-server="beta"]').getAttribute('data-pid');
    await page.getByRole('button', { name: 'Restart beta' }).click();
    await page.locator(`tr[data-server="beta"][data-state="ready"]:not([data-pid="${before}"])`).waitFor({ timeout: 10_000 });
  });

  it('refuses a POST without the CSRF token', async () => {
    const page = await newPage();
    await signIn(page, gateway.origin, token);
    expect(await postFromPage(page, '/console/servers/beta/restart', false)).toBe(403);
    expect(await postFromPage(page, '/console/logout', false)).toBe(403);
    // Without a session at all, nothing is done either.
    const anonymous = await fetch(`${gateway.origin}/console/servers/beta/restart`, { method: 'POST', redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });

  it('lets a viewer (an access token from the identity provider) read but not restart', async () => {
    const page = await newPage();
    await signIn(page, gateway.origin, await issuer.token({ resource: gateway.url }));
    expect(await page.getByText('(viewer)').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Restart/ }).count()).toBe(0);
    await expect.poll(() => rowState(page, 'beta')).toBe('ready');
    expect(await postFromPage(page, '/console/servers/beta/restart', true)).toBe(403);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${gateway.origin}/console/login`);
    await page.goto(`${gateway.origin}/console/servers`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
  });

  it("shows a server's calls, their p50/p95 latency and its error rate once an MCP client has called it", async () => {
    const page = await newPage();
    await signIn(page, gateway.origin, token);
    await page.locator('tr[data-server="alpha"][data-state="ready"]').waitFor({ timeout: 10_000 });
    await page.locator('tr[data-server="beta"][data-state="ready"]').waitFor({ timeout: 10_000 });
    const client = await connectHttp(gateway.url, { token });
    try {
      for (const text of ['one', 'two', 'three']) await client.callTool({ name: 'alpha_echo', arguments: { text } });
      // The server answers a JSON-RPC error: a failed call.
      await expect(client.readResource({ uri: 'alpha+test://alpha/no-such-resource' })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
    // No reload: the table is sent again over the event stream.
    const alpha = page.locator('tr[data-server="alpha"][data-calls="4"][data-failed="1"]');
    await alpha.waitFor({ timeout: 10_000 });
    const cells = alpha.locator('td');
    // State, transport, protocol, list changes, restarts, in flight, then the calls' three columns.
    expect(await cells.nth(6).innerText()).toBe('4');
    expect(await cells.nth(7).innerText()).toMatch(/^(< )?\d+(\.\d)?( ms| s)? \/ (< )?\d+(\.\d)? (ms|s)$/);
    expect(await cells.nth(8).innerText()).toMatch(/^25 %\s+1 failed$/);
    expect(await page.locator('tr[data-server="beta"] td').nth(7).innerText()).toBe('—');
    expect(await page.locator('caption').innerText()).toContain('over the last 5 minutes');
    expect(await seriousViolations(page, axeSource)).toEqual([]);
    // The table's thirteen columns fit a common desktop width, where the docs show them.
    await page.setViewportSize({ width: 1440, height: 560 });
    await page.screenshot({ path: shot('console-servers.png') });
  });
});
