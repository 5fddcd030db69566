/**
 * The operator console at `/console` (on the gateway's HTTP endpoint, or on `[console] bind`): sign-in
 * and sign-out, the Servers, Catalog, Changes, Activity and Sessions pages, their event stream, the
 * restart, approve and reject actions and the console's own files. Every answer carries the strict
 * security headers; every POST needs the session's CSRF token (sign-in: the pre-session token of its
 * form); acting needs the admin role.
 *
 * Its rooms: `access/` who signs in and how (the token form, the identity provider, browser sessions,
 * roles, cookies and security headers); `pages/` each page's HTML, all of it built with the `html`
 * template of `pages/template.ts`, which escapes what it did not write; `sources/` what the pages read
 * and act on (the catalog, the pending definitions, the activity, the other replicas). Here: the requests'
 * routing (this file), the event stream (`events.ts`, `live-streams.ts`), the files (`assets.ts`) and
 * where it is mounted (`mount.ts`, `serve-apart.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@promptyard/core';
import type { HttpMount } from '@promptyard/mcp';
import type { UiModel } from '../ui/model.js';
import { activityFilterOf, renderActivityPage } from './pages/activity-page.js';
import { serveAsset } from './assets.js';
import { changeAction } from './change-action.js';
import { renderChangesPage } from './pages/changes-page.js';
import { serveEvents } from './events.js';
import { renderCatalogPage } from './pages/catalog-page.js';
import type { CatalogSource } from './sources/catalog-source.js';
import { consolePath, renderMessage, renderSignIn, renderSignedIn, renderSigningOut } from './pages/html.js';
import type { Html } from './pages/template.js';
import { liveActivity, liveServers, liveSessions, liveStream } from './live-streams.js';
import type { LiveSources } from './live-streams.js';
import type { OidcSignIn } from './access/oidc-sign-in.js';
import { cookie, cookiesOf, flowCookieName, loginCookieName, sameSecret, securityHeaders, sessionCookieName } from './access/security.js';
import { renderServersPage } from './pages/servers-page.js';
import { renderSessionsPage } from './pages/sessions-page.js';
import { createSessionStore, randomToken } from './access/sessions.js';
import type { ConsoleSession, SessionStore } from './access/sessions.js';
import type { SignInOutcome } from './access/sign-in.js';

/** What the console reads and does; the pages' live sources (changes, activity, replicas, approvals, clients) as the event stream reads them. */
export interface ConsoleOptions extends LiveSources {
  /** The terminal UI's model over the running router. */
  readonly model: Pick<UiModel, 'servers' | 'restart' | 'subscribe'>;
  readonly signIn: (token: string) => Promise<SignInOutcome>;
  /** Browser sign-in through the identity provider (`[console] client_id`); absent: none. */
  readonly oidc?: OidcSignIn | undefined;
  /** Whether the sign-in page offers the token form (the static token, or `[auth]` without a console client); default true. */
  readonly tokenForm?: boolean;
  /** Each surface's tools, prompts and resources (the Catalog page); absent: no such page. */
  readonly catalog?: CatalogSource | undefined;
  readonly sessionMs: number;
  /** Served over https: cookies are `Secure`. */
  readonly secure: boolean;
  readonly logger: Logger;
}

interface Context extends ConsoleOptions {
  readonly sessions: SessionStore;
}

const maxFormBytes = 16 * 1024;

const sendHtml = (res: ServerResponse, status: number, html: Html, headers: Record<string, string | string[]> = {}): void => {
  res.writeHead(status, { ...securityHeaders(), 'content-type': 'text/html; charset=utf-8', ...headers }).end(String(html));
};

const redirect = (res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void => {
  res.writeHead(303, { ...securityHeaders(), location, ...headers }).end();
};

const refuse = (res: ServerResponse, status: number, message: string): void => {
  res.writeHead(status, { ...securityHeaders(), 'content-type': 'text/plain; charset=utf-8' }).end(message);
};

/** A urlencoded form body (at most 16 KB); `undefined` when it is larger or of another type. */
const readForm = async (req: IncomingMessage): Promise<URLSearchParams | undefined> => {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFormBytes) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

const sessionOf = (context: Context, req: IncomingMessage): ConsoleSession | undefined =>
  context.sessions.get(cookiesOf(req).get(sessionCookieName));

const cookieOptions = (context: Context, maxAgeSeconds: number): Parameters<typeof cookie>[2] => ({
  path: consolePath,
  secure: context.secure,
  maxAgeSeconds,
});

/** A browser tells where a request comes from: another site's is refused whatever it carries. */
const crossSite = (req: IncomingMessage): boolean => {
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
};

const showSignIn = (context: Context, res: ServerResponse, status = 200, error?: string, note?: string): void => {
  const token = randomToken();
  const ways = { tokenForm: context.tokenForm !== false, provider: context.oidc !== undefined, note };
  sendHtml(res, status, renderSignIn(token, error, ways), { 'set-cookie': cookie(loginCookieName, token, cookieOptions(context, 600)) });
};

/** What the sign-in page says after a sign-out that could not reach the provider's (`?signed_out=console`). */
const consoleOnlySignOut =
  'You are signed out of the console, but not at the identity provider: it offers no way to sign out there (no end_session_endpoint in its metadata), or could not be reached. On a shared computer, sign out at the provider as well.';

const signIn = async (context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const form = await readForm(req);
  if (form === undefined || !sameSecret(form.get('_csrf') ?? undefined, cookiesOf(req).get(loginCookieName))) {
    showSignIn(context, res, 403, 'The sign-in form expired or came from elsewhere: sign in again.');
    return;
  }
  const outcome =
    context.tokenForm !== false
      ? await context.signIn(form.get('token') ?? '')
      : { ok: false as const, message: 'Sign in through the identity provider.' };
  openSession(context, res, outcome, (session) => redirect(res, `${consolePath}/servers`, sessionCookies(context, session)));
};

const sessionCookies = (context: Context, session: ConsoleSession): Record<string, string[]> => ({
  'set-cookie': [
    cookie(sessionCookieName, session.id, cookieOptions(context, Math.max(1, Math.floor((session.expiresAt - Date.now()) / 1000)))),
    cookie(loginCookieName, '', cookieOptions(context, 0)),
    cookie(flowCookieName, '', { ...cookieOptions(context, 0), sameSite: 'Lax' }),
  ],
});

/** A session for a sign-in that succeeded, else the sign-in page with why. */
const openSession = (context: Context, res: ServerResponse, outcome: SignInOutcome, answer: (session: ConsoleSession) => void): void => {
  if (!outcome.ok) {
    context.logger.warn('console sign-in refused', { reason: outcome.message });
    showSignIn(context, res, 401, outcome.message);
    return;
  }
  const session = context.sessions.open(outcome.subject, outcome.role, outcome.expiresAt, outcome.idToken);
  context.logger.notice('console sign-in', { subject: outcome.subject, role: outcome.role });
  answer(session);
};

/** `/console/login/provider`: off to the identity provider, the flow's `state` in a cookie that comes back with its redirect. */
const startProviderSignIn = async (context: Context, oidc: OidcSignIn, res: ServerResponse): Promise<void> => {
  const started = await oidc.start();
  if (!started.ok) {
    context.logger.warn('console sign-in refused', { reason: started.message });
    showSignIn(context, res, 503, started.message);
    return;
  }
  redirect(res, started.location, {
    'set-cookie': cookie(flowCookieName, started.state, { ...cookieOptions(context, 600), sameSite: 'Lax' }),
  });
};

/**
 * `/console/callback`: the code exchanged and the tokens checked. The answer is a page that moves on
 * by itself rather than a redirect: a browser that counts the whole redirect chain from the provider
 * as cross-site would not send the SameSite=Strict session cookie with it, but does with a
 * navigation this page starts.
 */
const finishProviderSignIn = async (
  context: Context,
  oidc: OidcSignIn,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> => {
  const outcome = await oidc.finish(url.searchParams, cookiesOf(req).get(flowCookieName));
  openSession(context, res, outcome, (session) => sendHtml(res, 200, renderSignedIn(), sessionCookies(context, session)));
};

/** The session of a state-changing request that carries its CSRF token; `undefined` once the refusal is written. */
const checkedPost = async (
  context: Context,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ session: ConsoleSession; form: URLSearchParams } | undefined> => {
  const session = sessionOf(context, req);
  if (session === undefined) {
    refuse(res, 401, 'Not signed in: open /console/login and sign in.');
    return undefined;
  }
  const form = (await readForm(req)) ?? new URLSearchParams();
  const token = (req.headers['x-csrf-token'] as string | undefined) ?? form.get('_csrf') ?? undefined;
  if (crossSite(req) || !sameSecret(token, session.csrf)) {
    refuse(res, 403, "Refused: the request does not carry this session's CSRF token; reload the page and try again.");
    return undefined;
  }
  return { session, form };
};

/** Ends the console session; one that signed in through the identity provider is sent on to sign out there too, when it can. */
const signOut = async (context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const checked = await checkedPost(context, req, res);
  if (checked === undefined) return;
  const { session } = checked;
  context.sessions.close(session.id);
  const cleared = { 'set-cookie': cookie(sessionCookieName, '', cookieOptions(context, 0)) };
  if (session.idToken === undefined || context.oidc === undefined) return redirect(res, `${consolePath}/login`, cleared);
  const provider = await context.oidc.signOut(session.idToken);
  if ('location' in provider) return sendHtml(res, 200, renderSigningOut(provider.location), cleared);
  context.logger.warn('console sign-out: the session at the identity provider stays', { subject: session.subject, reason: provider.why });
  redirect(res, `${consolePath}/login?signed_out=console`, cleared);
};

const restart = async (context: Context, id: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const checked = await checkedPost(context, req, res);
  if (checked === undefined) return;
  const { session } = checked;
  if (session.role !== 'admin') {
    refuse(res, 403, 'Refused: restarting a server needs an admin ([console] admins names the [[policy]] rules of admins).');
    return;
  }
  if (!context.model.servers().some((server) => server.id === id)) {
    refuse(res, 404, `No server "${id}" in the gateway config.`);
    return;
  }
  context.logger.notice('console: restart', { server: id, subject: session.subject });
  await context.model.restart(id);
  if (req.headers['hx-request'] === 'true') res.writeHead(204, securityHeaders()).end();
  else redirect(res, `${consolePath}/servers`);
};

const serversPage = (context: Context, session: ConsoleSession): Html =>
  renderServersPage(context.model.servers(), session, liveServers(context, session));

const activityPage = (context: Context, session: ConsoleSession, query: URLSearchParams): Html =>
  renderActivityPage(liveActivity(context), session, activityFilterOf(query), context.cluster !== undefined, context.approvals);

const sessionsPage = (context: Context, session: ConsoleSession): Html => {
  const { clients } = context;
  return renderSessionsPage(clients, session, clients === undefined ? undefined : liveSessions({ ...context, clients }));
};

/** GET requests: the files, sign-in, and (signed in) the pages and their event stream. */
const get = async (context: Context, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const path = url.pathname.slice(consolePath.length);
  const query = url.searchParams;
  if (path.startsWith('/assets/')) {
    if (!serveAsset(path.slice('/assets/'.length), req, res)) refuse(res, 404, 'No such console file.');
    return;
  }
  if (context.oidc !== undefined && path === '/login/provider') return startProviderSignIn(context, context.oidc, res);
  if (context.oidc !== undefined && path === '/callback') return finishProviderSignIn(context, context.oidc, url, req, res);
  const session = sessionOf(context, req);
  if (path === '/login') {
    if (session === undefined)
      showSignIn(context, res, 200, undefined, query.get('signed_out') === 'console' ? consoleOnlySignOut : undefined);
    else redirect(res, `${consolePath}/servers`);
    return;
  }
  if (session === undefined) {
    if (path === '/events') refuse(res, 401, 'Not signed in: open /console/login and sign in.');
    else redirect(res, `${consolePath}/login`);
    return;
  }
  if (path === '' || path === '/') redirect(res, `${consolePath}/servers`);
  else if (path === '/servers') sendHtml(res, 200, serversPage(context, session));
  else if (path === '/catalog' && context.catalog !== undefined) sendHtml(res, 200, renderCatalogPage(context.catalog, query, session));
  else if (path === '/changes') sendHtml(res, 200, renderChangesPage(context.changes, session, query));
  else if (path === '/activity') sendHtml(res, 200, activityPage(context, session, query));
  else if (path === '/sessions') sendHtml(res, 200, sessionsPage(context, session));
  else if (path === '/events') serveEvents(req, res, { session, sessions: context.sessions, ...liveStream(context, query) });
  else sendHtml(res, 404, renderMessage('Not found', `There is no console page at ${consolePath}${path}.`, session));
};

const post = async (context: Context, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  if (path === '/login') return signIn(context, req, res);
  if (path === '/logout') return signOut(context, req, res);
  const restartOf = /^\/servers\/([^/]+)\/restart$/.exec(path);
  if (restartOf !== null) return restart(context, decodeURIComponent(restartOf[1] as string), req, res);
  if (path === '/changes/approve' || path === '/changes/reject') {
    const checked = await checkedPost(context, req, res);
    if (checked !== undefined) await changeAction(context.changes, path.endsWith('approve') ? 'approve' : 'reject', checked, res);
    return;
  }
  refuse(res, 404, 'No such console action.');
};

const handle = async (context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const url = new URL(req.url ?? '/', 'http://console.invalid');
  const path = url.pathname.slice(consolePath.length);
  if (req.method === 'GET' || req.method === 'HEAD') return get(context, url, req, res);
  if (req.method === 'POST') return post(context, path, req, res);
  res.writeHead(405, { ...securityHeaders(), allow: 'GET, POST' }).end();
};

/** The console as the HTTP endpoint mounts it at `/console`. */
export const createConsole = (options: ConsoleOptions): HttpMount & { readonly sessions: SessionStore } => {
  const context: Context = {
    ...options,
    sessions: createSessionStore({ ttlMs: options.sessionMs }),
  };
  return { prefix: consolePath, sessions: context.sessions, handle: (req, res) => handle(context, req, res) };
};
