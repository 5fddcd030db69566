/**
 * The Changes page: every tool and prompt definition that changed since it was approved (or is new
 * on a server already pinned), its diff against the approved one, and for admins Approve and Reject.
 * The list is also what the event stream sends as `changes` whenever the pins change.
 */
import type { ChangeDesk, PendingDefinition } from '../sources/change-desk.js';
import { consolePath, renderPage } from './html.js';
import { html } from './template.js';
import type { Html } from './template.js';
import type { ConsoleSession } from '../access/sessions.js';

export const changesPath = `${consolePath}/changes`;

const address = (item: Pick<PendingDefinition, 'server' | 'name'>): string => `${item.server}/${item.name}`;

/** One diff line, classed by what it is (a field's header, a hunk, added, removed, context). */
const diffLine = (line: string): Html => {
  const kind = /^(---|\+\+\+)/.test(line)
    ? 'file'
    : line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+')
        ? 'add'
        : line.startsWith('-')
          ? 'del'
          : 'same';
  return html`<span class="diff-${kind}">${line}</span>`;
};

/** The diff as `pins diff` prints it, without its first line (the heading says it). */
const renderDiff = (item: PendingDefinition): Html => {
  const lines = item.diff
    .replace(/\n$/, '')
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('==='));
  return html`<div class="diff" role="region" tabindex="0" aria-label="Diff of ${address(item)}"><pre>${lines.map(diffLine)}</pre></div>`;
};

const actionForm = (
  item: PendingDefinition,
  session: ConsoleSession,
  action: 'approve' | 'reject',
): Html => html`<form method="post" action="${changesPath}/${action}">
<input type="hidden" name="_csrf" value="${session.csrf}">
<input type="hidden" name="server" value="${item.server}">
<input type="hidden" name="kind" value="${item.kind}">
<input type="hidden" name="name" value="${item.name}">
<input type="hidden" name="digest" value="${item.digest}">
<button type="submit"${action === 'reject' && html` class="secondary"`} aria-label="${action === 'approve' ? 'Approve' : 'Reject'} ${address(item)}">${action === 'approve' ? 'Approve' : 'Reject'}</button>
</form>`;

const stateOf = (item: PendingDefinition): Html => {
  const served = item.held ? 'quarantined: held back from clients' : 'served with a warning';
  const rejected = item.rejected !== undefined && `; rejected by ${item.rejected.subject} at ${item.rejected.at.toISOString()}`;
  return html`<span class="state ${item.held ? 'state-failed' : 'state-starting'}">${served}</span>${rejected}`;
};

const renderItem = (
  item: PendingDefinition,
  session: ConsoleSession,
  index: number,
): Html => html`<section class="change" data-change="${address(item)}" data-kind="${item.kind}" aria-labelledby="change-${index}">
<h2 id="change-${index}">${address(item)} <span class="muted">(${item.kind}, ${item.change}: ${item.fields.join(', ')})</span></h2>
<p>${stateOf(item)}</p>
${renderDiff(item)}
${session.role === 'admin' && html`<div class="actions">${actionForm(item, session, 'approve')}${actionForm(item, session, 'reject')}</div>`}
</section>
`;

/** The live part of the page (what `/console/events?stream=changes` sends as `changes`). */
export const renderChangesList = (desk: ChangeDesk | undefined, session: ConsoleSession): Html => {
  const pending = desk?.pending() ?? [];
  const summary = html`<p class="summary" role="status">${pending.length === 0 ? 'Nothing to review' : `${pending.length} definition${pending.length === 1 ? '' : 's'} to review`}</p>`;
  if (pending.length === 0)
    return html`${summary}\n<p>Every tool and prompt definition served is the approved one${desk === undefined && html` (every server has pinning = "off")`}.</p>`;
  return html`${summary}\n${pending.map((item, index) => renderItem(item, session, index))}`;
};

/** The words after an action, from the redirect's query. */
const outcomeNote = (query: URLSearchParams): Html | undefined => {
  const done = query.get('done');
  const item = query.get('item');
  if ((done !== 'approved' && done !== 'rejected') || item === null) return undefined;
  const what =
    done === 'approved'
      ? 'approved: the gateway serves it again and tells its clients their lists changed.'
      : 'rejected: it stays unapproved, held back under pinning = "enforce".';
  return html`<p class="note" role="status">${item} ${what}</p>`;
};

export const renderChangesPage = (desk: ChangeDesk | undefined, session: ConsoleSession, query: URLSearchParams): Html =>
  renderPage({
    title: 'Changes',
    session,
    current: 'changes',
    body: html`<h1>Changes</h1>
<p>Tool and prompt definitions that differ from the approved ones, as <code>promptyard-gateway pins diff</code> shows them.${
      session.role === 'admin'
        ? ' Approving one serves it as it is now; rejecting one keeps it unapproved.'
        : ' Approving one needs an admin.'
    }</p>
${outcomeNote(query)}
<div id="changes" hx-ext="sse" sse-connect="${consolePath}/events?stream=changes" sse-swap="changes">
${renderChangesList(desk, session)}
</div>`,
  });
