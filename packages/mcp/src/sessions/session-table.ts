import type { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { RelayChannel } from '../handlers.js';
import type { ResumableStreams } from './resumable-streams.js';

/** A 2025-era session this node holds: opened here, or restored from the cluster's record. */
export interface LegacySession {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  lastUsed: number;
  /** When it was opened (or restored) here. */
  readonly openedAt: number;
  /** Requests it served here: what the operator's list of clients shows. */
  requests: number;
  /** Who opened it: another caller presenting its id is told it does not exist. */
  readonly subject: string | undefined;
  /** The relay's channel for this session, opened on its first relayed message. */
  channel?: RelayChannel;
  /** Its SSE streams as this process keeps them for `Last-Event-ID` resumes (without a cluster, whose store keeps the events). */
  readonly resumable?: ResumableStreams;
}

/**
 * The sessions this node holds, least recently used first: at most `maxSessions` (the oldest is
 * closed to make room), and one unused for `sessionIdleMs` is closed by a periodic sweep.
 */
export class SessionTable {
  readonly #sessions = new Map<string, LegacySession>();
  readonly #maxSessions: number;
  readonly #sweep: ReturnType<typeof setInterval>;
  readonly #onChange: () => void;

  /** `onChange` hears of every session added, used or dropped (the endpoint's list of clients). */
  constructor(maxSessions: number, sessionIdleMs: number, onChange: () => void = () => {}) {
    this.#maxSessions = maxSessions;
    this.#onChange = onChange;
    this.#sweep = setInterval(
      () => {
        const now = Date.now();
        const cutoff = now - sessionIdleMs;
        for (const [id, session] of this.#sessions) {
          if (session.lastUsed < cutoff) void this.closeLocal(id);
          // An idle session's old events leave too, not only at its next event.
          else session.resumable?.events.prune(now);
        }
      },
      Math.min(60_000, sessionIdleMs),
    );
    this.#sweep.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Session `id` as held, without marking it used. */
  get(id: string): LegacySession | undefined {
    return this.#sessions.get(id);
  }

  set(id: string, session: LegacySession): void {
    this.#sessions.set(id, session);
    this.#onChange();
  }

  values(): IterableIterator<LegacySession> {
    return this.#sessions.values();
  }

  /** The session `id` if this node holds it, marked used. */
  use(id: string): LegacySession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    session.lastUsed = Date.now();
    session.requests += 1;
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    this.#onChange();
    return session;
  }

  /** Drops session `id` from the table, its relay channel closed and its kept events let go (the process's budget has their room back). */
  forget(id: string): LegacySession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    this.#sessions.delete(id);
    session.channel?.close();
    session.resumable?.events.clear();
    this.#onChange();
    return session;
  }

  /** Closes this node's copy; the cluster's record stays for the other nodes. */
  async closeLocal(id: string): Promise<void> {
    const session = this.forget(id);
    if (session === undefined) return;
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  async makeRoom(): Promise<void> {
    if (this.#sessions.size < this.#maxSessions) return;
    const oldest = this.#sessions.keys().next().value;
    if (oldest !== undefined) await this.closeLocal(oldest);
  }

  /** Stops the sweep and closes every session held. */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    await Promise.all([...this.#sessions.keys()].map((id) => this.closeLocal(id)));
  }
}
