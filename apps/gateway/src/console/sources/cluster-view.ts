/**
 * The console's view of the cluster (`[cluster] redis_url`): each replica writes a snapshot of its
 * own servers and latest activity under its node id in the shared map `console-replicas`, when
 * something changed (at most once a second) and every 5 s as a heartbeat; it reads the others'
 * whenever the map tells of a change and at each heartbeat. A snapshot not rewritten for three
 * heartbeats is a replica that stopped: it is no longer shown, and any replica removes it from the
 * map after ten minutes. A replica deletes its own when it closes.
 *
 * A snapshot is JSON of at most 64 KB: the node id, its URL, when it was written, its servers'
 * status (as the Servers page reads it, the last error cut to 300 characters), its last 100
 * activity entries and its 50 most recently active MCP clients (the Sessions page's rows); older
 * entries, then clients, then servers are left out when it would be larger.
 */
import type { Logger, SharedMap } from '@promptyard/core';
import type { ConnectedClient } from '@promptyard/mcp';
import type { BackendStatus } from '@promptyard/router';
import type { ActivityEntry } from './activity-feed.js';

/** The shared map every replica's snapshot is in. */
export const snapshotMapName = 'console-replicas';
export const heartbeatMs = 5000;
const minGapMs = 1000;
const staleHeartbeats = 3;
const pruneMs = 10 * 60_000;
export const maxSnapshotBytes = 64 * 1024;
export const snapshotActivity = 100;
export const snapshotClients = 50;
const maxTextLength = 300;

/** Another replica as it last reported. */
export interface ReplicaSnapshot {
  readonly node: string;
  /** Its endpoint's URL (`[transport] public_url`, else where it listens), when it knew it. */
  readonly url: string | undefined;
  readonly writtenAt: Date;
  readonly servers: readonly BackendStatus[];
  /** Servers left out to keep the snapshot within its bound. */
  readonly omittedServers: number;
  /** Its latest activity, oldest first. */
  readonly activity: readonly ActivityEntry[];
  /** Its most recently active MCP clients, most recent first (none: a stdio replica, or an older gateway's snapshot). */
  readonly clients: readonly ConnectedClient[];
}

/** A replica that stopped writing: its snapshot is still in the map, no longer shown. */
export interface GoneReplica {
  readonly node: string;
  readonly url: string | undefined;
  readonly lastSeen: Date;
}

export interface ClusterView {
  readonly nodeId: string;
  /** The other replicas that reported within the last three heartbeats, by URL then node id. */
  replicas(): readonly ReplicaSnapshot[];
  /** The other replicas that stopped reporting (until their snapshots are removed). */
  gone(): readonly GoneReplica[];
  /** `false` after the map could not be read (Redis unreachable), until it can again. */
  reachable(): boolean;
  /** Called after another replica's snapshot changed, came or went; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Stops writing and deletes this replica's snapshot (before the cluster closes). */
  close(): Promise<void>;
}

/** Time as the view sees it: injectable for tests. */
export interface Clock {
  now(): number;
  /** Calls `run` after `ms`; returns the cancel. */
  after(ms: number, run: () => void): () => void;
}

const systemClock: Clock = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface ClusterViewOptions {
  readonly map: SharedMap;
  readonly nodeId: string;
  readonly url: () => string | undefined;
  readonly servers: () => readonly BackendStatus[];
  readonly activity?: (() => readonly ActivityEntry[]) | undefined;
  /** Its endpoint's MCP clients, most recently active first; absent: none (a stdio gateway). */
  readonly clients?: (() => readonly ConnectedClient[]) | undefined;
  /** Tells of this replica's changes (servers, activity); returns the unsubscribe. */
  readonly changes: (listener: () => void) => () => void;
  readonly logger: Logger;
  readonly clock?: Clock;
}

type EntryJson = Omit<ActivityEntry, 'time'> & { readonly time: string };

interface SnapshotJson {
  readonly node: string;
  readonly url?: string | undefined;
  readonly writtenAt: number;
  readonly servers: readonly BackendStatus[];
  readonly omittedServers?: number;
  readonly activity: readonly EntryJson[];
  readonly clients?: readonly ConnectedClient[];
}

const cut = (text: string | undefined): string | undefined =>
  text === undefined || text.length <= maxTextLength ? text : `${text.slice(0, maxTextLength - 1)}…`;

/** This replica's snapshot as JSON, within `maxSnapshotBytes`: the oldest entries go first, then the least active clients, then servers from the end. */
export const encodeSnapshot = (
  node: string,
  url: string | undefined,
  writtenAt: number,
  servers: readonly BackendStatus[],
  activity: readonly ActivityEntry[],
  clients: readonly ConnectedClient[] = [],
): string => {
  let shownClients = clients.slice(0, snapshotClients);
  let kept = servers.map((server) => ({ ...server, lastError: cut(server.lastError) }));
  let entries: EntryJson[] = activity
    .slice(-snapshotActivity)
    .map((entry) => ({ ...entry, reason: cut(entry.reason), time: entry.time.toISOString() }));
  const encode = (): string => {
    const omittedServers = servers.length - kept.length;
    const snapshot: SnapshotJson = {
      node,
      url,
      writtenAt,
      servers: kept,
      activity: entries,
      clients: shownClients,
      ...(omittedServers > 0 ? { omittedServers } : {}),
    };
    return JSON.stringify(snapshot);
  };
  let json = encode();
  while (Buffer.byteLength(json) > maxSnapshotBytes && entries.length > 0) {
    entries = entries.slice(Math.ceil(entries.length / 2));
    json = encode();
  }
  while (Buffer.byteLength(json) > maxSnapshotBytes && shownClients.length > 0) {
    shownClients = shownClients.slice(0, Math.floor(shownClients.length / 2));
    json = encode();
  }
  while (Buffer.byteLength(json) > maxSnapshotBytes && kept.length > 0) {
    kept = kept.slice(0, Math.floor(kept.length / 2));
    json = encode();
  }
  return json;
};

/** A snapshot read from the map; `undefined` for one that is not (a newer or older gateway's, or damaged). */
export const decodeSnapshot = (json: string): ReplicaSnapshot | undefined => {
  try {
    const parsed = JSON.parse(json) as SnapshotJson;
    if (typeof parsed.node !== 'string' || typeof parsed.writtenAt !== 'number' || !Array.isArray(parsed.servers)) return undefined;
    return {
      node: parsed.node,
      url: typeof parsed.url === 'string' && parsed.url !== '' ? parsed.url : undefined,
      writtenAt: new Date(parsed.writtenAt),
      servers: parsed.servers,
      omittedServers: parsed.omittedServers ?? 0,
      activity: (Array.isArray(parsed.activity) ? parsed.activity : []).map((entry) => ({ ...entry, time: new Date(entry.time) })),
      clients: Array.isArray(parsed.clients) ? parsed.clients : [],
    };
  } catch {
    return undefined;
  }
};

/** What a snapshot says besides the time: uptime and retry countdowns tick by themselves, and an entry is known by its number. */
const contentOf = (
  url: string | undefined,
  servers: readonly BackendStatus[],
  activity: readonly ActivityEntry[],
  clients: readonly ConnectedClient[],
): string =>
  JSON.stringify([
    url,
    servers.map(({ uptimeSeconds: _uptime, nextRetrySeconds: _retry, ...rest }) => rest),
    activity.length,
    activity.at(-1)?.seq,
    clients.slice(0, snapshotClients),
  ]);

export const createClusterView = (options: ClusterViewOptions): ClusterView => {
  const clock = options.clock ?? systemClock;
  const writer = snapshotWriter(options, clock);
  const reader = snapshotReader(options, clock);
  return {
    nodeId: options.nodeId,
    replicas: reader.replicas,
    gone: reader.gone,
    reachable: reader.reachable,
    subscribe: reader.subscribe,
    close: async () => {
      reader.close();
      await writer.close();
    },
  };
};

/** Writes this replica's snapshot: on a change (at most once a second, unchanged content skipped) and every heartbeat. */
const snapshotWriter = (options: ClusterViewOptions, clock: Clock) => {
  const { map, nodeId, logger } = options;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let lastContent = '';
  let cancelBeat: (() => void) | undefined;
  let cancelChange: (() => void) | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  let failing = false;
  const write = (heartbeat: boolean): void => {
    const now = clock.now();
    const [url, servers, activity, clients] = [options.url(), options.servers(), options.activity?.() ?? [], options.clients?.() ?? []];
    const content = contentOf(url, servers, activity, clients);
    if (!heartbeat && content === lastContent) return;
    lastWrite = now;
    lastContent = content;
    const json = encodeSnapshot(nodeId, url, now, servers, activity, clients);
    writing = writing
      .then(() => map.set(new Map([[nodeId, json]])))
      .then(
        () => void (failing = false),
        (error: unknown) => {
          // Said once per outage: the next heartbeat tries again.
          if (!failing)
            logger.warn('console: could not share this replica with the cluster; trying again at the next heartbeat', {
              reason: (error as Error).message,
            });
          failing = true;
          lastContent = '';
        },
      );
  };
  const beat = (): void => {
    cancelBeat = clock.after(heartbeatMs, beat);
    write(true);
  };
  const changed = (): void => {
    if (closed || cancelChange !== undefined) return;
    cancelChange = clock.after(Math.max(0, lastWrite + minGapMs - clock.now()), () => {
      cancelChange = undefined;
      if (!closed) write(false);
    });
  };
  const stopChanges = options.changes(changed);
  beat();
  return {
    close: async (): Promise<void> => {
      closed = true;
      stopChanges();
      cancelBeat?.();
      cancelChange?.();
      await writing;
      await map
        .delete([nodeId])
        .catch((error: unknown) =>
          logger.debug('console: could not remove this replica from the cluster view', { reason: (error as Error).message }),
        );
    },
  };
};

interface Seen {
  readonly snapshot: ReplicaSnapshot;
  /** When this replica last saw it change (its own clock: the writer's may differ). */
  readonly seenAt: number;
}

/** The map's snapshots into `seen` (its own left out); those silent for ten minutes are removed from the map. */
const readSnapshots = async (map: SharedMap, nodeId: string, seen: Map<string, Seen>, now: number): Promise<void> => {
  const all = await map.getAll();
  for (const key of seen.keys()) if (!all.has(key)) seen.delete(key);
  const expired: string[] = [];
  for (const [key, json] of all) {
    const snapshot = key === nodeId ? undefined : decodeSnapshot(json);
    if (snapshot === undefined) continue;
    const before = seen.get(key);
    const written = snapshot.writtenAt.getTime();
    const seenAt = before === undefined ? Math.min(now, written) : before.snapshot.writtenAt.getTime() === written ? before.seenAt : now;
    seen.set(key, { snapshot, seenAt });
    if (now - seenAt > pruneMs) expired.push(key);
  }
  if (expired.length === 0) return;
  for (const key of expired) seen.delete(key);
  await map.delete(expired);
};

/** Reads the other replicas' snapshots: when the map tells of a change, and every heartbeat (to see one go stale). */
const snapshotReader = (options: ClusterViewOptions, clock: Clock) => {
  const { map, nodeId, logger } = options;
  const seen = new Map<string, Seen>();
  const listeners = new Set<() => void>();
  let ok = true;
  let refreshing = false;
  let again = false;
  let closed = false;
  let shown = '';
  const live = (entry: Seen): boolean => clock.now() - entry.seenAt < heartbeatMs * staleHeartbeats;
  const notify = (): void => {
    const next = JSON.stringify([
      ok,
      [...seen.values()].map((entry) => [entry.snapshot.node, entry.snapshot.writtenAt.getTime(), live(entry)]),
    ]);
    if (next === shown) return;
    shown = next;
    for (const listener of listeners) listener();
  };
  const read = (): Promise<void> => readSnapshots(map, nodeId, seen, clock.now());
  const refresh = async (): Promise<void> => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    do {
      again = false;
      try {
        await read();
        ok = true;
      } catch (error) {
        if (ok)
          logger.warn('console: could not read the other replicas from the cluster; showing this replica only until it can', {
            reason: (error as Error).message,
          });
        ok = false;
      }
    } while (again && !closed);
    refreshing = false;
    if (!closed) notify();
  };
  let cancelTick: (() => void) | undefined;
  const tick = (): void => {
    cancelTick = clock.after(heartbeatMs, tick);
    void refresh();
  };
  const stopChanges = map.onChange(() => void refresh());
  tick();
  const byUrl = (a: ReplicaSnapshot | GoneReplica, b: ReplicaSnapshot | GoneReplica): number =>
    (a.url ?? '').localeCompare(b.url ?? '') || a.node.localeCompare(b.node);
  return {
    replicas: (): ReplicaSnapshot[] =>
      ok
        ? [...seen.values()]
            .filter(live)
            .map((entry) => entry.snapshot)
            .sort(byUrl)
        : [],
    gone: (): GoneReplica[] =>
      ok
        ? [...seen.values()]
            .filter((entry) => !live(entry))
            .map(({ snapshot, seenAt }) => ({ node: snapshot.node, url: snapshot.url, lastSeen: new Date(seenAt) }))
            .sort(byUrl)
        : [],
    reachable: () => ok,
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: (): void => {
      closed = true;
      cancelTick?.();
      stopChanges();
      listeners.clear();
    },
  };
};
