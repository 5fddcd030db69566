/**
 * The Servers, Sessions and Activity pages over a cluster (`[cluster]`): one servers table per
 * replica, this replica first (the only one with restart buttons: a restart acts on this replica's
 * servers), one sessions table per replica, and every replica's activity merged by time, each entry
 * naming its replica.
 */
import type { ConnectedClient } from '@promptyard/mcp';
import type { BackendStatus } from '@promptyard/router';
import type { ActivityFeed } from '../sources/activity-feed.js';
import type { ActivitySource, ReplicaActivityEntry } from './activity-page.js';
import type { ClusterView, GoneReplica, ReplicaSnapshot } from '../sources/cluster-view.js';
import { heartbeatMs, snapshotClients } from '../sources/cluster-view.js';
import { html } from './template.js';
import type { Html } from './template.js';
import { renderServersTable } from './servers-page.js';
import { renderSessionsTable } from './sessions-page.js';
import type { ConsoleSession } from '../access/sessions.js';

const thisReplica = 'this replica';

/** How a replica is named in headings and the Activity page: the start of its node id (the whole id in `data-replica`). */
const replicaName = (node: string): string => node.slice(0, 8);

const clockTime = (time: Date): string => `${time.toISOString().slice(11, 19)} UTC`;

const where = (url: string | undefined): string | undefined => (url === undefined ? undefined : ` · ${url}`);

/** One other replica's part of a page, under a heading naming it and when it reported. */
const remoteSection = (replica: ReplicaSnapshot, index: number, content: Html): Html =>
  html`<section aria-labelledby="replica-${index}" data-replica="${replica.node}" data-url="${replica.url ?? ''}">
<h2 id="replica-${index}">Replica ${replicaName(replica.node)} <span class="muted">as of ${clockTime(replica.writtenAt)}${where(replica.url)}</span></h2>
${content}
</section>
`;

const goneNote = (gone: GoneReplica): Html =>
  html`<p class="note" data-gone="${gone.node}">Replica ${replicaName(gone.node)}${where(gone.url)} stopped reporting at ${clockTime(gone.lastSeen)}: it is no longer shown.</p>
`;

/** A page's live part over a cluster: what it says of the cluster, this replica's part, each other replica's, and whether Redis answers. */
const replicaSections = (
  view: ClusterView,
  url: string | undefined,
  parts: { readonly intro: Html; readonly local: Html; readonly remote: (replica: ReplicaSnapshot) => Html },
): Html => {
  const others = view.replicas();
  const status = view.reachable()
    ? others.length === 0 && html`<p class="note">No other replica is reporting.</p>`
    : html`<p class="error" role="alert">The cluster's Redis cannot be reached: only this replica is shown until it can.</p>`;
  return html`<p class="note">${parts.intro}</p>
<section aria-labelledby="replica-this" data-replica="${view.nodeId}" data-url="${url ?? ''}">
<h2 id="replica-this">This replica <span class="muted">${replicaName(view.nodeId)}${where(url)}</span></h2>
${parts.local}
</section>
${others.map((replica, index) => remoteSection(replica, index, parts.remote(replica)))}
${status}${view.gone().map(goneNote)}`;
};

const reporting = `when they change and every ${heartbeatMs / 1000} s; one silent for ${(3 * heartbeatMs) / 1000} s is dropped`;

/** The live part of the Servers page in a cluster (what `/console/events` sends as `servers`). */
export const renderReplicaServers = (
  local: readonly BackendStatus[],
  view: ClusterView,
  session: ConsoleSession,
  url: string | undefined,
): Html =>
  replicaSections(view, url, {
    intro: html`Every replica of the cluster reports its servers through Redis (<code>[cluster]</code>) ${reporting}. Restart acts on this replica's servers only: open another replica's console to restart its own.`,
    local: renderServersTable(local, session, { label: 'Servers of this replica', caption: 'Servers behind this replica' }),
    remote: (replica) => {
      const name = replicaName(replica.node);
      const omitted =
        replica.omittedServers !== 0 &&
        html`\n<p class="note">${replica.omittedServers} more servers are not shown: a replica's report is limited to 64 KB.</p>`;
      // A viewer's table: the restart buttons act on this replica's servers only.
      const names = { label: `Servers of replica ${name}`, caption: `Servers behind replica ${name}` };
      return html`${renderServersTable(replica.servers, { ...session, role: 'viewer' }, names)}${omitted}`;
    },
  });

/** The live part of the Sessions page in a cluster (what `/console/events?stream=sessions` sends): each replica's clients. */
export const renderReplicaSessions = (local: readonly ConnectedClient[], view: ClusterView, url: string | undefined): Html =>
  replicaSections(view, url, {
    intro: html`Every replica of the cluster reports its ${snapshotClients} most recently active MCP clients through Redis (<code>[cluster]</code>) ${reporting}.`,
    local: renderSessionsTable(local, Date.now(), {
      label: 'Sessions of this replica',
      caption: 'MCP clients of this replica, the most recently active first',
    }),
    remote: (replica) => {
      const name = replicaName(replica.node);
      return renderSessionsTable(replica.clients, Date.now(), {
        label: `Sessions of replica ${name}`,
        caption: `MCP clients of replica ${name}, the most recently active first`,
      });
    },
  });

/** This replica's activity and the others' latest, merged by time (oldest first), each entry naming its replica; alone: the feed. */
export const clusterActivity = (feed: ActivityFeed | undefined, view: ClusterView | undefined): ActivitySource | undefined =>
  view === undefined ? feed : mergedActivity(feed, view);

const mergedActivity = (feed: ActivityFeed | undefined, view: ClusterView): ActivitySource => ({
  entries: (): ReplicaActivityEntry[] =>
    [
      ...(feed?.entries() ?? []).map((entry) => ({ ...entry, replica: thisReplica })),
      ...view.replicas().flatMap((replica) => replica.activity.map((entry) => ({ ...entry, replica: replicaName(replica.node) }))),
    ].sort((a, b) => a.time.getTime() - b.time.getTime()),
});
