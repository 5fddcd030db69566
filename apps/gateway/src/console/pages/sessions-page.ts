/**
 * The Sessions page: the MCP clients of the gateway's HTTP endpoint, from its handle. Each 2025-11-25
 * session and each 2026-07-28 client seen in the last minutes, with its name and version, protocol
 * revision, identity, how it connects, when it opened and was last active and how many requests it
 * made; a session by the first characters of its id only. The table is also what the event stream
 * sends as `sessions`.
 */
import type { ClientRoster, ConnectedClient } from '@promptyard/mcp';
import { consolePath, renderPage, renderTable } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';
import type { ConsoleSession } from '../access/sessions.js';

const shown = 200;

/** A time of day in UTC, with the date when it is not today's; the full instant in `datetime`. */
const timeCell = (at: number, now: number): Html => {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  return html`<td><time datetime="${iso}">${sameDay ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`}</time></td>`;
};

const connection = (client: ConnectedClient): string => (client.transport === 'session' ? 'session' : 'per request');

const row = (client: ConnectedClient, now: number): Html =>
  html`<tr data-client="${client.clientName ?? ''}" data-transport="${client.transport}" data-requests="${client.requests}">${[
    html`<th scope="row">${client.clientName ?? 'unnamed'}</th>`,
    html`<td>${client.clientVersion ?? '—'}</td>`,
    html`<td>${client.protocolVersion ?? '—'}</td>`,
    html`<td>${client.subject ?? '—'}</td>`,
    html`<td>${connection(client)}</td>`,
    html`<td>${client.endpoint}</td>`,
    timeCell(client.openedAt, now),
    timeCell(client.lastActiveAt, now),
    html`<td class="number">${client.requests}</td>`,
    html`<td>${client.sessionPrefix === undefined ? '—' : html`<code>${client.sessionPrefix}…</code>`}</td>`,
  ]}</tr>
`;

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The live part of the page (what `/console/events?stream=sessions` sends as `sessions`). */
export const renderSessionsTable = (
  clients: readonly ConnectedClient[],
  now = Date.now(),
  names: { readonly label: string; readonly caption: string } = {
    label: 'Sessions table',
    caption: 'MCP clients of this gateway, the most recently active first',
  },
): Html => {
  const sessions = clients.filter((client) => client.transport === 'session').length;
  const headers = [
    'Client',
    'Version',
    'Protocol',
    'Identity',
    'Connection',
    'Endpoint',
    'Opened (UTC)',
    'Last active (UTC)',
    'Requests',
    'Session',
  ];
  const body =
    clients.length === 0
      ? html`<tr><td colspan="${headers.length}">No MCP client is connected.</td></tr>`
      : html`${clients.slice(0, shown).map((client) => row(client, now))}`;
  const summary = `${count(sessions, 'session', 'sessions')} open, ${count(clients.length - sessions, 'client', 'clients')} without a session seen lately${
    clients.length > shown ? `; the ${shown} most recently active shown` : ''
  }`;
  return html`<p class="summary" role="status">${summary}</p>
${renderTable(names.label, names.caption, headers, body)}`;
};

/** The page (`live`: every replica's tables, in a cluster); without a roster (a stdio gateway, its console on `[console] bind`) it says who the one client is. */
export const renderSessionsPage = (roster: ClientRoster | undefined, session: ConsoleSession, live?: Html): Html =>
  renderPage({
    title: 'Sessions',
    session,
    current: 'sessions',
    body:
      roster === undefined
        ? html`<h1>Sessions and clients</h1>
<p>This gateway serves MCP over stdio: its one client is the application that started it. Sessions and clients are listed for a gateway served over HTTP ([transport] type = "http").</p>`
        : html`<h1>Sessions and clients</h1>
<p>The MCP clients of this gateway: each 2025-11-25 session it holds, and each 2026-07-28 client (which keeps no session: every request names it) seen in the last 10 minutes.</p>
<div id="sessions" hx-ext="sse" sse-connect="${consolePath}/events?stream=sessions" sse-swap="sessions">
${live ?? renderSessionsTable(roster.clients())}
</div>`,
  });
