/**
 * The console's page frame: the document every page shares (landmarks, a skip link, the
 * console's own stylesheet and scripts, the htmx settings that keep it within the Content-Security-
 * Policy) and the session's CSRF token on every htmx request.
 */
import type { ConsoleSession } from '../access/sessions.js';
import { html } from './template.js';
import type { Html } from './template.js';

export const consolePath = '/console';

/**
 * htmx without what a strict CSP forbids: no inline indicator styles, no `eval` (`hx-on`, `js:`), no
 * script tags in swapped content, and requests to this origin only.
 */
const htmxConfig = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
});

export interface PageFrame {
  readonly title: string;
  /** The signed-in session: the header shows who, the navigation and sign-out; absent on the sign-in page. */
  readonly session?: ConsoleSession | undefined;
  /** Which navigation entry is the current page. */
  readonly current?: 'servers' | 'catalog' | 'changes' | 'activity' | 'sessions';
  readonly body: Html;
  /** More of the document's head (the signed-in page's refresh). */
  readonly head?: Html | undefined;
}

const pages = [
  { id: 'servers', label: 'Servers', href: `${consolePath}/servers` },
  { id: 'catalog', label: 'Catalog', href: `${consolePath}/catalog` },
  { id: 'changes', label: 'Changes', href: `${consolePath}/changes` },
  { id: 'activity', label: 'Activity', href: `${consolePath}/activity` },
  { id: 'sessions', label: 'Sessions', href: `${consolePath}/sessions` },
] as const;

const navigation = (session: ConsoleSession, current: PageFrame['current']): Html => html`
<nav aria-label="Console pages">
  <ul>${pages.map((page) => html`<li><a href="${page.href}"${page.id === current && html` aria-current="page"`}>${page.label}</a></li>`)}</ul>
</nav>
<div class="who">
  <span>Signed in as <strong>${session.subject}</strong> (${session.role})</span>
  <form method="post" action="${consolePath}/logout">
    <input type="hidden" name="_csrf" value="${session.csrf}">
    <button type="submit">Sign out</button>
  </form>
</div>`;

/** A whole page: the frame around `body`, which becomes the `main` landmark. */
export const renderPage = ({ title, session, current, body, head }: PageFrame): Html => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Promptyard console</title>
<meta name="htmx-config" content="${htmxConfig}">
<link rel="icon" href="${consolePath}/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${consolePath}/assets/console.css">
<script src="${consolePath}/assets/htmx.min.js" defer></script>
<script src="${consolePath}/assets/sse.min.js" defer></script>${head}
</head>
<body${session !== undefined && html` hx-headers="${JSON.stringify({ 'X-CSRF-Token': session.csrf })}"`}>
<a class="skip" href="#main">Skip to content</a>
<header>
  <p class="brand">Promptyard console</p>${session !== undefined && navigation(session, current)}
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`;

/** The token form: one labelled field, the pre-session CSRF token. */
const tokenForm = (loginCsrf: string, error: string | undefined, provider: boolean): Html => html`
<p>${provider ? 'Or sign in' : 'Sign in'} with the gateway's token (<code>[transport] auth_token</code>) or an access token the gateway accepts.</p>
<form method="post" action="${consolePath}/login" class="sign-in">
  <input type="hidden" name="_csrf" value="${loginCsrf}">
  <label for="token">Token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required${error !== undefined && html` aria-describedby="sign-in-error" aria-invalid="true"`}${!provider && html` autofocus`}>
  <button type="submit">Sign in</button>
</form>`;

/** The sign-in page: through the identity provider and/or the token form, what went wrong last time, or a note after signing out. */
export const renderSignIn = (
  loginCsrf: string,
  error?: string,
  ways: { readonly tokenForm: boolean; readonly provider: boolean; readonly note?: string | undefined } = {
    tokenForm: true,
    provider: false,
  },
): Html =>
  renderPage({
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
${ways.note !== undefined && html`<p class="note" role="status">${ways.note}</p>\n`}${error !== undefined && html`<p class="error" role="alert" id="sign-in-error">${error}</p>`}${
      ways.provider && html`\n<p><a class="button" href="${consolePath}/login/provider">Sign in with the identity provider</a></p>`
    }${ways.tokenForm && tokenForm(loginCsrf, error, ways.provider)}`,
  });

/** After the identity provider's redirect: moves on to the console by itself (a same-site navigation that carries the new cookie). */
export const renderSignedIn = (): Html =>
  renderPage({
    title: 'Signed in',
    head: html`<meta http-equiv="refresh" content="0;url=${consolePath}/servers">`,
    body: html`<h1>Signed in</h1>\n<p><a href="${consolePath}/servers">Continue to the console</a></p>`,
  });

/**
 * After signing out of the console: on to the identity provider to sign out there too. A page that
 * moves on by itself, not a redirect: `form-action 'self'` forbids the sign-out form's redirect elsewhere.
 */
export const renderSigningOut = (location: string): Html =>
  renderPage({
    title: 'Signing out',
    head: html`<meta http-equiv="refresh" content="0;url=${location}">`,
    body: html`<h1>Signing out</h1>\n<p>You are signed out of the console. <a href="${location}">Continue to the identity provider</a> to sign out there too.</p>`,
  });

/** A page for a refusal or a missing page, in the frame (signed in or not). */
export const renderMessage = (title: string, message: string, session?: ConsoleSession): Html =>
  renderPage({ title, session, body: html`<h1>${title}</h1>\n<p>${message}</p>` });

/** A data table that scrolls on its own (focusable, labelled), with its caption and column headers. */
export const renderTable = (label: string, caption: string, headers: readonly string[], rows: Html): Html =>
  html`<div class="table-scroll" tabindex="0" role="region" aria-label="${label}">
<table>
<caption>${caption}</caption>
<thead><tr>${headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
