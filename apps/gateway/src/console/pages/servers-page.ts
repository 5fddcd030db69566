/**
 * The Servers page: every backend's state, protocol revision, how its list changes are learned,
 * restarts, calls in flight, its calls of the last minutes (count, p50/p95 latency, error rate),
 * uptime and last error, from the router's status (the terminal UI's model); admins get a restart
 * button per server. The table is also what the event stream sends whenever it changes.
 */
import { callWindowSeconds } from '@promptyard/router';
import type { BackendStatus, CallSummary } from '@promptyard/router';
import { latency, uptime } from '../../ui/format.js';
import { consolePath, renderPage, renderTable } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';
import type { ConsoleSession } from '../access/sessions.js';

const restartPath = (id: string): string => `${consolePath}/servers/${encodeURIComponent(id)}/restart`;

const restartForm = (server: BackendStatus, session: ConsoleSession): Html => {
  const action = restartPath(server.id);
  return html`<form method="post" action="${action}" hx-post="${action}" hx-swap="none">
<input type="hidden" name="_csrf" value="${session.csrf}">
<button type="submit" aria-label="Restart ${server.id}">Restart</button>
</form>`;
};

const protocolOf = (server: BackendStatus): string => server.protocolVersion ?? (server.era === undefined ? '—' : `${server.era} era`);

/** What runs: the server's name and version, and its process. */
const detail = (server: BackendStatus): Html | undefined => {
  const parts = [server.server, server.pid === undefined ? undefined : `pid ${server.pid}`].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : html`<br><span class="muted">${parts.join(' · ')}</span>`;
};

/** `8.3 / 14 ms`, `850 ms / 1.2 s`: p50 and p95 in one cell (the unit once when they share it), `—` before the first call. */
export const latenciesText = (calls: CallSummary | undefined): string => {
  if (calls === undefined) return '—';
  const [p50, p95] = [latency(calls.p50Ms), latency(calls.p95Ms)];
  return p50.endsWith(' ms') && p95.endsWith(' ms') && !p50.startsWith('<') ? `${p50.slice(0, -3)} / ${p95}` : `${p50} / ${p95}`;
};

/** `0 %`, `0.4 %`, `12 %` of the window's calls that failed; `—` without a call. */
export const errorRateText = (calls: CallSummary | undefined): string => {
  if (calls === undefined) return '—';
  const rate = (calls.failed / calls.count) * 100;
  if (rate === 0) return '0 %';
  if (rate < 0.1) return '< 0.1 %';
  return rate < 10 ? `${rate.toFixed(1)} %` : `${Math.round(rate)} %`;
};

/** The failures behind the rate, and the tools' own error results (answers, not failures), when there are any. */
const errorDetail = (calls: CallSummary | undefined): Html | undefined => {
  const parts = [
    calls === undefined || calls.failed === 0 ? undefined : `${calls.failed} failed`,
    calls === undefined || calls.toolErrors === 0 ? undefined : `${calls.toolErrors} tool error${calls.toolErrors === 1 ? '' : 's'}`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : html`<br><span class="muted">${parts.join(' · ')}</span>`;
};

const callCells = ({ calls }: BackendStatus): Html[] => [
  html`<td class="number">${calls?.count ?? '—'}</td>`,
  html`<td class="number">${latenciesText(calls)}</td>`,
  html`<td class="number">${errorRateText(calls)}${errorDetail(calls)}</td>`,
];

const row = (server: BackendStatus, session: ConsoleSession): Html => {
  const cells = [
    html`<th scope="row">${server.id}${detail(server)}</th>`,
    html`<td><span class="state state-${server.state}">${server.state}</span>${
      server.nextRetrySeconds !== undefined && html` <span class="muted">retry in ${Math.ceil(server.nextRetrySeconds)} s</span>`
    }${server.degraded !== undefined && html` <span class="muted">degraded</span>`}</td>`,
    html`<td>${server.transport}</td>`,
    html`<td>${protocolOf(server)}</td>`,
    html`<td>${server.listChanges ?? '—'}</td>`,
    html`<td class="number">${server.restarts}</td>`,
    html`<td class="number">${server.inFlight}</td>`,
    ...callCells(server),
    html`<td>${uptime(server.uptimeSeconds)}</td>`,
    html`<td class="error-text">${server.lastError ?? server.degraded?.join(' ') ?? '—'}</td>`,
    session.role === 'admin' && html`<td>${restartForm(server, session)}</td>`,
  ];
  return html`<tr data-server="${server.id}" data-state="${server.state}" data-restarts="${server.restarts}" data-pid="${server.pid ?? ''}" data-calls="${server.calls?.count ?? 0}" data-failed="${server.calls?.failed ?? 0}">${cells}</tr>`;
};

const windowText = callWindowSeconds % 60 === 0 ? `${callWindowSeconds / 60} minutes` : `${callWindowSeconds} seconds`;
const callHeaders = ['Calls', 'Latency p50 / p95', 'Error rate'];

/** The live part of the page: a summary for screen readers and the table (what `/console/events` sends as `servers`). */
export const renderServersTable = (
  servers: readonly BackendStatus[],
  session: ConsoleSession,
  names: { readonly label: string; readonly caption: string } = { label: 'Servers table', caption: 'Servers behind this gateway' },
): Html => {
  const ready = servers.filter((server) => server.state === 'ready').length;
  const headers = [
    'Server',
    'State',
    'Transport',
    'Protocol',
    'List changes',
    'Restarts',
    'In flight',
    ...callHeaders,
    'Uptime',
    'Last error',
  ];
  if (session.role === 'admin') headers.push('Actions');
  const body =
    servers.length === 0
      ? html`<tr><td colspan="${headers.length}">No servers are configured: add a [servers.&lt;id&gt;] table to the gateway config.</td></tr>`
      : html`${servers.map((server) => html`${row(server, session)}\n`)}`;
  return html`<p class="summary" role="status">${ready} of ${servers.length} servers ready</p>
${renderTable(names.label, `${names.caption}; calls, latency and error rate over the last ${windowText}`, headers, body)}`;
};

/** The whole page; the table inside (`live`: every replica's, in a cluster) follows `/console/events`. */
export const renderServersPage = (servers: readonly BackendStatus[], session: ConsoleSession, live?: Html): Html =>
  renderPage({
    title: 'Servers',
    session,
    current: 'servers',
    body: html`<h1>Servers</h1>
${session.role !== 'admin' && html`<p class="note">You are signed in as a viewer: restarting a server needs an admin.</p>`}
<div id="servers" hx-ext="sse" sse-connect="${consolePath}/events" sse-swap="servers">
${live ?? renderServersTable(servers, session)}
</div>`,
  });
