/**
 * The Servers page: every backend's state, protocol revision, how its list changes are learned,
 * restarts, calls in flight, uptime and last error, from the router's status (the terminal UI's
 * model); admins get a restart button per server. The table is also what the event stream sends
 * whenever a state changes.
 */
import type { BackendStatus } from '@promptyard/router';
import { uptime } from '../ui/format.js';
import { consolePath, escapeHtml, renderPage, renderTable } from './html.js';
import type { ConsoleSession } from './sessions.js';

const restartPath = (id: string): string => `${consolePath}/servers/${encodeURIComponent(id)}/restart`;

const restartForm = (server: BackendStatus, session: ConsoleSession): string => {
  const action = restartPath(server.id);
  return `<form method="post" action="${action}" hx-post="${action}" hx-swap="none">
<input type="hidden" name="_csrf" value="${escapeHtml(session.csrf)}">
<button type="submit" aria-label="Restart ${escapeHtml(server.id)}">Restart</button>
</form>`;
};

const protocolOf = (server: BackendStatus): string => server.protocolVersion ?? (server.era === undefined ? '—' : `${server.era} era`);

/** What runs: the server's name and version, and its process. */
const detail = (server: BackendStatus): string => {
  const parts = [server.server, server.pid === undefined ? undefined : `pid ${server.pid}`].filter((part) => part !== undefined);
  return parts.length === 0 ? '' : `<br><span class="muted">${escapeHtml(parts.join(' · '))}</span>`;
};

const row = (server: BackendStatus, session: ConsoleSession): string => {
  const cells = [
    `<th scope="row">${escapeHtml(server.id)}${detail(server)}</th>`,
    `<td><span class="state state-${escapeHtml(server.state)}">${escapeHtml(server.state)}</span>${
      server.nextRetrySeconds === undefined ? '' : ` <span class="muted">retry in ${Math.ceil(server.nextRetrySeconds)} s</span>`
    }</td>`,
    `<td>${escapeHtml(server.transport)}</td>`,
    `<td>${escapeHtml(protocolOf(server))}</td>`,
    `<td>${escapeHtml(server.listChanges ?? '—')}</td>`,
    `<td class="number">${server.restarts}</td>`,
    `<td class="number">${server.inFlight}</td>`,
    `<td>${escapeHtml(uptime(server.uptimeSeconds))}</td>`,
    `<td class="error-text">${escapeHtml(server.lastError ?? '—')}</td>`,
    ...(session.role === 'admin' ? [`<td>${restartForm(server, session)}</td>`] : []),
  ];
  return `<tr data-server="${escapeHtml(server.id)}" data-state="${escapeHtml(server.state)}" data-restarts="${server.restarts}" data-pid="${server.pid ?? ''}">${cells.join('')}</tr>`;
};

/** The live part of the page: a summary for screen readers and the table (what `/console/events` sends as `servers`). */
export const renderServersTable = (
  servers: readonly BackendStatus[],
  session: ConsoleSession,
  names: { readonly label: string; readonly caption: string } = { label: 'Servers table', caption: 'Servers behind this gateway' },
): string => {
  const ready = servers.filter((server) => server.state === 'ready').length;
  const headers = ['Server', 'State', 'Transport', 'Protocol', 'List changes', 'Restarts', 'In flight', 'Uptime', 'Last error'];
  if (session.role === 'admin') headers.push('Actions');
  const body =
    servers.length === 0
      ? `<tr><td colspan="${headers.length}">No servers are configured: add a [servers.&lt;id&gt;] table to the gateway config.</td></tr>`
      : servers.map((server) => row(server, session)).join('\n');
  return `<p class="summary" role="status">${ready} of ${servers.length} servers ready</p>
${renderTable(names.label, names.caption, headers, body)}`;
};

/** The whole page; the table inside (`live`: every replica's, in a cluster) follows `/console/events`. */
export const renderServersPage = (servers: readonly BackendStatus[], session: ConsoleSession, live?: string): string =>
  renderPage({
    title: 'Servers',
    session,
    current: 'servers',
    body: `<h1>Servers</h1>
${session.role === 'admin' ? '' : '<p class="note">You are signed in as a viewer: restarting a server needs an admin.</p>'}
<div id="servers" hx-ext="sse" sse-connect="${consolePath}/events" sse-swap="servers">
${live ?? renderServersTable(servers, session)}
</div>`,
  });
