/**
 * The Changes page: every tool and prompt definition that changed since it was approved (or is new
 * on a server already pinned), its diff against the approved one, and for admins Approve and Reject.
 * The list is also what the event stream sends as `changes` whenever the pins change.
 */
import type { ChangeDesk, PendingDefinition } from '../sources/change-desk.js';
import { consolePath, escapeHtml, renderPage } from './html.js';
import type { ConsoleSession } from '../access/sessions.js';

export const changesPath = `${consolePath}/changes`;

const address = (item: Pick<PendingDefinition, 'server' | 'name'>): string => `${item.server}/${item.name}`;

/** One diff line, classed by what it is (a field's header, a hunk, added, removed, context). */
const diffLine = (line: string): string => {
  const kind = /^(---|\+\+\+)/.test(line)
    ? 'file'
    : line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+')
        ? 'add'
        : line.startsWith('-')
          ? 'del'
          : 'same';
  return `<span class="diff-${kind}">${escapeHtml(line)}</span>`;
};

/** The diff as `pins diff` prints it, without its first line (the heading says it). */
const renderDiff = (item: PendingDefinition): string => {
  const lines = item.diff
    .replace(/\n$/, '')
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('==='));
  return `<div class="diff" role="region" tabindex="0" aria-label="Diff of ${escapeHtml(address(item))}"><pre>${lines.map(diffLine).join('')}</pre></div>`;
};

const actionForm = (
  item: PendingDefinition,
  session: ConsoleSession,
  action: 'approve' | 'reject',
): string => `<form method="post" action="${changesPath}/${action}">
<input type="hidden" name="_csrf" value="${escapeHtml(session.csrf)}">
<input type="hidden" name="server" value="${escapeHtml(item.server)}">
<input type="hidden" name="kind" value="${item.kind}">
<input type="hidden" name="name" value="${escapeHtml(item.name)}">
<input type="hidden" name="digest" value="${escapeHtml(item.digest)}">
<button type="submit"${action === 'reject' ? ' class="secondary"' : ''} aria-label="${action === 'approve' ? 'Approve' : 'Reject'} ${escapeHtml(address(item))}">${action === 'approve' ? 'Approve' : 'Reject'}</button>
</form>`;

const stateOf = (item: PendingDefinition): string => {
  const served = item.held ? 'quarantined: held back from clients' : 'served with a warning';
  const rejected =
    item.rejected === undefined ? '' : `; rejected by ${escapeHtml(item.rejected.subject)} at ${item.rejected.at.toISOString()}`;
  return `<span class="state ${item.held ? 'state-failed' : 'state-starting'}">${served}</span>${rejected}`;
};

const renderItem = (
  item: PendingDefinition,
  session: ConsoleSession,
  index: number,
): string => `<section class="change" data-change="${escapeHtml(address(item))}" data-kind="${item.kind}" aria-labelledby="change-${index}">
<h2 id="change-${index}">${escapeHtml(address(item))} <span class="muted">(${item.kind}, ${item.change}: ${escapeHtml(item.fields.join(', '))})</span></h2>
<p>${stateOf(item)}</p>
${renderDiff(item)}
${session.role === 'admin' ? `<div class="actions">${actionForm(item, session, 'approve')}${actionForm(item, session, 'reject')}</div>` : ''}
</section>`;

/** The live part of the page (what `/console/events?stream=changes` sends as `changes`). */
export const renderChangesList = (desk: ChangeDesk | undefined, session: ConsoleSession): string => {
  const pending = desk?.pending() ?? [];
  const summary = `<p class="summary" role="status">${pending.length === 0 ? 'Nothing to review' : `${pending.length} definition${pending.length === 1 ? '' : 's'} to review`}</p>`;
  if (pending.length === 0)
    return `${summary}\n<p>Every tool and prompt definition served is the approved one${desk === undefined ? ' (every server has pinning = "off")' : ''}.</p>`;
  return `${summary}\n${pending.map((item, index) => renderItem(item, session, index)).join('\n')}`;
};

/** The words after an action, from the redirect's query. */
const outcomeNote = (query: URLSearchParams): string => {
  const done = query.get('done');
  const item = query.get('item');
  if ((done !== 'approved' && done !== 'rejected') || item === null) return '';
  const what =
    done === 'approved'
      ? 'approved: the gateway serves it again and tells its clients their lists changed.'
      : 'rejected: it stays unapproved, held back under pinning = "enforce".';
  return `<p class="note" role="status">${escapeHtml(item)} ${what}</p>`;
};

export const renderChangesPage = (desk: ChangeDesk | undefined, session: ConsoleSession, query: URLSearchParams): string =>
  renderPage({
    title: 'Changes',
    session,
    current: 'changes',
    body: `<h1>Changes</h1>
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
