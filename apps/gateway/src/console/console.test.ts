import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createLogger } from '@promptyard/core';
import type { BackendStatus } from '@promptyard/router';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsole } from './console.js';
import { contentSecurityPolicy } from './access/security.js';
import type { Role } from './access/sessions.js';

const backend: BackendStatus = {
  id: 'alpha',
  state: 'ready',
  transport: 'stdio',
  protocolVersion: '2025-11-25',
  listChanges: 'notifications',
  restarts: 0,
  inFlight: 0,
  counts: { tools: 1, prompts: 0, resources: 0, resourceTemplates: 0 },
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

/** The console on a loopback port, the token "admin-token" an admin and "viewer-token" a viewer; `restarted` lists the restarts asked for. */
const startConsole = async (): Promise<{ origin: string; restarted: string[] }> => {
  const restarted: string[] = [];
  const mount = createConsole({
    model: { servers: () => [backend], restart: async (id) => void restarted.push(id), subscribe: () => () => {} },
    signIn: async (token) => {
      const roles: Record<string, Role> = { 'admin-token': 'admin', 'viewer-token': 'viewer' };
      const role = roles[token];
      return role === undefined ? { ok: false, message: 'no' } : { ok: true, subject: token, role };
    },
    sessionMs: 60_000,
    secure: false,
    logger: createLogger({ level: 'error', write: () => {} }),
  });
  server = createServer((req, res) => void mount.handle(req, res));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, restarted };
};

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual',
});

/** Signs in through the form: the session cookie and the page's CSRF token. */
const signIn = async (origin: string, token: string): Promise<{ cookie: string; csrf: string }> => {
  const page = await fetch(`${origin}/console/login`);
  const loginCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const loginCsrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
  const signedIn = await fetch(`${origin}/console/login`, {
    ...form({ _csrf: loginCsrf, token }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
  });
  expect(signedIn.status).toBe(303);
  const cookie = (signedIn.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const servers = await (await fetch(`${origin}/console/servers`, { headers: { cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(servers)?.[1] as string };
};

const post = (origin: string, path: string, cookie: string, fields: Record<string, string> = {}): Promise<Response> =>
  fetch(`${origin}${path}`, { ...form(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie } });

describe('the console', () => {
  it('sends a browser without a session to the sign-in page, under the strict CSP', async () => {
    const { origin } = await startConsole();
    const page = await fetch(`${origin}/console/servers`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/login');
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    expect((await fetch(`${origin}/console/events`)).status).toBe(401);
  });

  it("refuses a sign-in without the form's own CSRF token, and a wrong token", async () => {
    const { origin } = await startConsole();
    expect((await fetch(`${origin}/console/login`, form({ token: 'admin-token' }))).status).toBe(403);
    const page = await fetch(`${origin}/console/login`);
    const loginCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const wrong = await fetch(`${origin}/console/login`, {
      ...form({ _csrf: csrf, token: 'guess' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('role="alert"');
  });

  it('lets an admin restart a server with the CSRF token, and refuses without it', async () => {
    const { origin, restarted } = await startConsole();
    const { cookie, csrf } = await signIn(origin, 'admin-token');
    expect((await post(origin, '/console/servers/alpha/restart', cookie)).status).toBe(403);
    expect((await post(origin, '/console/servers/alpha/restart', cookie, { _csrf: 'forged' })).status).toBe(403);
    expect(restarted).toEqual([]);
    expect((await post(origin, '/console/servers/alpha/restart', cookie, { _csrf: csrf })).status).toBe(303);
    expect((await post(origin, '/console/servers/nope/restart', cookie, { _csrf: csrf })).status).toBe(404);
    expect(restarted).toEqual(['alpha']);
  });

  it("refuses a viewer's restart with 403 and shows no restart button", async () => {
    const { origin, restarted } = await startConsole();
    const { cookie, csrf } = await signIn(origin, 'viewer-token');
    const page = await (await fetch(`${origin}/console/servers`, { headers: { cookie } })).text();
    expect(page).toContain('<tr data-server="alpha" data-state="ready"');
    expect(page).not.toContain('Restart alpha');
    expect((await post(origin, '/console/servers/alpha/restart', cookie, { _csrf: csrf })).status).toBe(403);
    expect(restarted).toEqual([]);
  });

  it('signs out with the CSRF token, after which the cookie opens nothing', async () => {
    const { origin } = await startConsole();
    const { cookie, csrf } = await signIn(origin, 'admin-token');
    const out = await post(origin, '/console/logout', cookie, { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await fetch(`${origin}/console/servers`, { headers: { cookie }, redirect: 'manual' })).status).toBe(303);
  });

  it('streams the servers table as an SSE event, and serves its own files', async () => {
    const { origin } = await startConsole();
    const { cookie } = await signIn(origin, 'admin-token');
    const controller = new AbortController();
    const events = await fetch(`${origin}/console/events`, { headers: { cookie }, signal: controller.signal });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    controller.abort();
    expect(new TextDecoder().decode(value)).toMatch(/^event: servers\ndata: /);
    const htmx = await fetch(`${origin}/console/assets/htmx.min.js`);
    expect(htmx.headers.get('content-type')).toContain('javascript');
    expect(await htmx.text()).toContain('htmx');
    expect((await fetch(`${origin}/console/assets/nope.js`)).status).toBe(404);
  });

  it('ships its files in at most 150 KB compressed', async () => {
    const { origin } = await startConsole();
    let compressed = 0;
    for (const name of ['htmx.min.js', 'sse.min.js', 'console.css', 'icon.svg']) {
      const response = await fetch(`${origin}/console/assets/${name}`);
      expect(response.status).toBe(200);
      compressed += gzipSync(Buffer.from(await response.arrayBuffer())).length;
    }
    expect(compressed).toBeLessThan(150 * 1024);
  });
});
