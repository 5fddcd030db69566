/**
 * What one `/console/events` stream follows: the Servers page's table (no `stream`), the Changes
 * page's list (`?stream=changes`), the Activity page's table (`?stream=activity`, with the page's
 * filter in the same query, and the calls waiting for approval beside it), each sent again whenever
 * the gateway, the audit stream or the calls waiting change (in a cluster, every replica's, sent again
 * when another replica's report changes too; the servers table also every 5 s, for its calls of the
 * last minutes), or the Sessions page's table (`?stream=sessions`), whenever the endpoint's clients
 * change.
 */
import type { ClientRoster } from '@promptyard/mcp';
import type { UiModel } from '../ui/model.js';
import type { ActivityFeed } from './sources/activity-feed.js';
import { activityFilterOf, renderActivityTable } from './pages/activity-page.js';
import type { ChangeDesk } from './sources/change-desk.js';
import type { ClusterView } from './sources/cluster-view.js';
import { renderChangesList } from './pages/changes-page.js';
import type { EventSource, serveEvents } from './events.js';
import { clusterActivity, renderReplicaServers, renderReplicaSessions } from './pages/replica-pages.js';
import { renderServersTable } from './pages/servers-page.js';
import { renderWaitingApprovals, waitingEvent } from './pages/waiting-approvals.js';
import type { WaitingApprovalsSource } from './pages/waiting-approvals.js';
import { renderSessionsTable } from './pages/sessions-page.js';

export interface LiveSources {
  readonly model: Pick<UiModel, 'servers' | 'subscribe'>;
  readonly changes?: ChangeDesk | undefined;
  readonly activity?: ActivityFeed | undefined;
  /** The other replicas (`[cluster]`), and this one's URL; absent: this gateway alone. */
  readonly cluster?: ClusterView | undefined;
  readonly url?: (() => string | undefined) | undefined;
  readonly approvals?: WaitingApprovalsSource | undefined;
  /** The endpoint's clients; absent: a stdio gateway, which has none to list. */
  readonly clients?: ClientRoster | undefined;
}

/** The servers' recent calls change with every call and as the window slides, which no event reports: their table is also looked at this often. */
const serversRefreshMs = 5000;

/** `source`, and a tick every `ms` while it is followed. */
const ticking = (source: EventSource, ms: number): EventSource => ({
  subscribe: (listener) => {
    const stop = source.subscribe(listener);
    const timer = setInterval(listener, ms);
    timer.unref();
    return () => {
      stop();
      clearInterval(timer);
    };
  },
});

/** The Sessions page's table (in a cluster, every replica's), sent again when this endpoint's clients or another replica's report change. */
const sessionsStream = (
  clients: ClientRoster,
  cluster: ClusterView | undefined,
  url: (() => string | undefined) | undefined,
): Omit<Parameters<typeof serveEvents>[2], 'session' | 'sessions'> => ({
  source: {
    subscribe: (listener) => {
      const stops = [clients.onClientsChange(listener), cluster?.subscribe(listener) ?? (() => {})];
      return () => stops.forEach((stop) => stop());
    },
  },
  event: 'sessions',
  render: () =>
    cluster === undefined ? renderSessionsTable(clients.clients()) : renderReplicaSessions(clients.clients(), cluster, url?.()),
});

/** What `/console/events?stream=…` follows: the servers table, the changes, the activity (with the page's filter) or the sessions. */
export const liveStream = (
  context: LiveSources,
  query: URLSearchParams,
): Omit<Parameters<typeof serveEvents>[2], 'session' | 'sessions'> => {
  const { model, activity, changes, cluster, approvals, clients } = context;
  const source = {
    subscribe: (listener: () => void) => {
      const stops = [model.subscribe(listener), ...[activity, cluster, approvals].map((each) => each?.subscribe(listener) ?? (() => {}))];
      return () => stops.forEach((stop) => stop());
    },
  };
  const stream = query.get('stream');
  if (stream === 'sessions' && clients !== undefined) return sessionsStream(clients, cluster, context.url);
  if (stream === 'changes') return { source, event: 'changes', render: (session) => renderChangesList(changes, session) };
  if (stream === 'activity') {
    const entries = clusterActivity(activity, cluster);
    const waiting = { event: waitingEvent, render: () => renderWaitingApprovals(approvals) };
    return {
      source,
      event: 'activity',
      render: () => renderActivityTable(entries, activityFilterOf(query), cluster !== undefined),
      more: [waiting],
    };
  }
  const servers = ticking(source, serversRefreshMs);
  if (cluster !== undefined)
    return { source: servers, render: (session) => renderReplicaServers(model.servers(), cluster, session, context.url?.()) };
  return { source: servers, render: (session) => renderServersTable(model.servers(), session) };
};
