/**
 * The revision a client speaks is the revision its requests reach a server with. A Streamable HTTP
 * server on `protocol = "auto"` that the gateway reaches at 2026-07-28 may offer 2025-11-25 too:
 * a 2025-11-25 client's requests (calls, prompts, reads, completions) then go over a second
 * connection at 2025-11-25 — opened on the first such request, shared by every 2025-11-25 client,
 * closed with the server — where the server asks its client (sampling, elicitation, roots) as it
 * does in a 2025 session, and the gateway relays those requests as it does for any 2025-era server.
 * The catalog (lists and their changes) stays the 2026-07-28 connection's. A session that cannot be
 * opened is said once, and its requests are translated through the 2026-07-28 connection until a
 * later attempt (backing off as the server's restarts do) succeeds.
 */
import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { ClientPeer } from '@promptyard/mcp';
import type { BackendConfig } from '../config-backend.js';
import type { UpstreamConnection, UpstreamPeer } from '../sdk/upstream-types.js';

/**
 * The one rule, for every path a request takes: a request from `peer` goes over the server's
 * 2025-11-25 session (rather than `primary`) when its client speaks 2025-11-25 and the server is
 * reached over Streamable HTTP at 2026-07-28 by negotiation (`protocol = "auto"`). A server the
 * gateway logs in to (`auth = "oauth"`) keeps one connection: two holders of one token would each
 * refresh it, and a rotated refresh token used twice revokes the grant.
 */
export const matchesLegacySession = (
  config: Pick<BackendConfig, 'transport' | 'protocol' | 'oauth'>,
  primary: Pick<UpstreamConnection, 'era'>,
  peer: Pick<ClientPeer, 'revision'> | undefined,
): boolean =>
  peer?.revision === '2025-11-25' &&
  config.transport === 'streamable-http' &&
  config.protocol === 'auto' &&
  config.oauth === undefined &&
  primary.era === 'modern';

/** What the session needs of its server: how to connect, who hears the server, and the backoff. */
export interface LegacySessionHost {
  readonly id: string;
  readonly logger: Logger;
  readonly restartInitialMs: number;
  readonly restartMaxMs: number;
  config(): BackendConfig;
  /** Opens a connection at 2025-11-25 (the primary's own connect, with its bounds and timeout). */
  connect(peer: UpstreamPeer, signal: AbortSignal): Promise<UpstreamConnection>;
  /** The clock the backoff is measured on (tests); `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /** The server's requests and notifications, as the primary's go (list changes excepted: the catalog is the primary's). */
  peer(): Omit<UpstreamPeer, 'closed' | 'listChanged' | 'needsLogin'>;
}

/** How the session stands, for `/health`: open, or not to be had (requests translated through the 2026-07-28 connection). */
export type LegacySessionState = 'open' | 'unavailable';

export class LegacySession {
  private connection: UpstreamConnection | undefined;
  private opening: { readonly abort: AbortController; readonly attempt: Promise<UpstreamConnection | undefined> } | undefined;
  private failures = 0;
  private retryAt = 0;
  private warned = false;
  private closing: Promise<void> = Promise.resolve();
  /** Bumped on close: an attempt or a connection of an older generation is let go. */
  private generation = 0;
  private readonly host: LegacySessionHost;

  constructor(host: LegacySessionHost) {
    this.host = host;
  }

  private now(): number {
    return (this.host.now ?? Date.now)();
  }

  /** The open session, if any (what a path that cannot wait uses). */
  current(): UpstreamConnection | undefined {
    return this.connection;
  }

  /** The connection a request from `peer` goes over: the session (opened now if need be), else `primary`. */
  async pick(primary: UpstreamConnection, peer: ClientPeer | undefined): Promise<UpstreamConnection> {
    if (!matchesLegacySession(this.host.config(), primary, peer)) return primary;
    return this.connection ?? (await this.open()) ?? primary;
  }

  /** The connection a request from `peer` goes over now; `undefined` without `primary` or when the session it needs is not open yet. */
  pickNow(primary: UpstreamConnection | undefined, peer: ClientPeer | undefined): UpstreamConnection | undefined {
    if (primary === undefined) return undefined;
    return matchesLegacySession(this.host.config(), primary, peer) ? this.connection : primary;
  }

  state(): LegacySessionState | undefined {
    if (this.connection !== undefined) return 'open';
    return this.failures > 0 ? 'unavailable' : undefined;
  }

  /**
   * Closes the session (the server stopped, lost or waiting for a login); the next 2025-11-25 request
   * opens it again. Closing again resolves when the first close did.
   */
  close(): Promise<void> {
    this.generation++;
    const { connection, opening } = this;
    this.connection = undefined;
    this.opening = undefined;
    this.failures = 0;
    this.retryAt = 0;
    opening?.abort.abort();
    if (connection !== undefined) this.closing = connection.close();
    return this.closing;
  }

  private open(): Promise<UpstreamConnection | undefined> {
    if (this.opening !== undefined) return this.opening.attempt;
    if (this.now() < this.retryAt) return Promise.resolve(undefined);
    const abort = new AbortController();
    const attempt = this.attempt(this.generation, abort);
    this.opening = { abort, attempt };
    return attempt;
  }

  private async attempt(generation: number, abort: AbortController): Promise<UpstreamConnection | undefined> {
    const { host } = this;
    let connection: UpstreamConnection;
    try {
      connection = await host.connect(this.peerFor(generation), abort.signal);
    } catch (error) {
      if (generation === this.generation) this.failed(error);
      return undefined;
    } finally {
      if (generation === this.generation) this.opening = undefined;
    }
    if (generation !== this.generation) {
      await connection.close();
      return undefined;
    }
    this.connection = connection;
    this.failures = 0;
    this.retryAt = 0;
    if (this.warned) host.logger.info('server reached at 2025-11-25 for 2025-11-25 clients again', { server: host.id });
    this.warned = false;
    return connection;
  }

  private failed(error: unknown): void {
    const { host } = this;
    this.retryAt = this.now() + Math.min(host.restartMaxMs, host.restartInitialMs * 2 ** this.failures);
    this.failures++;
    if (this.warned) return;
    this.warned = true;
    host.logger.warn(
      `could not open a 2025-11-25 session to server "${host.id}" (${describeError(error)}); its 2025-11-25 clients' requests are translated through its 2026-07-28 connection until one opens`,
      { server: host.id },
    );
  }

  /** The server's requests and notifications on this session; its close lets the session go (reopened on the next request). */
  private peerFor(generation: number): UpstreamPeer {
    const current = (): boolean => generation === this.generation;
    const peer = this.host.peer();
    return {
      ...peer,
      log: (params) => {
        if (current()) peer.log(params);
      },
      resourceUpdated: (uri) => {
        if (current()) peer.resourceUpdated(uri);
      },
      listChanged: () => {},
      // A token that runs out is the primary connection's to report; this attempt just fails.
      needsLogin: () => {},
      closed: (error) => {
        if (!current() || this.connection === undefined) return;
        const connection = this.connection;
        this.connection = undefined;
        this.generation++;
        void connection.close();
        this.host.logger.info('2025-11-25 session closed; the next 2025-11-25 request opens another', {
          server: this.host.id,
          ...(error === undefined ? {} : { reason: error.message }),
        });
      },
    };
  }
}
