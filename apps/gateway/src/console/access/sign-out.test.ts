import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsole } from '../console.js';
import type { OidcSignIn } from './oidc-sign-in.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

/** The console with a provider sign-in that signs `ann` in at once with the ID token "id-of-ann"; `signOut` answers as given. */
const startConsole = async (signOut: OidcSignIn['signOut']): Promise<{ origin: string; hints: string[] }> => {
  const hints: string[] = [];
  const oidc: OidcSignIn = {
    start: async () => ({ ok: true, location: 'https://id.example/authorize', state: 'flow' }),
    finish: async () => ({ ok: true, subject: 'ann', role: 'viewer', idToken: 'id-of-ann' }),
    signOut: async (idToken) => {
      hints.push(idToken);
      return signOut(idToken);
    },
  };
  const mount = createConsole({
    model: { servers: () => [], restart: async () => {}, subscribe: () => () => {} },
    signIn: async (token) =>
      token === 'admin-token' ? { ok: true, subject: 'server-token', role: 'admin' } : { ok: false, message: 'no' },
    oidc,
    sessionMs: 60_000,
    secure: false,
    logger: createLogger({ level: 'error', write: () => {} }),
  });
  server = createServer((req, res) => void mount.handle(req, res));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, hints };
};

/** Through the provider's callback: the session cookie and the page's CSRF token. */
const signInThroughProvider = async (origin: string): Promise<{ cookie: string; csrf: string }> => {
  const callback = await fetch(`${origin}/console/callback?code=c&state=flow`, { headers: { cookie: 'promptyard_console_flow=flow' } });
  expect(callback.status).toBe(200);
  const cookie = (callback.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const page = await (await fetch(`${origin}/console/servers`, { headers: { cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)?.[1] as string };
};

const signOut = (origin: string, { cookie, csrf }: { cookie: string; csrf: string }): Promise<Response> =>
  fetch(`${origin}/console/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ _csrf: csrf }).toString(),
    redirect: 'manual',
  });

describe('signing out of the console', () => {
  it('goes on to the provider with the ID token when it has an end_session_endpoint, the console session ended', async () => {
    const location = 'https://id.example/session/end?id_token_hint=id-of-ann&post_logout_redirect_uri=x';
    const { origin, hints } = await startConsole(async () => ({ location }));
    const session = await signInThroughProvider(origin);
    const out = await signOut(origin, session);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^promptyard_console=; .*Max-Age=0/);
    const page = await out.text();
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${location.replace(/&/g, '&amp;')}">`);
    expect(page).toContain('Continue to the identity provider');
    expect(hints).toEqual(['id-of-ann']);
    expect((await fetch(`${origin}/console/servers`, { headers: { cookie: session.cookie }, redirect: 'manual' })).status).toBe(303);
  });

  it('ends only the console session, and says so on the sign-in page, when the provider offers no sign-out', async () => {
    const { origin } = await startConsole(async () => ({
      why: 'the identity provider https://id.example publishes no end_session_endpoint',
    }));
    const out = await signOut(origin, await signInThroughProvider(origin));
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/console/login?signed_out=console');
    const page = await (await fetch(`${origin}${out.headers.get('location') ?? ''}`)).text();
    expect(page).toContain('You are signed out of the console, but not at the identity provider');
  });

  it('does not involve the provider for a token sign-in', async () => {
    const { origin, hints } = await startConsole(async () => ({ location: 'https://id.example/session/end' }));
    const page = await fetch(`${origin}/console/login`);
    const loginCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const loginCsrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
    const signedIn = await fetch(`${origin}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
      body: new URLSearchParams({ _csrf: loginCsrf, token: 'admin-token' }).toString(),
      redirect: 'manual',
    });
    const cookie = (signedIn.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    const servers = await (await fetch(`${origin}/console/servers`, { headers: { cookie } })).text();
    const out = await signOut(origin, { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(servers)?.[1] as string });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/console/login');
    expect(hints).toEqual([]);
  });
});
