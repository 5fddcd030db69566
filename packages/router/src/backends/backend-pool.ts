/**
 * Backends: the servers behind the gateway, each a supervised connection (`backend.ts`: connect,
 * lists, restarts with backoff, login waits) made from its config entry (`backend-spec.ts`, with the
 * children spawned early), and here the pool of them that starts, stops, restarts and reloads
 * them as the config says. Also the start-up wait, the stderr level parsing and the gateway-loop guard.
 */
import { describeError, PromptyardError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { ClientPeer } from '@promptyard/mcp';
import type { RouterConfig } from '../router-config.js';
import { diffBackends, requestTimeoutMs, toolTimeoutMs } from '../config-backend.js';
import type { BackendConfig } from '../config-backend.js';
import type { RouterEmitter } from '../router-events.js';
import { encodeUri } from '../routes/names.js';
import { endEarlyChildren } from '../sdk/early-spawn.js';
import type { LoggingLevel } from '../sdk/upstream-types.js';
import { Backend } from './backend.js';
import type { BackendStatus } from './backend-status.js';
import { logStderrLine } from './stderr-level.js';
import { definitionCapOf } from './definition-cap.js';

/** What the pool asks of the rest of the router. */
export interface BackendPoolHooks {
  /** A backend's lists changed: the routes are rebuilt once for the burst. */
  changed(): void;
  /** Backends started, stopped or replaced: the routes are rebuilt now. */
  rebuild(): void;
  /** A backend sent a message over `[limits] max_message_bytes`: it is counted in the metrics. */
  oversized(backend: Backend): void;
  /** A backend asks its client (sampling, elicitation, roots): the downstream client it belongs to answers. */
  ask(
    backend: Backend,
    what: string,
    ask: (peer: ClientPeer) => Promise<Record<string, unknown>> | undefined,
  ): Promise<Record<string, unknown>>;
}

export interface ReloadResult {
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
}

/** The gateway's backends in config order, supervised: started, stopped, restarted and reloaded as the config says. */
export class BackendPool {
  private current: RouterConfig;
  private readonly backends = new Map<string, Backend>();
  private logLevel: LoggingLevel | undefined;
  private readonly logger: Logger;
  private readonly version: string;
  private readonly events: RouterEmitter;
  private readonly hooks: BackendPoolHooks;

  constructor(config: RouterConfig, logger: Logger, version: string, events: RouterEmitter, hooks: BackendPoolHooks) {
    this.current = config;
    this.logger = logger;
    this.version = version;
    this.events = events;
    this.hooks = hooks;
    for (const backendConfig of config.servers) this.backends.set(backendConfig.id, this.createBackend(backendConfig));
  }

  get config(): RouterConfig {
    return this.current;
  }

  get(id: string): Backend | undefined {
    return this.backends.get(id);
  }

  ids(): string[] {
    return [...this.backends.keys()];
  }

  /** Every backend, in config order. */
  all(): IterableIterator<Backend> {
    return this.backends.values();
  }

  list(): Backend[] {
    return [...this.backends.values()];
  }

  statuses(): BackendStatus[] {
    return this.list().map((backend) => backend.status());
  }

  /** Starts every backend at once; resolves when each has connected or failed its first attempt. */
  async start(): Promise<void> {
    await Promise.all(this.list().map((backend) => backend.start()));
    // Every first attempt has taken over its early process by now; one left over belongs to no server.
    endEarlyChildren();
  }

  async close(): Promise<void> {
    endEarlyChildren();
    await Promise.all(this.list().map((backend) => backend.stop()));
  }

  /** Restarts one server now, with a fresh backoff. */
  async restart(id: string): Promise<void> {
    await this.require(id).restart();
    this.hooks.rebuild();
  }

  /** Stops or starts one server until the next config reload (the config file is not changed). */
  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const backend = this.require(id);
    backend.config = { ...backend.config, enabled };
    if (enabled) await backend.start();
    else await backend.stop();
    this.hooks.rebuild();
  }

  private require(id: string): Backend {
    const backend = this.backends.get(id);
    if (backend === undefined)
      throw new PromptyardError('INVALID_REQUEST', `No server "${id}" in the gateway config; servers: ${this.ids().join(', ') || 'none'}.`);
    return backend;
  }

  /** Applies a new config: only added, removed and changed servers start or stop. */
  async reload(next: RouterConfig): Promise<ReloadResult> {
    const diff = diffBackends(this.current.servers, next.servers);
    this.current = next;
    await Promise.all(
      [...diff.removed, ...diff.changed].map(async (config) => {
        const backend = this.backends.get(config.id);
        this.backends.delete(config.id);
        await backend?.stop();
      }),
    );
    const ordered = new Map<string, Backend>();
    const starting: Backend[] = [];
    for (const config of next.servers) {
      let backend = this.backends.get(config.id);
      if (backend === undefined) {
        backend = this.createBackend(config);
        starting.push(backend);
      } else if (backend.config !== config) {
        // Unchanged in what matters for the connection (filters, prefix may differ): keep it running.
        backend.config = config;
      }
      ordered.set(config.id, backend);
    }
    this.backends.clear();
    for (const [id, backend] of ordered) this.backends.set(id, backend);
    this.hooks.rebuild();
    await Promise.all(starting.map((backend) => backend.start()));
    return { added: diff.added.map((c) => c.id), removed: diff.removed.map((c) => c.id), changed: diff.changed.map((c) => c.id) };
  }

  private createBackend(config: BackendConfig): Backend {
    const { logger, hooks } = this;
    const backend: Backend = new Backend(
      config,
      {
        connectMs: this.current.timeouts.connectMs,
        requestMs: requestTimeoutMs(config, this.current.timeouts),
        restartInitialMs: this.current.restart.initialMs,
        restartMaxMs: this.current.restart.maxMs,
        maxRestarts: this.current.restart.maxRestarts,
        maxMessageBytes: this.current.limits.maxMessageBytes,
        definitionCap: definitionCapOf(config.id, config.maxDefinitions, this.current.limits.maxDefinitions),
      },
      {
        changed: () => hooks.changed(),
        status: (changed) => {
          this.events.emit('status', changed.status());
          if (changed.state === 'ready' && this.logLevel !== undefined)
            void changed.upstream.setLoggingLevel(this.logLevel, 5000).catch(() => {});
        },
        oversized: (owner) => hooks.oversized(owner),
        stderr: (owner, line) => this.events.emit('stderr', { server: owner.id, line, level: logStderrLine(logger, owner.id, line) }),
        log: (params) => this.events.emit('log', { server: config.id, ...params }),
        resourceUpdated: (uri) => {
          const prefix = backend.config.prefix;
          this.events.emit('resourceUpdated', prefix === false ? uri : encodeUri(prefix, uri));
        },
        sampling: (params) => hooks.ask(backend, 'sampling', (peer) => peer.sampling?.(params)),
        elicitation: (params) => hooks.ask(backend, 'elicitation', (peer) => peer.elicitation?.(params)),
        roots: () => hooks.ask(backend, 'roots', (peer) => peer.roots?.()),
      },
      logger,
      { name: this.current.name, version: this.version },
    );
    return backend;
  }

  toolTimeout(backend: Backend): number {
    return toolTimeoutMs(backend.config, this.current.timeouts);
  }

  requestTimeout(backend: Backend): number {
    return requestTimeoutMs(backend.config, this.current.timeouts);
  }

  private ready(): Backend[] {
    return this.list().filter((backend) => backend.state === 'ready');
  }

  /**
   * A call named a tool, prompt or resource nobody serves: servers whose lists are polled (no listen
   * stream) list them now — each at most once a second —; true when a list changed. Its update
   * scheduled the rebuild (a microtask), which has started by the time this resumes (and, for lists
   * of a usual size, ended: long ones take slices, which `Routes.settled` waits for).
   */
  async relistPolled(): Promise<boolean> {
    const relisted = await Promise.all(this.ready().map((backend) => backend.relist()));
    return relisted.includes(true);
  }

  /** The downstream client's `logging/setLevel`, passed on to every backend that logs. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await Promise.all(
      this.ready().map((backend) =>
        backend.upstream
          .setLoggingLevel(level, this.requestTimeout(backend))
          .catch((error: unknown) => this.logger.debug('setLevel failed', { server: backend.id, reason: describeError(error) })),
      ),
    );
  }

  /** A downstream client's roots changed: every backend is told. */
  async rootsChanged(): Promise<void> {
    await Promise.all(this.ready().map((backend) => backend.upstream.rootsChanged().catch(() => {})));
  }
}
