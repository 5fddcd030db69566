/**
 * Who is connected to the HTTP endpoint, for an operator (the gateway console's Sessions page): each
 * 2025-11-25 session its endpoint holds, and the 2026-07-28 clients seen lately. Those hold no
 * session: each request names its client and revision in `_meta`, so they are kept by endpoint,
 * identity, client name and version, counted, and forgotten after some minutes idle (at most `max`,
 * the least recently seen out first). A request costs four map lookups and two counters, nothing
 * allocated; listeners hear of changes at most once per `notifyMs`. Session ids are shown by a short
 * prefix only, never whole.
 */
import { isObject } from '../json-shapes.js';
import type { LegacySession } from '../sessions/session-table.js';

/** One client as the operator sees it. */
export interface ConnectedClient {
  /** `session`: a 2025-11-25 session (`Mcp-Session-Id`); `sessionless`: 2026-07-28 requests, each naming its client. */
  readonly transport: 'session' | 'sessionless';
  /** The MCP endpoint's path (`/mcp`, a profile's `/mcp/<name>`). */
  readonly endpoint: string;
  readonly clientName: string | undefined;
  readonly clientVersion: string | undefined;
  /** The session's negotiated revision, or the one the last request named. */
  readonly protocolVersion: string | undefined;
  /** Who the endpoint authenticated; `undefined` without authentication. */
  readonly subject: string | undefined;
  /** The first characters of the session's id: enough to tell sessions apart, never the id itself. */
  readonly sessionPrefix: string | undefined;
  /** When the session opened, or the client was first seen (ms since the epoch). */
  readonly openedAt: number;
  readonly lastActiveAt: number;
  readonly requests: number;
}

/** What the endpoint's handle offers an operator's view. */
export interface ClientRoster {
  /** Every session held and every sessionless client seen lately, the most recently active first. */
  clients(): readonly ConnectedClient[];
  /** Called (bursts coalesced) after a session opened or closed or a client was active; returns the unsubscribe. */
  onClientsChange(listener: () => void): () => void;
}

export interface ClientRosterOptions {
  /** A sessionless client unseen this long is forgotten (default 10 minutes). */
  readonly idleMs?: number;
  /** Sessionless clients kept at most (default 500). */
  readonly max?: number;
  /** Listeners are told at most this often (default 1 s). */
  readonly notifyMs?: number;
}

/** The roster as the endpoint feeds it. */
export interface ClientRosterFeed extends ClientRoster {
  /** The sessions of endpoint `path`, read when the roster is listed. */
  addEndpoint(path: string, sessions: () => Iterable<LegacySession>): void;
  /** A request to endpoint `path` by `subject`: a 2026-07-28 one (its `_meta` names a revision or client) is counted. */
  note(path: string, subject: string | undefined, body: unknown): void;
  /** Something listed changed (a session opened, closed or was used). */
  changed(): void;
  close(): void;
}

type Seen = { -readonly [K in keyof ConnectedClient]: ConnectedClient[K] };

const clientInfoKey = 'io.modelcontextprotocol/clientInfo';
const protocolVersionKey = 'io.modelcontextprotocol/protocolVersion';
const maxText = 128;
const sessionPrefixLength = 8;

/** A client-chosen string, bounded; anything else is unknown. */
const textOf = (value: unknown): string | undefined =>
  typeof value !== 'string' ? undefined : value.length > maxText ? value.slice(0, maxText) : value;

const sessionClient = (path: string, session: LegacySession): ConnectedClient => {
  const info = session.server.getClientVersion();
  return {
    transport: 'session',
    endpoint: path,
    clientName: textOf(info?.name),
    clientVersion: textOf(info?.version),
    protocolVersion: session.server.getNegotiatedProtocolVersion(),
    subject: session.subject,
    sessionPrefix: session.id.slice(0, sessionPrefixLength),
    openedAt: session.openedAt,
    lastActiveAt: session.lastUsed,
    requests: session.requests,
  };
};

const newSeen = (path: string, subject: string | undefined, name: string | undefined, version: string | undefined, now: number): Seen => ({
  transport: 'sessionless',
  endpoint: path,
  clientName: name,
  clientVersion: version,
  protocolVersion: undefined,
  subject,
  sessionPrefix: undefined,
  openedAt: now,
  lastActiveAt: now,
  requests: 0,
});

/**
 * The sessionless clients by endpoint, subject, name and version: four lookups with the request's own
 * strings. A key joined from them cost ~10× as much per request (a new string to flatten and hash).
 */
class SeenClients {
  readonly #byEndpoint = new Map<string, Map<string, Map<string, Map<string, Seen>>>>();
  /** Every client, first seen first. */
  readonly all = new Set<Seen>();

  get(path: string, subject: string, name: string, version: string): Seen | undefined {
    return this.#byEndpoint.get(path)?.get(subject)?.get(name)?.get(version);
  }

  add(client: Seen): void {
    const bySubject = this.#byEndpoint.get(client.endpoint) ?? new Map<string, Map<string, Map<string, Seen>>>();
    this.#byEndpoint.set(client.endpoint, bySubject);
    const byName = bySubject.get(client.subject ?? '') ?? new Map<string, Map<string, Seen>>();
    bySubject.set(client.subject ?? '', byName);
    const byVersion = byName.get(client.clientName ?? '') ?? new Map<string, Seen>();
    byName.set(client.clientName ?? '', byVersion);
    byVersion.set(client.clientVersion ?? '', client);
    this.all.add(client);
  }

  remove(client: Seen): void {
    this.all.delete(client);
    const bySubject = this.#byEndpoint.get(client.endpoint);
    const byName = bySubject?.get(client.subject ?? '');
    const byVersion = byName?.get(client.clientName ?? '');
    byVersion?.delete(client.clientVersion ?? '');
    if (byVersion?.size === 0) byName?.delete(client.clientName ?? '');
    if (byName?.size === 0) bySubject?.delete(client.subject ?? '');
    if (bySubject?.size === 0) this.#byEndpoint.delete(client.endpoint);
  }

  /** The client seen least recently (a scan, made only when a new client finds the roster full). */
  leastRecent(): Seen | undefined {
    let oldest: Seen | undefined;
    for (const client of this.all) if (oldest === undefined || client.lastActiveAt < oldest.lastActiveAt) oldest = client;
    return oldest;
  }
}

/** A request's `_meta`, where a 2026-07-28 request names its revision and client; `undefined` when it has none. */
const metaOf = (body: unknown): Record<string, unknown> | undefined => {
  if (!isObject(body) || !isObject(body['params'])) return undefined;
  const meta = body['params']['_meta'];
  return isObject(meta) ? meta : undefined;
};

export const createClientRoster = (options: ClientRosterOptions = {}): ClientRosterFeed => {
  const { idleMs = 10 * 60_000, max = 500, notifyMs = 1000 } = options;
  const endpoints: { path: string; sessions: () => Iterable<LegacySession> }[] = [];
  const seen = new SeenClients();
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;

  const notify = (): void => {
    timer = undefined;
    for (const listener of listeners) listener();
  };
  const changed = (): void => {
    if (timer !== undefined || listeners.size === 0) return;
    timer = setTimeout(notify, notifyMs);
    timer.unref();
  };
  const forgetIdle = (): void => {
    const cutoff = Date.now() - idleMs;
    let forgot = false;
    for (const client of seen.all) {
      if (client.lastActiveAt >= cutoff) continue;
      seen.remove(client);
      forgot = true;
    }
    if (forgot) changed();
  };
  const sweep = setInterval(forgetIdle, Math.min(60_000, Math.max(1000, idleMs / 10)));
  sweep.unref();

  const note = (path: string, subject: string | undefined, body: unknown): void => {
    const meta = metaOf(body);
    const revision = meta?.[protocolVersionKey];
    const info = meta?.[clientInfoKey];
    if (typeof revision !== 'string' && info === undefined) return;
    const name = isObject(info) ? textOf(info['name']) : undefined;
    const version = isObject(info) ? textOf(info['version']) : undefined;
    const now = Date.now();
    let client = seen.get(path, subject ?? '', name ?? '', version ?? '');
    if (client === undefined) {
      const room = seen.all.size >= max ? seen.leastRecent() : undefined;
      if (room !== undefined) seen.remove(room);
      client = newSeen(path, subject, name, version, now);
      seen.add(client);
    }
    if (typeof revision === 'string' && revision !== client.protocolVersion) client.protocolVersion = textOf(revision);
    client.lastActiveAt = now;
    client.requests += 1;
    changed();
  };

  const clients = (): ConnectedClient[] => {
    const sessions = endpoints.flatMap(({ path, sessions }) => [...sessions()].map((session) => sessionClient(path, session)));
    return [...sessions, ...[...seen.all].map((client) => ({ ...client }))].sort((a, b) => b.lastActiveAt - a.lastActiveAt);
  };

  return {
    addEndpoint: (path, sessions) => void endpoints.push({ path, sessions }),
    note,
    changed,
    clients,
    onClientsChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      clearInterval(sweep);
      if (timer !== undefined) clearTimeout(timer);
      listeners.clear();
    },
  };
};
