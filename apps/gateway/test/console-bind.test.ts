/**
 * `[console] bind`: the console on an address of its own, against the built gateway — beside a stdio
 * gateway (which has no HTTP endpoint at all), and beside an HTTP one whose endpoint then has no
 * /console; a Host that is not a loopback name refused; an address in use a clear start-up error.
 */
import { get } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { consolePage, signInOverHttp } from './console-http.js';
import { cleanup, gatewayToml, makeFolder, runCli, startHttpGateway, startStdioGateway, stdioBackendCommand } from './harness.js';

const token = 'console-bind-token';

const configWith = (bind: string): string =>
  gatewayToml(
    { alpha: { command: stdioBackendCommand({ name: 'alpha' }) }, beta: { command: stdioBackendCommand({ name: 'beta' }) } },
    {},
    `[transport]\nauth_token = "${token}"\n\n[console]\nenabled = true\nbind = "${bind}"`,
  );

const consoleAt = async (stderr: { waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> }): Promise<string> =>
  (await stderr.waitFor(/console at (http:\/\/\S+)\/console/, 20_000))[1] as string;

describe('[console] bind', () => {
  const servers: Server[] = [];

  afterEach(async () => {
    await cleanup();
  });

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('serves the console beside a stdio gateway, which keeps serving its client', async () => {
    const gateway = await startStdioGateway({ config: configWith('127.0.0.1:0') });
    const origin = await consoleAt(gateway.stderr);
    expect(new URL(origin).port).not.toBe('0');
    const session = await signInOverHttp(origin, token);
    await expect
      .poll(async () => (await (await consolePage(origin, session, '/console/servers')).text()).match(/data-state="ready"/g)?.length ?? 0, {
        timeout: 10_000,
      })
      .toBe(2);
    const page = await (await consolePage(origin, session, '/console/servers')).text();
    expect(page).toContain('data-server="alpha"');
    expect(page).toContain('data-server="beta"');
    expect((await gateway.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(await (await consolePage(origin, session, '/console/sessions')).text()).toContain('This gateway serves MCP over stdio');

    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    expect(root.status).toBe(303);
    expect(root.headers.get('location')).toBe('/console/');
    expect((await fetch(`${origin}/mcp`)).status).toBe(404);
  });

  it('refuses a Host that is not a loopback name on a loopback bind', async () => {
    const gateway = await startStdioGateway({ config: configWith('127.0.0.1:0') });
    const origin = await consoleAt(gateway.stderr);
    const session = await signInOverHttp(origin, token);
    // fetch sets Host itself: node:http sends the one a rebinding page's browser would.
    const withHost = (host: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = get(`${origin}/console/servers`, { headers: { host, cookie: `promptyard_console=${session}` } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        request.on('error', reject);
      });
    const rebound = await withHost('evil.example');
    expect(rebound.status).toBe(403);
    expect(rebound.text).toMatch(/Invalid Host/);
    expect((await withHost(`localhost:${new URL(origin).port}`)).status).toBe(200);
  });

  it('takes the console off the HTTP endpoint when it has its own address', async () => {
    const gateway = await startHttpGateway({ config: configWith('127.0.0.1:0') });
    const origin = await consoleAt(gateway.stderr);
    expect(origin).not.toBe(gateway.origin);
    expect((await fetch(`${gateway.origin}/console/login`)).status).toBe(404);
    expect((await fetch(`${origin}/console/login`)).status).toBe(200);
  });

  it('stops at start-up with what to do when the address is in use', async () => {
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const folder = await makeFolder({ 'gateway.toml': configWith(`127.0.0.1:${port}`) });
    const run = await runCli(['--config', `${folder}/gateway.toml`, '--transport', 'http', '--port', '0']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`[console] bind 127.0.0.1:${port}: the address is in use: pick another port`);
  });
});
