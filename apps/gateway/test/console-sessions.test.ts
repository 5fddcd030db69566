/**
 * The console's Sessions page in a real browser (Debian's Chromium, playwright-core) against the
 * built gateway: an MCP client that opens a 2025-11-25 session appears on the open page, live (the
 * event stream, no reload), with its name, version, revision and identity, and leaves it when it ends
 * its session; a 2026-07-28 client, which holds no session, appears once it has made a request;
 * axe-core finds no serious violation. The screenshot goes to $PROMPTYARD_CONSOLE_SHOTS, as
 * console.test.ts's do.
 */
import axe from 'axe-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBrowser, openFromNavigation, seriousViolations, signIn, skipWithoutBrowser } from './console-browser.js';
import { cleanup, gatewayToml, startHttpGateway, stdioBackendCommand } from './harness.js';
import type { HttpGateway } from './harness.js';

const token = 'console-sessions-token';

const sessionsToml = (): string =>
  gatewayToml(
    { alpha: { command: stdioBackendCommand({ name: 'alpha' }) } },
    {},
    [`[transport]\nauth_token = "${token}"`, `[console]\nenabled = true`].join('\n\n'),
  );

describe.skipIf(skipWithoutBrowser('the console: Sessions in a browser'))('the console: Sessions in a browser', () => {
  let gateway: HttpGateway;
  const clients: Client[] = [];
  const { start, newPage, cspViolations, shot, close: closeBrowser } = consoleBrowser(560);

  const connect = async (name: string, era: 'legacy' | 'modern'): Promise<StreamableHTTPClientTransport> => {
    const client = new Client({ name, version: '4.2.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {});
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(gateway.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    await client.listTools();
    return transport;
  };

  beforeAll(async () => {
    gateway = await startHttpGateway({ config: sessionsToml() });
    await start();
  });

  afterAll(async () => {
    await closeBrowser();
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await cleanup();
  });

  it('shows an MCP client live with its name, version, revision and identity, and takes its session off when it ends', async () => {
    const page = await newPage();
    await signIn(page, gateway.origin, token);
    await openFromNavigation(page, gateway.origin, 'Sessions');
    expect(await page.getByText('No MCP client is connected.').count()).toBe(1);

    // No reload from here: each row arrives over the page's event stream.
    const legacy = await connect('sessions-e2e', 'legacy');
    const session = page.locator('tr[data-client="sessions-e2e"][data-transport="session"]');
    await session.waitFor({ timeout: 5000 });
    const cells = await session.locator('th, td').allTextContents();
    expect(cells.slice(0, 6)).toEqual(['sessions-e2e', '4.2.0', '2025-11-25', 'server-token', 'session', '/mcp']);
    expect(cells[9]).toBe(`${legacy.sessionId?.slice(0, 8)}…`);
    expect(await page.content()).not.toContain(legacy.sessionId);

    await connect('stateless-e2e', 'modern');
    const sessionless = page.locator('tr[data-client="stateless-e2e"][data-transport="sessionless"]');
    await sessionless.waitFor({ timeout: 5000 });
    expect((await sessionless.locator('th, td').allTextContents()).slice(0, 5)).toEqual([
      'stateless-e2e',
      '4.2.0',
      '2026-07-28',
      'server-token',
      'per request',
    ]);
    expect(await seriousViolations(page, axe.source)).toEqual([]);
    await page.screenshot({ path: shot('console-sessions.png') });

    await legacy.terminateSession();
    await session.waitFor({ state: 'detached', timeout: 5000 });
    expect(cspViolations).toEqual([]);
  });
});
