/**
 * The Activity page: the audit stream as it happens (who called what through which profile, what
 * was decided and how long it took; never the arguments), newest first, narrowed by a small form
 * (server, tool, identity, decision). The table is also what the event stream sends as `activity`,
 * with the same filter in its URL; above it, the calls waiting for approval (`waiting-approvals.ts`),
 * on the same stream.
 */
import { AUDIT_DECISIONS } from '@promptyard/core';
import type { ActivityEntry } from '../sources/activity-feed.js';
import { consolePath, renderPage, renderTable } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';
import type { ConsoleSession } from '../access/sessions.js';
import { renderWaitingSection } from './waiting-approvals.js';
import type { WaitingApprovalsSource } from './waiting-approvals.js';

export interface ActivityFilter {
  readonly server?: string | undefined;
  readonly tool?: string | undefined;
  readonly identity?: string | undefined;
  readonly decision?: string | undefined;
}

/** An entry of the Activity page; in a cluster, the replica it was decided on. */
export type ReplicaActivityEntry = ActivityEntry & { readonly replica?: string };

/** What the Activity page lists: this gateway's feed, or every replica's entries merged (`clusterActivity`). */
export interface ActivitySource {
  entries(): readonly ReplicaActivityEntry[];
}

const filterKeys = ['server', 'tool', 'identity', 'decision'] as const;
const shown = 200;

/** The filter a query string gives (empty fields: no condition). */
export const activityFilterOf = (query: URLSearchParams): ActivityFilter =>
  Object.fromEntries(filterKeys.map((key) => [key, query.get(key)?.trim() || undefined]));

const queryOf = (filter: ActivityFilter): string => {
  const query = new URLSearchParams();
  for (const key of filterKeys) if (filter[key] !== undefined) query.set(key, filter[key]);
  return query.toString();
};

/** Server and identity match exactly; the tool by a part of its name. */
const matches = (entry: ActivityEntry, filter: ActivityFilter): boolean =>
  (filter.server === undefined || entry.server === filter.server) &&
  (filter.tool === undefined || entry.name.includes(filter.tool)) &&
  (filter.identity === undefined || (entry.identity ?? '') === filter.identity) &&
  (filter.decision === undefined || entry.decision === filter.decision);

const row = (entry: ReplicaActivityEntry, replicas: boolean): Html =>
  html`<tr data-seq="${entry.seq}" data-decision="${entry.decision}" data-name="${entry.name}">${[
    html`<td><time datetime="${entry.time.toISOString()}">${entry.time.toISOString().slice(11, 19)}</time></td>`,
    replicas && html`<td>${entry.replica ?? '—'}</td>`,
    html`<td>${entry.identity ?? '—'}</td>`,
    html`<td>${entry.profile}</td>`,
    html`<td>${entry.server ?? '—'}</td>`,
    html`<td>${entry.kind}</td>`,
    html`<th scope="row">${entry.name}</th>`,
    html`<td><span class="decision decision-${entry.decision}">${entry.decision}</span></td>`,
    html`<td class="number">${entry.durationMs.toFixed(1)}</td>`,
  ]}</tr>`;

/** The live part of the page (what `/console/events?stream=activity` sends as `activity`); `replicas`: with a Replica column. */
export const renderActivityTable = (feed: ActivitySource | undefined, filter: ActivityFilter, replicas = false): Html => {
  const all = feed?.entries() ?? [];
  const matching = all.filter((entry) => matches(entry, filter));
  const rows = matching.slice(-shown).reverse();
  const headers = [
    'Time (UTC)',
    ...(replicas ? ['Replica'] : []),
    'Identity',
    'Profile',
    'Server',
    'Kind',
    'Name',
    'Decision',
    'Duration (ms)',
  ];
  const body =
    rows.length === 0
      ? html`<tr><td colspan="${headers.length}">${all.length === 0 ? 'No calls decided since the gateway started.' : 'No entry matches the filter.'}</td></tr>`
      : html`${rows.map((entry) => html`${row(entry, replicas)}\n`)}`;
  return html`<p class="summary" role="status">${matching.length} of ${all.length} recent decisions${matching.length > shown && `, the last ${shown} shown`}</p>
${renderTable('Activity table', 'Calls the gateway decided on, newest first', headers, body)}`;
};

const textField = (key: 'server' | 'tool' | 'identity', label: string, filter: ActivityFilter): Html =>
  html`<div><label for="filter-${key}">${label}</label> <input id="filter-${key}" name="${key}" type="text" value="${filter[key] ?? ''}"></div>`;

const filterForm = (
  filter: ActivityFilter,
): Html => html`<form method="get" action="${consolePath}/activity" class="filter" role="search" aria-label="Filter the activity">
${textField('server', 'Server', filter)}
${textField('tool', 'Tool', filter)}
${textField('identity', 'Identity', filter)}
<div><label for="filter-decision">Decision</label> <select id="filter-decision" name="decision">
<option value="">any</option>${AUDIT_DECISIONS.map(
  (decision) => html`<option value="${decision}"${decision === filter.decision && html` selected`}>${decision}</option>`,
)}
</select></div>
<button type="submit">Filter</button>
</form>`;

export const renderActivityPage = (
  feed: ActivitySource | undefined,
  session: ConsoleSession,
  filter: ActivityFilter,
  replicas = false,
  waiting?: WaitingApprovalsSource,
): Html => {
  const query = queryOf(filter);
  return renderPage({
    title: 'Activity',
    session,
    current: 'activity',
    body: html`<h1>Activity</h1>
<p>Every call the gateway decided on since it started (the last 500): who, through which profile, on what, and what was decided. Arguments are never shown.</p>${
      replicas &&
      html`\n<p>In the cluster, every other replica's last 100 too, merged by time: the Replica column names where each was decided.</p>`
    }
<div hx-ext="sse" sse-connect="${consolePath}/events?stream=activity${query !== '' && `&${query}`}">
${renderWaitingSection(waiting)}
<h2>Decisions</h2>
${filterForm(filter)}
<div id="activity" sse-swap="activity">
${renderActivityTable(feed, filter, replicas)}
</div>
</div>`,
  });
};
