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
import type { ActivitySource } from './pages/activity-page.js';
import type { ConsoleSession } from './access/sessions.js';
import { renderServersTable } from './pages/servers-page.js';
import { renderWaitingApprovals, waitingEvent } from './pages/waiting-approvals.js';
import type { WaitingApprovalsSource } from './pages/waiting-approvals.js';
import { renderSessionsTable } from './pages/sessions-page.js';
import type { Html } from './pages/template.js';

export interface LiveSources {
  readonly model: Pick<UiModel, 'servers' | 'subscribe'>;
  /** The Changes page's pending definitions and actions; absent: nothing is pinned. */
  readonly changes?: ChangeDesk | undefined;
  /** The audit stream the Activity page shows; absent: none. */
  readonly activity?: ActivityFeed | undefined;
  /** The other replicas (`[cluster]`): the Servers, Sessions and Activity pages show theirs too; absent: this gateway alone. */
  readonly cluster?: ClusterView | undefined;
  /** This replica's endpoint URL, once bound (how the others name it). */
  readonly url?: (() => string | undefined) | undefined;
  /** The calls waiting for a person's approval, which the Activity page lists; absent: none. */
  readonly approvals?: WaitingApprovalsSource | undefined;
  /** The MCP clients of the gateway's endpoint (the Sessions page); absent: it has none (a stdio gateway). */
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

/** One source of several: a listener told by each; `undefined` ones left out. */
const together = (...sources: readonly (EventSource | undefined)[]): EventSource => ({
  subscribe: (listener) => {
    const stops = sources.map((source) => source?.subscribe(listener) ?? (() => {}));
    return () => stops.forEach((stop) => stop());
  },
});

/** The Servers page's live part, as the page and its stream both show it: this gateway's table, or in a cluster every replica's. */
export const liveServers = (context: LiveSources, session: ConsoleSession): Html => {
  const { model, cluster, url } = context;
  return cluster === undefined
    ? renderServersTable(model.servers(), session)
    : renderReplicaServers(model.servers(), cluster, session, url?.());
};

/** The Sessions page's live part: the endpoint's clients, or in a cluster every replica's. */
export const liveSessions = (context: LiveSources & { readonly clients: ClientRoster }): Html => {
  const { clients, cluster, url } = context;
  return cluster === undefined ? renderSessionsTable(clients.clients()) : renderReplicaSessions(clients.clients(), cluster, url?.());
};

/** The Activity page's entries: this gateway's feed, or in a cluster every replica's merged. */
export const liveActivity = (context: LiveSources): ActivitySource | undefined => clusterActivity(context.activity, context.cluster);

/** What `/console/events?stream=…` follows: the servers table, the changes, the activity (with the page's filter) or the sessions. */
export const liveStream = (
  context: LiveSources,
  query: URLSearchParams,
): Omit<Parameters<typeof serveEvents>[2], 'session' | 'sessions'> => {
  const { model, activity, changes, cluster, approvals, clients } = context;
  const source = together(model, activity, cluster, approvals);
  const stream = query.get('stream');
  if (stream === 'sessions' && clients !== undefined)
    return {
      source: together({ subscribe: clients.onClientsChange }, cluster),
      event: 'sessions',
      render: () => liveSessions({ ...context, clients }),
    };
  if (stream === 'changes') return { source, event: 'changes', render: (session) => renderChangesList(changes, session) };
  if (stream === 'activity') {
    const entries = liveActivity(context);
    const waiting = { event: waitingEvent, render: () => renderWaitingApprovals(approvals) };
    return {
      source,
      event: 'activity',
      render: () => renderActivityTable(entries, activityFilterOf(query), cluster !== undefined),
      more: [waiting],
    };
  }
  return { source: ticking(source, serversRefreshMs), render: (session) => liveServers(context, session) };
};
