/**
 * The Activity page's "Waiting for approval" section: the tool calls a person is being asked about
 * now (`[[policy]] approve = true`, through the calling client's elicitation) — who called, through
 * which profile, which server's tool, under which rule and since when; never the arguments. Its list
 * is also what the activity event stream sends as `approvals` whenever a call starts or stops waiting.
 */
import type { PendingApproval } from '@promptyard/router';
import { renderTable } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';

/** The router's calls waiting for approval (`router.pendingApprovals()` and its listener). */
export interface WaitingApprovalsSource {
  list(): readonly PendingApproval[];
  /** Called when a call starts or stops waiting; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** The event, and the `sse-swap` of the section's live part. */
export const waitingEvent = 'approvals';

const row = (call: PendingApproval): Html =>
  html`<tr data-waiting="${call.id}" data-server="${call.server}" data-tool="${call.tool}">${[
    html`<td><time datetime="${call.since.toISOString()}">${call.since.toISOString().slice(11, 19)}</time></td>`,
    html`<td>${call.identity ?? '—'}</td>`,
    html`<td>${call.profile}</td>`,
    html`<td>${call.server}</td>`,
    html`<th scope="row">${call.tool}</th>`,
    html`<td>${call.rule}</td>`,
  ]}</tr>\n`;

/** The live part of the section: a count, and the calls waiting, longest first. */
export const renderWaitingApprovals = (source: WaitingApprovalsSource | undefined): Html => {
  const calls = source?.list() ?? [];
  const count = calls.length === 0 ? 'No call is waiting' : `${calls.length} call${calls.length === 1 ? ' is' : 's are'} waiting`;
  const summary = html`<p class="summary" role="status">${count} for a person's approval</p>`;
  if (calls.length === 0) return summary;
  const headers = ['Since (UTC)', 'Identity', 'Profile', 'Server', 'Tool', 'Rule'];
  const table = renderTable(
    'Calls waiting for approval',
    'Tool calls waiting for a person to approve them, longest first',
    headers,
    html`${calls.map(row)}`,
  );
  return html`${summary}\n${table}`;
};

/** The section, inside the page's `sse-connect` element. */
export const renderWaitingSection = (source: WaitingApprovalsSource | undefined): Html => html`<section aria-labelledby="waiting-heading">
<h2 id="waiting-heading">Waiting for approval</h2>
<p>Calls under a <code>[[policy]]</code> rule with <code>approve = true</code> wait here while the calling client asks a person; each leaves once answered, refused or timed out (its decision then appears below).</p>
<div id="waiting" sse-swap="${waitingEvent}">
${renderWaitingApprovals(source)}
</div>
</section>`;
