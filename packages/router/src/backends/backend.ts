import { describeError, PromptyardError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { BackendConfig } from '../config-backend.js';
import { GATEWAY_LOOP_MARK } from './gateway-chain.js';
import { connectUpstreamLazily, upstreamSpecOf } from './backend-spec.js';
import type { AttemptNotes } from './backend-spec.js';
import { watchForLogin } from '../upstream-oauth/oauth-store.js';
import type { Deviation } from '../sdk/liberal-results.js';
import type { Era, ListName, ServerCapabilities, UpstreamConnection, UpstreamPeer } from '../sdk/upstream-types.js';
import { emptyLists, fetchLists } from './backend-lists.js';
import type { BackendLists, Fetched, ListRequest } from './backend-lists.js';
import { CapNotes } from './definition-cap.js';
import { StderrTail } from './stderr-tail.js';
import { countsOf, listChangesText, readyFields, unavailableText } from './backend-status.js';
import { ListRefresh } from './list-refresh.js';
import type { RefreshHost } from './list-refresh.js';
import type { BackendState, BackendStatus, BackendTimings } from './backend-status.js';
import { OversizeTally } from './oversize-tally.js';
import { deviationWarnings } from './deviation-warnings.js';
import { CallWindow } from '../calls/call-window.js';

/** What a backend reports to the router. */
type HandledHere = 'listChanged' | 'closed' | 'stderr' | 'needsLogin' | 'warn' | 'oversized' | 'deviated';
export interface BackendEvents extends Omit<UpstreamPeer, HandledHere> {
  /** The backend's lists changed (after a list_changed, a (re)connect, or a disconnect). */
  changed(backend: Backend): void;
  /** State, error or counts changed. */
  status(backend: Backend): void;
  /** The backend sent a message over `[limits] max_message_bytes` (logged and dropped). */
  oversized(backend: Backend): void;
  stderr(backend: Backend, line: string): void;
}

const allLists = ['tools', 'prompts', 'resources'] as const;

/**
 * One supervised backend: a single upstream connection shared by every downstream client, its lists,
 * and a restart loop with exponential backoff. Calls to a backend that is not ready fail at once with
 * an error naming it; a crash fails the calls in flight and schedules a restart, after which the
 * lists are fetched again and the router told.
 */
export class Backend {
  state: BackendState = 'stopped';
  lists: BackendLists = emptyLists;
  restarts = 0;
  lastError: string | undefined;
  inFlight = 0;
  /** The calls of the last five minutes: counts, failures, p50/p95 (fed by `BackendCall`). */
  readonly calls = new CallWindow();
  private connection: UpstreamConnection | undefined;
  private readyAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryAt = 0;
  private attempt = 0;
  private generation = 0;
  /** The generation whose attempt has already failed (reported once). */
  private failedGeneration = -1;
  private readonly stderrTail = new StderrTail();
  /** The live connection's lists kept fresh (list_changed, polling, unknown names). */
  private refresher: ListRefresh | undefined;
  /** The connection attempt under way: `stop()` ends it rather than leaving it to the connect timeout. */
  private connecting: { readonly abort: AbortController; readonly attempt: Promise<UpstreamConnection> } | undefined;
  /** A server that cannot list its skills is reported, and still serves everything else. */
  private readonly skillsFailed = (error: unknown): void =>
    this.logger.warn("could not list the server's skills", { server: this.id, reason: describeError(error) });
  /** Stops watching the token file (while the server needs a login). */
  private stopLoginWatch: () => void = () => {};
  private readonly oversize: OversizeTally;
  private readonly deviated: (deviation: Deviation) => void; // each kind warned about once per server
  private readonly capNotes: CapNotes;

  config: BackendConfig;
  private readonly timings: BackendTimings;
  private readonly events: BackendEvents;
  private readonly logger: Logger;
  private readonly clientInfo: { readonly name: string; readonly version: string };

  constructor(
    config: BackendConfig,
    timings: BackendTimings,
    events: BackendEvents,
    logger: Logger,
    clientInfo: { readonly name: string; readonly version: string },
  ) {
    this.config = config;
    this.timings = timings;
    this.events = events;
    this.logger = logger;
    this.clientInfo = clientInfo;
    this.oversize = new OversizeTally(config.id, timings.maxMessageBytes, logger, () => events.oversized(this));
    this.deviated = deviationWarnings(config.id, logger);
    this.capNotes = new CapNotes(config.id, timings.definitionCap, logger);
  }

  get id(): string {
    return this.config.id;
  }

  get capabilities(): ServerCapabilities {
    return this.connection?.capabilities ?? {};
  }

  get era(): Era | undefined {
    return this.connection?.era;
  }

  upstreamOrUndefined(): UpstreamConnection | undefined {
    return this.connection;
  }

  /** The live connection, or an error that names the backend and says why it is not there. */
  get upstream(): UpstreamConnection {
    if (this.connection !== undefined && this.state === 'ready') return this.connection;
    throw new PromptyardError('BACKEND_UNAVAILABLE', this.unavailableMessage(), { data: { server: this.id, state: this.state } });
  }

  unavailableMessage(): string {
    return unavailableText(this.id, this.state, this.lastError, this.retryAt);
  }

  /** Starts the backend (or marks it disabled); resolves once the first attempt settled. */
  async start(): Promise<void> {
    if (!this.config.enabled) {
      this.setState('disabled');
      return;
    }
    this.attempt = 0;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.generation++;
    this.stopLoginWatch();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const connection = this.detach();
    const connecting = this.connecting;
    this.connecting = undefined;
    connecting?.abort.abort();
    this.lists = emptyLists;
    this.setState(this.config.enabled ? 'stopped' : 'disabled');
    // An attempt that connected just as it was stopped is closed here too (closing twice is harmless).
    await Promise.all([
      connection?.close(),
      connecting?.attempt.then(
        (late) => late.close(),
        () => {},
      ),
    ]);
  }

  /** Stops and starts again now, with a fresh backoff (the TUI's and config reload's restart). */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  status(): BackendStatus {
    const connection = this.state === 'ready' ? this.connection : undefined;
    return {
      id: this.id,
      state: this.state,
      transport: this.config.transport,
      era: connection?.era,
      protocolVersion: connection?.protocolVersion,
      protocolFallback: connection?.fallbackReason,
      listChanges: connection === undefined ? undefined : listChangesText(connection.listChanges, this.refresher?.pollSeconds),
      server: connection?.serverInfo === undefined ? undefined : `${connection.serverInfo.name} ${connection.serverInfo.version}`,
      pid: connection?.pid,
      uptimeSeconds: connection === undefined ? undefined : Math.round((Date.now() - this.readyAt) / 1000),
      restarts: this.restarts,
      lastError: this.lastError,
      nextRetrySeconds:
        this.state === 'restarting' && this.retryAt > 0 ? Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000)) : undefined,
      counts: countsOf(this.lists),
      ...(this.state === 'ready' && this.capNotes.current.length > 0 ? { degraded: this.capNotes.current } : {}),
      inFlight: this.inFlight,
      calls: this.calls.summary(),
      ...this.oversize.status(),
    };
  }

  private setState(state: BackendState): void {
    this.state = state;
    this.events.status(this);
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.setState(this.attempt === 0 && this.restarts === 0 ? 'starting' : 'restarting');
    const notes: AttemptNotes = { startsThisGateway: false, loginError: undefined };
    const connection = await this.attemptConnection(generation, this.peerFor(generation, notes), notes);
    if (connection !== undefined) await this.serve(generation, connection);
  }

  /** The backend's requests and notifications, heard while `generation` is the current attempt's. */
  private peerFor(generation: number, notes: AttemptNotes): UpstreamPeer {
    const current = (): boolean => generation === this.generation;
    return {
      sampling: (params) => this.events.sampling(params),
      elicitation: (params) => this.events.elicitation(params),
      roots: () => this.events.roots(),
      log: (params) => {
        if (current()) this.events.log(params);
      },
      resourceUpdated: (uri) => {
        if (current()) this.events.resourceUpdated(uri);
      },
      listChanged: (list) => {
        if (current()) void this.refresher?.refresh([list]);
      },
      stderr: (line) => {
        if (line.includes(GATEWAY_LOOP_MARK)) notes.startsThisGateway = true;
        this.stderrTail.push(line);
        this.events.stderr(this, line);
      },
      closed: (error) => {
        if (current()) this.lost(error);
      },
      needsLogin: (error) => {
        if (!current()) return;
        notes.loginError = error;
        // Connected: the token ran out under way. Connecting: the attempt's failure reports it.
        if (this.connection !== undefined) void this.waitForLogin(error);
      },
      warn: (message, reason) => this.logger.warn(message, { server: this.id, reason }),
      oversized: (message) => this.oversize.record(message),
      deviated: (deviation) => this.deviated(deviation),
    };
  }

  /** One connection attempt, stoppable; a failure is reported here and gives `undefined`, as does a stale attempt. */
  private async attemptConnection(generation: number, peer: UpstreamPeer, notes: AttemptNotes): Promise<UpstreamConnection | undefined> {
    const abort = new AbortController();
    const attempt = connectUpstreamLazily(upstreamSpecOf(this.config), peer, {
      ...this.clientInfo,
      connectTimeoutMs: this.timings.connectMs,
      signal: abort.signal,
      limit: { server: this.id, maxBytes: this.timings.maxMessageBytes },
    });
    this.connecting = { abort, attempt };
    let connection: UpstreamConnection;
    try {
      connection = await attempt;
    } catch (error) {
      if (generation !== this.generation) return undefined;
      if (notes.loginError !== undefined) {
        void this.waitForLogin(notes.loginError);
        return undefined;
      }
      // A restart would start the same refusing gateway again: give up at once.
      if (notes.startsThisGateway)
        this.failed('this entry starts this gateway again (gateway loop): remove it from the config, or point it at another config', {
          permanent: true,
        });
      else this.failed(`could not connect: ${describeError(error)}${this.stderrTail.hint()}`);
      return undefined;
    } finally {
      if (this.connecting?.attempt === attempt) this.connecting = undefined;
    }
    if (generation === this.generation) return connection;
    await connection.close();
    return undefined;
  }

  /** Connected: the lists fetched, then ready (or failed, when they cannot be listed). */
  private async serve(generation: number, connection: UpstreamConnection): Promise<void> {
    this.connection = connection;
    if (connection.fallbackReason !== undefined) {
      this.logger.warn(
        `server "${this.id}" is used on protocol ${connection.protocolVersion ?? '2025-11-25'}: ${connection.fallbackReason}; set protocol = "2025-11-25" for it to skip the attempt`,
        { server: this.id },
      );
    }
    let fetched: Fetched;
    try {
      fetched = await fetchLists(connection, { lists: this.lists, cuts: this.capNotes.cuts }, this.listRequest(allLists));
    } catch (error) {
      if (generation !== this.generation) return;
      this.detach();
      await connection.close();
      this.failed(`connected, but listing its capabilities failed: ${describeError(error)}`);
      return;
    }
    if (generation !== this.generation) return;
    this.lists = fetched.lists;
    this.capNotes.update(fetched.cuts);
    this.readyAt = Date.now();
    this.lastError = this.state === 'restarting' ? this.lastError : undefined;
    this.refresher = new ListRefresh(connection, this.refreshHost(), fetched.freshness);
    this.setState('ready');
    this.logger.info('server ready', readyFields(this.id, connection, this.lists, this.refresher.pollSeconds));
    // A stable connection earns a fresh backoff.
    setTimeout(() => {
      if (generation === this.generation && this.state === 'ready') this.attempt = 0;
    }, 30_000).unref();
    this.events.changed(this);
  }

  /** No token without a person: no restarts; waits for `promptyard-gateway login <id>`'s new token file. */
  private async waitForLogin(error: Error): Promise<void> {
    this.generation++;
    const connection = this.detach();
    const hadLists = this.lists !== emptyLists;
    this.lists = emptyLists;
    this.retryAt = 0;
    this.lastError = error.message;
    this.logger.warn('server needs a login', { server: this.id, reason: error.message });
    this.setState('needs-login');
    if (hadLists) this.events.changed(this);
    this.stopLoginWatch();
    const spec = upstreamSpecOf(this.config);
    if (spec.kind !== 'stdio' && spec.oauth !== undefined) {
      this.stopLoginWatch = watchForLogin(spec.oauth.store, () => {
        if (this.state !== 'needs-login') return;
        this.logger.info('new OAuth token found; connecting', { server: this.id });
        this.attempt = 0;
        void this.connect();
      });
    }
    await connection?.close();
  }

  /** The connection dropped: the process exited or the HTTP stream broke. */
  private lost(error: Error | undefined): void {
    // Still connecting: the attempt's own failure (with the better reason) reports it.
    const connection = this.detach();
    if (connection === undefined) return;
    void connection.close();
    const hadLists = this.lists !== emptyLists;
    this.lists = emptyLists;
    this.failed(`connection lost${error === undefined ? '' : `: ${error.message}`}${this.stderrTail.hint()}`);
    if (hadLists) this.events.changed(this);
  }

  private failed(reason: string, options: { readonly permanent?: boolean } = {}): void {
    // One attempt fails once: a dropped connection and the request it broke both report it, and a
    // second report would count a restart twice and schedule a second one.
    if (this.failedGeneration === this.generation) return;
    this.failedGeneration = this.generation;
    this.lastError = reason;
    this.logger.warn('server unavailable', { server: this.id, reason });
    const { maxRestarts, restartInitialMs, restartMaxMs } = this.timings;
    if (options.permanent === true || (maxRestarts > 0 && this.attempt >= maxRestarts)) {
      this.retryAt = 0;
      this.setState('failed');
      return;
    }
    const delay = Math.min(restartMaxMs, restartInitialMs * 2 ** this.attempt);
    this.attempt++;
    this.retryAt = Date.now() + delay;
    this.setState('restarting');
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      if (generation !== this.generation) return;
      this.restarts++;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  /** A call named something unknown: a server whose lists are polled lists them now; true when it did. */
  relist(): Promise<boolean> {
    return this.refresher?.relist() ?? Promise.resolve(false);
  }

  /** The connection let go of (stopped, lost, waiting for a login), with its list refresh. */
  private detach(): UpstreamConnection | undefined {
    const connection = this.connection;
    this.connection = undefined;
    this.refresher?.stop();
    this.refresher = undefined;
    return connection;
  }

  /** How this server's lists are read: within its request timeout, at most `max_definitions` of each. */
  private listRequest(lists: readonly ListName[]): ListRequest {
    return { lists, timeoutMs: this.timings.requestMs, cap: this.timings.definitionCap.max, skillsFailed: this.skillsFailed };
  }
  private refreshHost(): RefreshHost {
    return {
      id: this.id,
      logger: this.logger,
      lists: () => ({ lists: this.lists, cuts: this.capNotes.cuts }),
      request: (lists) => this.listRequest(lists),
      serving: (connection) => connection === this.connection && this.state === 'ready',
      update: (fetched) => {
        this.lists = fetched.lists;
        this.capNotes.update(fetched.cuts);
        this.events.changed(this);
        this.events.status(this);
      },
    };
  }
}
