import type { AuditTrail, Logger, Metrics } from '@promptyard/core';
import { PromptyardError, closestNames, didYouMean } from '@promptyard/core';
import type { ClientPeer, McpTracing } from '@promptyard/mcp';
import type { Backend } from './backends/backend.js';
import { BackendPool } from './backends/backend-pool.js';
import type { ReloadResult } from './backends/backend-pool.js';
import { StartupWait } from './backends/startup-wait.js';
import type { Approvals } from './calls/approval.js';
import { PeerRequests } from './calls/peer-requests.js';
import type { PendingApproval } from './calls/waiting-approvals.js';
import { ResourceSubscriptions } from './calls/resource-calls.js';
import { metaToolDefinitions } from './meta-tools/meta-tools.js';
import type { PinBook } from './pins/pin-types.js';
import type { RouterConfig } from './router-config.js';
import { RouterEmitter } from './router-events.js';
import type { Listener, RouterEvents } from './router-events.js';
import { RouterView } from './router-view.js';
import type { SurfaceStatus, ViewParts } from './router-view.js';
import { Routes } from './routes/routes.js';
import type { LoggingLevel } from './sdk/upstream-types.js';
import { DEFAULT_PROFILE } from './surface/surface-types.js';

export interface RouterStatus extends SurfaceStatus {
  /** Every configured profile besides the default one, with its own view. */
  readonly profiles: readonly SurfaceStatus[];
}

export interface RouterOptions {
  readonly logger: Logger;
  readonly version: string;
  /** Times each call to a backend and counts the messages over the limit they send; absent: nothing is measured. */
  readonly metrics?: Metrics | undefined;
  /** Traces each call made for a traced request (a CLIENT span, its context sent in `_meta`); absent: none. */
  readonly tracing?: McpTracing | undefined;
  /** Definition pinning (`pinning` of each server); absent: every definition is served as it comes. */
  readonly pins?: PinBook | undefined;
  /** `[audit]`: one line per call decided; absent: none. */
  readonly trail?: AuditTrail | undefined;
  /** `[[policy]] approve = true`: calls put to a person first; absent: none. */
  readonly approvals?: Approvals | undefined;
}

/**
 * The gateway's heart: supervised backends (`BackendPool`), their lists reviewed against their pins,
 * namespaced and merged into one route table per surface (`Routes`: sync → review → namespace →
 * cache → route → notify), and everything a backend asks of its client routed to the downstream
 * client it belongs to (`PeerRequests`). Each surface — the default one and each profile — is a
 * `RouterView`: its lists, calls, search, meta tools and skills.
 */
export class Router {
  private readonly events: RouterEmitter;
  private readonly startupWait = new StartupWait();
  private readonly peers = new PeerRequests();
  private readonly pool: BackendPool;
  private readonly routes: Routes;
  private readonly parts: ViewParts;
  private readonly views = new Map<string, RouterView>();
  private readonly stopWatchingPins: () => void;

  constructor(config: RouterConfig, options: RouterOptions) {
    this.peers.metrics = options.metrics;
    this.peers.tracing = options.tracing;
    this.events = new RouterEmitter(options.logger);
    this.pool = new BackendPool(config, options.logger, options.version, this.events, {
      changed: () => this.routes.scheduleRebuild(),
      rebuild: () => this.routes.rebuild(),
      ask: (backend, what, ask) => this.peers.ask(backend, what, ask),
      oversized: (backend) => options.metrics?.oversizedMessage(backend.id),
    });
    const { pins } = options;
    this.routes = new Routes(this.pool, metaToolDefinitions(), {
      events: this.events,
      logger: options.logger,
      startupWait: this.startupWait,
      pins,
    });
    this.parts = {
      pool: this.pool,
      routes: this.routes,
      peers: this.peers,
      startupWait: this.startupWait,
      subscriptions: new ResourceSubscriptions(this.peers),
      events: this.events,
      tracing: options.tracing,
      trail: options.trail,
      approvals: options.approvals,
    };
    // An approval (`pins approve`, another replica) changes what may be served: review again.
    this.stopWatchingPins = pins?.onChange(() => this.routes.scheduleRebuild()) ?? (() => {});
    // Lists exist (the meta tools, no server yet) before any server is ready, so each one joining is announced.
    this.routes.rebuild();
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.routes.version;
  }

  /** The names of the configured profiles, besides `default`. */
  profileNames(): string[] {
    return this.pool.config.profiles.map((profile) => profile.name);
  }

  /**
   * A surface: `default` (everything) or a configured profile. Views are made once and kept; a profile
   * removed by a reload serves nothing until the gateway restarts without it.
   */
  view(profile: string = DEFAULT_PROFILE): RouterView {
    let view = this.views.get(profile);
    if (view !== undefined) return view;
    const names = this.profileNames();
    if (profile !== DEFAULT_PROFILE && !names.includes(profile)) {
      throw new PromptyardError(
        'CONFIG_INVALID',
        `No profile "${profile}" in the gateway config.${didYouMean(closestNames(profile, names), 'sentence')} Profiles: ${names.join(', ') || 'none (add a [profiles.<name>] table)'}.`,
      );
    }
    view = new RouterView(profile, this.parts);
    this.views.set(profile, view);
    return view;
  }

  // ——— backends ———

  /**
   * Starts every backend at once. Each joins the lists as it becomes ready (clients hear
   * `list_changed`), so whoever serves clients need not wait: the promise resolves only when each
   * has connected or failed its first attempt (for `status`, and the "n of m ready" line).
   */
  start(): Promise<void> {
    // Resolved with the lists routed: a server's long lists take slices after it is ready.
    const starting = this.pool.start().then(() => {
      this.routes.rebuild();
      return this.routes.settled();
    });
    this.startupWait.begin(starting, this.pool.config.startupWaitMs);
    return starting;
  }

  /**
   * Within `[gateway] startup_wait_ms` of the start, while servers are still on their first attempt:
   * settles when they are done or the wait is over. `undefined`: answer now with what is ready.
   */
  startup(): Promise<void> | undefined {
    return this.startupWait.pending;
  }

  close(): Promise<void> {
    this.stopWatchingPins();
    return this.pool.close();
  }

  on<K extends keyof RouterEvents>(event: K, listener: Listener<RouterEvents[K]>): () => void {
    return this.events.on(event, listener);
  }

  backend(id: string): Backend | undefined {
    return this.pool.get(id);
  }

  backendIds(): string[] {
    return this.pool.ids();
  }

  /** Restarts one server now, with a fresh backoff. */
  restartServer(id: string): Promise<void> {
    return this.pool.restart(id);
  }

  /** Stops or starts one server until the next config reload (the config file is not changed). */
  setEnabled(id: string, enabled: boolean): Promise<void> {
    return this.pool.setEnabled(id, enabled);
  }

  /** The default surface's status, and each profile's. */
  status(): RouterStatus {
    return { ...this.view().status(), profiles: this.profileNames().map((name) => this.view(name).status()) };
  }

  /** Applies a new config: only added, removed and changed servers start or stop. */
  reload(next: RouterConfig): Promise<ReloadResult> {
    return this.pool.reload(next);
  }

  /** Remembers the client most recently seen, for backend requests outside any call. */
  notePeer(peer: ClientPeer): void {
    this.peers.note(peer);
  }

  forgetPeer(peer: ClientPeer): void {
    this.peers.forget(peer);
  }

  /** The tool calls waiting now for a person's approval (`[[policy]] approve = true`), longest first; never their arguments. */
  pendingApprovals(): readonly PendingApproval[] {
    return this.parts.approvals?.waiting.list() ?? [];
  }

  /** Called when a call starts or stops waiting for approval; returns the unsubscribe. */
  onPendingApprovals(listener: () => void): () => void {
    return this.parts.approvals?.waiting.subscribe(listener) ?? (() => {});
  }

  /** The downstream client's `logging/setLevel`, passed on to every backend that logs. */
  setLogLevel(level: LoggingLevel): Promise<void> {
    return this.pool.setLogLevel(level);
  }

  /** A downstream client's roots changed: every backend is told. */
  rootsChanged(): Promise<void> {
    return this.pool.rootsChanged();
  }
}
