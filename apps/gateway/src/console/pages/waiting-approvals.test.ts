import type { PendingApproval } from '@promptyard/router';
import { describe, expect, it } from 'vitest';
import { renderActivityPage } from './activity-page.js';
import { liveStream } from '../live-streams.js';
import type { ConsoleSession } from '../access/sessions.js';
import { renderWaitingApprovals } from './waiting-approvals.js';
import type { WaitingApprovalsSource } from './waiting-approvals.js';

/** A source whose calls the test sets, telling its listeners of each change. */
const waitingSource = () => {
  let calls: PendingApproval[] = [];
  const listeners = new Set<() => void>();
  const source: WaitingApprovalsSource = {
    list: () => calls,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const set = (next: PendingApproval[]): void => {
    calls = next;
    for (const listener of listeners) listener();
  };
  return { source, set };
};

const deploy: PendingApproval = {
  id: 7,
  identity: 'ann',
  profile: 'ops',
  server: 'k8s',
  tool: 'k8s_deploy',
  rule: '[[policy]] #2 "deploys"',
  since: new Date('2026-11-27T10:11:12.000Z'),
};

const session: ConsoleSession = { id: 's', csrf: 'c', subject: 'ops-ann', role: 'viewer', expiresAt: Date.now() + 60_000 };

describe('the calls waiting for approval on the Activity page', () => {
  it('lists who waits, through which profile, for which tool and rule, and since when', () => {
    const { source, set } = waitingSource();
    expect(String(renderWaitingApprovals(source))).toBe(`<p class="summary" role="status">No call is waiting for a person's approval</p>`);
    set([deploy, { ...deploy, id: 8, identity: undefined, tool: 'k8s_scale' }]);
    const html = String(renderWaitingApprovals(source));
    expect(html).toContain('2 calls are waiting for a person');
    expect(html).toContain(
      '<tr data-waiting="7" data-server="k8s" data-tool="k8s_deploy"><td><time datetime="2026-11-27T10:11:12.000Z">10:11:12</time></td><td>ann</td><td>ops</td><td>k8s</td><th scope="row">k8s_deploy</th><td>[[policy]] #2 &quot;deploys&quot;</td></tr>',
    );
    expect(html).toContain('<td>—</td>');
  });

  it('escapes what callers name', () => {
    const { source, set } = waitingSource();
    set([{ ...deploy, identity: '"><script>', tool: '<img src=x>' }]);
    const html = String(renderWaitingApprovals(source));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
  });

  it('sits above the audit table, on the page stream, and is sent again when a call starts or stops waiting', () => {
    const { source, set } = waitingSource();
    const page = String(renderActivityPage(undefined, session, {}, false, source));
    expect(page.indexOf('Waiting for approval')).toBeLessThan(page.indexOf('id="activity"'));
    expect(page).toMatch(/<div hx-ext="sse" sse-connect="\/console\/events\?stream=activity">\n<section[^>]*>\n<h2 id="waiting-heading">/);
    const live = liveStream(
      { model: { servers: () => [], subscribe: () => () => {} }, approvals: source },
      new URLSearchParams('stream=activity'),
    );
    expect(live.more?.map((part) => part.event)).toEqual(['approvals']);
    let heard = 0;
    const stop = live.source.subscribe(() => (heard += 1));
    set([deploy]);
    expect(heard).toBe(1);
    expect(String(live.more?.[0]?.render(session))).toContain('1 call is waiting');
    stop();
  });
});
