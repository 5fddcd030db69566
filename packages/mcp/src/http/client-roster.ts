/**
 * Who is connected to the HTTP endpoint, for an operator (the gateway console's Sessions page): each
 * 2025-11-25 session its endpoint holds, and the 2026-07-28 clients seen lately. Those hold no
 * session: each request names its client and revision in `_meta`, so they are kept by endpoint,
 * identity, client name and version, counted, and forgotten after some minutes idle (at most `max`,
 * the least recently seen out first). A request costs a map update; listeners hear of changes at
 * most once per `notifyMs`. Session ids are shown by a short prefix only, never whole.
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
export const sessionPrefixLength = 8;

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

const newSeen = (path: string, subject: string | undefined, info: unknown, revision: string | undefined, now: number): Seen => ({
  transport: 'sessionless',
  endpoint: path,
  clientName: isObject(info) ? textOf(info['name']) : undefined,
  clientVersion: isObject(info) ? textOf(info['version']) : undefined,
  protocolVersion: revision,
  subject,
  sessionPrefix: undefined,
  openedAt: now,
  lastActiveAt: now,
  requests: 0,
});

export const createClientRoster = (options: ClientRosterOptions = {}): ClientRosterFeed => {
  const { idleMs = 10 * 60_000, max = 500, notifyMs = 1000 } = options;
  const endpoints: { path: string; sessions: () => Iterable<LegacySession> }[] = [];
  // Least recently seen first: a client seen again moves to the end.
  const seen = new Map<string, Seen>();
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
    for (const [key, client] of seen) {
      if (client.lastActiveAt >= cutoff) break;
      seen.delete(key);
      forgot = true;
    }
    if (forgot) changed();
  };
  const sweep = setInterval(forgetIdle, Math.min(60_000, Math.max(1000, idleMs / 10)));
  sweep.unref();

  const note = (path: string, subject: string | undefined, body: unknown): void => {
    if (!isObject(body) || !isObject(body['params'])) return;
    const meta = body['params']['_meta'];
    if (!isObject(meta)) return;
    const revision = meta[protocolVersionKey];
    const info = meta[clientInfoKey];
    if (typeof revision !== 'string' && info === undefined) return;
    const name = isObject(info) ? info['name'] : undefined;
    const version = isObject(info) ? info['version'] : undefined;
    const key = `${path}\0${subject ?? ''}\0${typeof name === 'string' ? name : ''}\0${typeof version === 'string' ? version : ''}`;
    const now = Date.now();
    let client = seen.get(key);
    if (client === undefined) {
      if (seen.size >= max) seen.delete(seen.keys().next().value as string);
      client = newSeen(path, subject, info, textOf(revision), now);
    } else {
      seen.delete(key);
      if (typeof revision === 'string' && revision !== client.protocolVersion) client.protocolVersion = textOf(revision);
    }
    seen.set(key, client);
    client.lastActiveAt = now;
    client.requests += 1;
    changed();
  };

  const clients = (): ConnectedClient[] => {
    const sessions = endpoints.flatMap(({ path, sessions }) => [...sessions()].map((session) => sessionClient(path, session)));
    return [...sessions, ...[...seen.values()].map((client) => ({ ...client }))].sort((a, b) => b.lastActiveAt - a.lastActiveAt);
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
