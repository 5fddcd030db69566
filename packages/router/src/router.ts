import { describeError, PromptyardError } from '@promptyard/core';
import type { AccessKind, Logger, Metrics } from '@promptyard/core';
import type { ClientPeer, McpTracing, TraceContext } from '@promptyard/mcp';
import { Backend } from './backend.js';
import type { BackendStatus } from './backend.js';
import type { CallContext } from './call-context.js';
import { createCatalogSearch } from './catalog-search.js';
import type { CatalogSearch, CatalogView } from './catalog-search.js';
import type { RouterConfig } from './router-config.js';
import { diffBackends, requestTimeoutMs, toolTimeoutMs } from './config-backend.js';
import type { BackendConfig } from './config-backend.js';
import { notFound } from './errors.js';
import { createMetaTools } from './meta-tools.js';
import type { MetaTool, MetaToolHost } from './meta-tools.js';
import { encodeUri } from './names.js';
import { PeerRequests } from './peer-requests.js';
import { readResource, resolveTemplate, resolveUri, ResourceSubscriptions, serverOfItem } from './resource-routes.js';
import type { ResourceTarget } from './resource-routes.js';
import { buildRouteTable, collisionWarning, compareRouteTables, createNamers, emptyRouteTable } from './route-table.js';
import type { Collision, Namers, RouteTable } from './route-table.js';
import { RouterEmitter } from './router-events.js';
import { endEarlyChildren } from './sdk/early-spawn.js';
import type { Listener, RouterEvents } from './router-events.js';
import { StartupWait } from './startup-wait.js';
import { logStderrLine } from './stderr-level.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from './sdk/upstream.js';
import { relayToolCall } from './tool-relay.js';
import type { RelayRequest } from './tool-relay.js';
import { rewritePromptResult, rewriteToolResult, uriMapFor } from './uri-rewrite.js';

export interface RouterStatus {
  readonly backends: readonly BackendStatus[];
  readonly collisions: readonly Collision[];
  readonly counts: { readonly tools: number; readonly prompts: number; readonly resources: number; readonly resourceTemplates: number };
  readonly lazy: boolean;
}

export interface RouterOptions {
  readonly logger: Logger;
  readonly version: string;
  /** Times each call to a backend; absent: calls are not timed. */
  readonly metrics?: Metrics | undefined;
  /** Traces each call made for a traced request (a CLIENT span, its context sent in `_meta`); absent: none. */
  readonly tracing?: McpTracing | undefined;
}

/**
 * The gateway's heart: supervised backends, their lists namespaced and merged (sync → namespace →
 * cache → route → notify), calls routed back to the owner, and everything a backend asks of its
 * client routed to the downstream client it belongs to.
 */
export class Router implements MetaToolHost, CatalogView {
  private config: RouterConfig;
  private namers: Namers;
  private readonly backends = new Map<string, Backend>();
  private readonly events: RouterEmitter;
  private routes: RouteTable = emptyRouteTable;
  private readonly meta: ReadonlyMap<string, MetaTool>;
  /** The search behind search_tools / search_prompts, for other front ends (the terminal UI). */
  readonly search: CatalogSearch;
  private readonly peers = new PeerRequests();
  private readonly subscriptions = new ResourceSubscriptions(this.peers);
  private logLevel: LoggingLevel | undefined;
  private rebuildScheduled = false;
  private rebuilds = 0;
  private readonly startupWait = new StartupWait();

  private readonly options: RouterOptions;

  constructor(config: RouterConfig, options: RouterOptions) {
    this.options = options;
    this.peers.metrics = options.metrics;
    this.peers.tracing = options.tracing;
    this.events = new RouterEmitter(options.logger);
    this.config = config;
    this.namers = createNamers(config.separator);
    // One search index, shared by the meta tools and other front ends (the terminal UI).
    this.search = createCatalogSearch(this);
    this.meta = new Map(createMetaTools(this, this.search).map((tool) => [tool.definition.name, tool]));
    for (const backendConfig of config.servers) this.backends.set(backendConfig.id, this.createBackend(backendConfig));
    // Lists exist (the meta tools, no server yet) before any server is ready, so each one joining is announced.
    this.rebuild();
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.rebuilds;
  }

  /**
   * Starts every backend at once. Each joins the lists as it becomes ready (clients hear
   * `list_changed`), so whoever serves clients need not wait: the promise resolves only when each
   * has connected or failed its first attempt (for `status`, and the "n of m ready" line).
   */
  start(): Promise<void> {
    // Every first attempt has taken over its early process by now; one left over belongs to no server.
    const starting = Promise.all([...this.backends.values()].map((backend) => backend.start())).then(() => {
      endEarlyChildren();
      this.rebuild();
    });
    this.startupWait.begin(starting, this.config.startupWaitMs);
    return starting;
  }

  /**
   * Within `[gateway] startup_wait_ms` of the start, while servers are still on their first attempt:
   * settles when they are done or the wait is over. `undefined`: answer now with what is ready.
   */
  startup(): Promise<void> | undefined {
    return this.startupWait.pending;
  }

  async close(): Promise<void> {
    endEarlyChildren();
    await Promise.all([...this.backends.values()].map((backend) => backend.stop()));
  }

  on<K extends keyof RouterEvents>(event: K, listener: Listener<RouterEvents[K]>): () => void {
    return this.events.on(event, listener);
  }

  backend(id: string): Backend | undefined {
    return this.backends.get(id);
  }

  backendIds(): string[] {
    return [...this.backends.keys()];
  }

  /** Restarts one server now, with a fresh backoff. */
  async restartServer(id: string): Promise<void> {
    const backend = this.requireBackend(id);
    await backend.restart();
    this.rebuild();
  }

  /** Stops or starts one server until the next config reload (the config file is not changed). */
  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const backend = this.requireBackend(id);
    backend.config = { ...backend.config, enabled };
    if (enabled) await backend.start();
    else await backend.stop();
    this.rebuild();
  }

  private requireBackend(id: string): Backend {
    const backend = this.backends.get(id);
    if (backend === undefined)
      throw new PromptyardError(
        'INVALID_REQUEST',
        `No server "${id}" in the gateway config; servers: ${this.backendIds().join(', ') || 'none'}.`,
      );
    return backend;
  }

  status(): RouterStatus {
    return {
      backends: [...this.backends.values()].map((backend) => backend.status()),
      collisions: this.routes.collisions,
      counts: {
        tools: this.routes.tools.size,
        prompts: this.routes.prompts.size,
        resources: this.routes.resources.size,
        resourceTemplates: this.routes.templates.length,
      },
      lazy: this.config.lazy,
    };
  }

  /** Applies a new config: only added, removed and changed servers start or stop. */
  async reload(next: RouterConfig): Promise<{ added: string[]; removed: string[]; changed: string[] }> {
    const diff = diffBackends(this.config.servers, next.servers);
    const previous = this.config;
    this.config = next;
    if (previous.separator !== next.separator) this.namers = createNamers(next.separator);
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
    this.rebuild();
    await Promise.all(starting.map((backend) => backend.start()));
    return { added: diff.added.map((c) => c.id), removed: diff.removed.map((c) => c.id), changed: diff.changed.map((c) => c.id) };
  }

  private createBackend(config: BackendConfig): Backend {
    const logger = this.options.logger;
    const backend: Backend = new Backend(
      config,
      {
        connectMs: this.config.timeouts.connectMs,
        requestMs: requestTimeoutMs(config, this.config.timeouts),
        restartInitialMs: this.config.restart.initialMs,
        restartMaxMs: this.config.restart.maxMs,
        maxRestarts: this.config.restart.maxRestarts,
      },
      {
        changed: () => this.scheduleRebuild(),
        status: (changed) => {
          this.events.emit('status', changed.status());
          if (changed.state === 'ready' && this.logLevel !== undefined)
            void changed.upstream.setLoggingLevel(this.logLevel, 5000).catch(() => {});
        },
        stderr: (owner, line) => this.events.emit('stderr', { server: owner.id, line, level: logStderrLine(logger, owner.id, line) }),
        log: (params) => this.events.emit('log', { server: config.id, ...params }),
        resourceUpdated: (uri) => {
          const prefix = backend.config.prefix;
          this.events.emit('resourceUpdated', prefix === false ? uri : encodeUri(prefix, uri));
        },
        sampling: (params) => this.peers.ask(backend, 'sampling', (peer) => peer.sampling?.(params)),
        elicitation: (params) => this.peers.ask(backend, 'elicitation', (peer) => peer.elicitation?.(params)),
        roots: () => this.peers.ask(backend, 'roots', (peer) => peer.roots?.()),
      },
      logger,
      { name: this.config.name, version: this.options.version },
    );
    return backend;
  }

  /** Remembers the client most recently seen, for backend requests outside any call. */
  notePeer(peer: ClientPeer): void {
    this.peers.note(peer);
  }

  forgetPeer(peer: ClientPeer): void {
    this.peers.forget(peer);
  }

  private scheduleRebuild(): void {
    if (this.rebuildScheduled) return;
    this.rebuildScheduled = true;
    queueMicrotask(() => {
      this.rebuildScheduled = false;
      this.rebuild();
    });
  }

  /** sync → namespace → cache: merges every ready backend's lists, then notifies what changed. */
  private rebuild(): void {
    const served = this.metaToolsServed() ? [...this.meta.values()].map((meta) => meta.definition) : [];
    const next = buildRouteTable(this.backends.values(), { namers: this.namers, metaTools: served, lazy: this.config.lazy });
    const { changed, newCollisions } = compareRouteTables(this.routes, next);
    this.routes = next;
    this.rebuilds++;
    for (const collision of newCollisions) this.options.logger.warn(collisionWarning(collision), { name: collision.name });
    for (const list of changed) this.events.emit('listChanged', list);
    this.startupWait.rebuilt();
  }

  // ——— lists ———

  listTools(): readonly Tool[] {
    return this.routes.lists.tools;
  }

  /** Every backend tool, lazy mode or not (for the meta tools). */
  allTools(): readonly Tool[] {
    return [...this.routes.tools.values()].map((route) => route.item);
  }

  /** A backend tool by its namespaced name (lazy mode or not). */
  backendTool(name: string): Tool | undefined {
    return this.routes.tools.get(name)?.item;
  }

  toolOwner(name: string): { readonly server: string; readonly original: string } | undefined {
    const route = this.routes.tools.get(name);
    return route === undefined ? undefined : { server: route.backend.id, original: route.original };
  }

  /** The server a tool, prompt, resource or skill comes from (`[[policy]] servers`). */
  serverOf(kind: AccessKind, name: string): string | undefined {
    return serverOfItem(this.routes, this.backends.values(), kind, name);
  }

  listPrompts(): readonly Prompt[] {
    return this.routes.lists.prompts;
  }

  promptOwner(name: string): { readonly server: string; readonly original: string } | undefined {
    const route = this.routes.prompts.get(name);
    return route === undefined ? undefined : { server: route.backend.id, original: route.original };
  }

  listResources(): readonly Resource[] {
    return this.routes.lists.resources;
  }

  listResourceTemplates(): readonly ResourceTemplate[] {
    return this.routes.lists.templates;
  }

  /** Ready servers with skills, in config order (the first keeps a contested skill URI), and their request timeouts. */
  skillServers(): { readonly backend: Backend; readonly timeoutMs: number }[] {
    return [...this.backends.values()]
      .filter((backend) => backend.state === 'ready' && backend.lists.skills.length > 0)
      .map((backend) => ({ backend, timeoutMs: this.requestTimeout(backend) }));
  }

  getPromptDefinition(name: string): Prompt | undefined {
    return this.routes.prompts.get(name)?.item;
  }

  // ——— routing ———

  /** Lazy mode serves them even when `meta_tools` is off: they are its only way to the tools. */
  private metaToolsServed(): boolean {
    return this.config.metaTools || this.config.lazy;
  }

  private notFound(kind: 'Tool' | 'Prompt', name: string, known: Iterable<string>): PromptyardError {
    return notFound(kind, name, known, [...this.backends.values()], this.config.separator);
  }

  private toolTimeout(backend: Backend): number {
    return toolTimeoutMs(backend.config, this.config.timeouts);
  }

  private requestTimeout(backend: Backend): number {
    return requestTimeoutMs(backend.config, this.config.timeouts);
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext = {},
    meta?: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const served = this.metaToolsServed();
    const route =
      this.routes.tools.get(name) ??
      (served && this.meta.has(name) ? undefined : await this.startupWait.lookUp(() => this.routes.tools.get(name)));
    if (route === undefined) {
      const metaTool = this.meta.get(name);
      if (metaTool !== undefined && served) {
        // The meta tools list and search the catalog: like the lists, they wait for it during start-up.
        const pending = this.startupWait.pending;
        if (pending !== undefined) await pending;
        return metaTool.call(args ?? {}, context);
      }
      throw this.notFound('Tool', name, [...this.routes.tools.keys(), ...(served ? this.meta.keys() : [])]);
    }
    const { backend, original } = route;
    const result = await this.peers.forward(backend, `tools/call "${original}"`, this.toolTimeout(backend), context, (options) =>
      backend.upstream.callTool(original, args, meta, options),
    );
    return rewriteToolResult(result, uriMapFor(backend.config.prefix));
  }

  /** The stdio hot path (tool-relay.ts): a 2025-era `tools/call` relayed as JSON-RPC; `undefined`: take the full path. */
  relayToolCall(
    request: RelayRequest,
    peer: ClientPeer | undefined,
    reply: (message: Readonly<Record<string, unknown>>) => void,
    trace?: () => TraceContext,
  ): { cancel(reason: string): void } | undefined {
    return relayToolCall({ tools: this.routes.tools, timeouts: this.config.timeouts, peers: this.peers }, request, peer, reply, trace);
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, context: CallContext = {}): Promise<GetPromptResult> {
    const route = this.routes.prompts.get(name) ?? (await this.startupWait.lookUp(() => this.routes.prompts.get(name)));
    if (route === undefined) throw this.notFound('Prompt', name, this.routes.prompts.keys());
    const { backend, original } = route;
    const result = await this.peers.forward(backend, `prompts/get "${original}"`, this.requestTimeout(backend), context, (options) =>
      backend.upstream.getPrompt(original, args, options),
    );
    return rewritePromptResult(result, uriMapFor(backend.config.prefix));
  }

  /** Finds the backend of a namespaced (or passed-through) resource URI. */
  resolveUri(uri: string): ResourceTarget {
    return resolveUri(this.routes, this.backends.values(), uri);
  }

  /**
   * A URI's server, ready: during the start-up wait a URI whose server has not joined yet (not
   * routed, or its server still starting) is looked up again as servers join, like tool names.
   */
  private async resolveReady(uri: string): Promise<ResourceTarget> {
    const ready = (): ResourceTarget | undefined => {
      try {
        const target = this.resolveUri(uri);
        return target.backend.state === 'ready' ? target : undefined;
      } catch {
        return undefined;
      }
    };
    return ready() ?? (await this.startupWait.lookUp(ready)) ?? this.resolveUri(uri);
  }

  async readResource(uri: string, context: CallContext = {}): Promise<ReadResourceResult> {
    const target = await this.resolveReady(uri);
    return readResource(target, this.peers, this.requestTimeout(target.backend), context);
  }

  async subscribe(uri: string): Promise<void> {
    const target = await this.resolveReady(uri);
    await this.subscriptions.subscribe(target, this.requestTimeout(target.backend));
  }

  async unsubscribe(uri: string): Promise<void> {
    const target = this.resolveUri(uri);
    await this.subscriptions.unsubscribe(target, this.requestTimeout(target.backend));
  }

  async complete(
    params: { ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string }; context?: unknown },
    context: CallContext = {},
  ): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    if (params.ref.type === 'ref/prompt') {
      const route = this.routes.prompts.get(params.ref.name ?? '');
      if (route === undefined) throw this.notFound('Prompt', params.ref.name ?? '', this.routes.prompts.keys());
      if (route.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(route.backend, 'completion/complete', this.requestTimeout(route.backend), context, (options) =>
        route.backend.upstream.complete({ ...params, ref: { type: 'ref/prompt', name: route.original } }, options),
      );
    }
    if (params.ref.type === 'ref/resource') {
      const target = resolveTemplate(this.routes, this.backends.values(), params.ref.uri ?? '');
      if (target === undefined || target.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(target.backend, 'completion/complete', this.requestTimeout(target.backend), context, (options) =>
        target.backend.upstream.complete({ ...params, ref: { type: 'ref/resource', uri: target.uri } }, options),
      );
    }
    return empty;
  }

  /** The downstream client's `logging/setLevel`, passed on to every backend that logs. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await Promise.all(
      [...this.backends.values()]
        .filter((backend) => backend.state === 'ready')
        .map((backend) =>
          backend.upstream
            .setLoggingLevel(level, this.requestTimeout(backend))
            .catch((error: unknown) => this.options.logger.debug('setLevel failed', { server: backend.id, reason: describeError(error) })),
        ),
    );
  }

  /** A downstream client's roots changed: every backend is told. */
  async rootsChanged(): Promise<void> {
    await Promise.all(
      [...this.backends.values()]
        .filter((backend) => backend.state === 'ready')
        .map((backend) => backend.upstream.rootsChanged().catch(() => {})),
    );
  }
}
