import type { AccessKind, Logger, Metrics } from '@promptyard/core';
import type { ClientPeer, McpTracing, TraceContext } from '@promptyard/mcp';
import type { Backend } from './backends/backend.js';
import type { BackendStatus } from './backends/backend-status.js';
import { BackendPool } from './backends/backend-pool.js';
import type { ReloadResult } from './backends/backend-pool.js';
import { StartupWait } from './backends/startup-wait.js';
import type { CallContext } from './calls/call-context.js';
import { Calls } from './calls/calls.js';
import type { CompleteParams } from './calls/calls.js';
import { PeerRequests } from './calls/peer-requests.js';
import { relayToolCall } from './calls/tool-relay.js';
import type { RelayRequest } from './calls/tool-relay.js';
import { createMetaTools } from './meta-tools/meta-tools.js';
import type { MetaToolHost } from './meta-tools/caller-view.js';
import type { RouterConfig } from './router-config.js';
import { RouterEmitter } from './router-events.js';
import type { Listener, RouterEvents } from './router-events.js';
import { createCatalogSearch } from './routes/catalog-search.js';
import type { CatalogSearch, CatalogView } from './routes/catalog-search.js';
import type { ResourceTarget } from './routes/resource-routes.js';
import type { Collision } from './routes/route-table.js';
import { Routes } from './routes/routes.js';
import type { Owner } from './routes/routes.js';
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
} from './sdk/upstream-types.js';

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
 * The gateway's heart: supervised backends (`BackendPool`), their lists namespaced and merged into
 * routes (`Routes`: sync → namespace → cache → route → notify), calls routed back to the owner
 * (`Calls`), and everything a backend asks of its client routed to the downstream client it belongs
 * to (`PeerRequests`). What the front ends use of them is here.
 */
export class Router implements MetaToolHost, CatalogView {
  /** The search behind search_tools / search_prompts, for other front ends (the terminal UI). */
  readonly search: CatalogSearch;
  private readonly events: RouterEmitter;
  private readonly startupWait = new StartupWait();
  private readonly peers = new PeerRequests();
  private readonly pool: BackendPool;
  private readonly routes: Routes;
  private readonly calls: Calls;

  constructor(config: RouterConfig, options: RouterOptions) {
    this.peers.metrics = options.metrics;
    this.peers.tracing = options.tracing;
    this.events = new RouterEmitter(options.logger);
    this.pool = new BackendPool(config, options.logger, options.version, this.events, {
      changed: () => this.routes.scheduleRebuild(),
      rebuild: () => this.routes.rebuild(),
      ask: (backend, what, ask) => this.peers.ask(backend, what, ask),
    });
    // One search index, shared by the meta tools and other front ends (the terminal UI).
    this.search = createCatalogSearch(this);
    const metaTools = createMetaTools(this, this.search);
    const definitions = metaTools.map((tool) => tool.definition);
    this.routes = new Routes(this.pool, definitions, this.events, options.logger, this.startupWait);
    this.calls = new Calls(
      this.pool,
      this.routes,
      this.peers,
      new Map(metaTools.map((tool) => [tool.definition.name, tool])),
      this.startupWait,
    );
    // Lists exist (the meta tools, no server yet) before any server is ready, so each one joining is announced.
    this.routes.rebuild();
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.routes.version;
  }

  // ——— backends ———

  /**
   * Starts every backend at once. Each joins the lists as it becomes ready (clients hear
   * `list_changed`), so whoever serves clients need not wait: the promise resolves only when each
   * has connected or failed its first attempt (for `status`, and the "n of m ready" line).
   */
  start(): Promise<void> {
    const starting = this.pool.start().then(() => this.routes.rebuild());
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

  status(): RouterStatus {
    const routes = this.routes.current;
    return {
      backends: this.pool.statuses(),
      collisions: routes.collisions,
      counts: {
        tools: routes.tools.size,
        prompts: routes.prompts.size,
        resources: routes.resources.size,
        resourceTemplates: routes.templates.length,
      },
      lazy: this.pool.config.lazy,
    };
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

  /** The downstream client's `logging/setLevel`, passed on to every backend that logs. */
  setLogLevel(level: LoggingLevel): Promise<void> {
    return this.pool.setLogLevel(level);
  }

  /** A downstream client's roots changed: every backend is told. */
  rootsChanged(): Promise<void> {
    return this.pool.rootsChanged();
  }

  // ——— lists ———

  listTools(): readonly Tool[] {
    return this.routes.listTools();
  }

  /** Every backend tool, lazy mode or not (for the meta tools). */
  allTools(): readonly Tool[] {
    return this.routes.allTools();
  }

  /** A backend tool by its namespaced name (lazy mode or not). */
  backendTool(name: string): Tool | undefined {
    return this.routes.backendTool(name);
  }

  toolOwner(name: string): Owner | undefined {
    return this.routes.toolOwner(name);
  }

  /** The server a tool, prompt, resource or skill comes from (`[[policy]] servers`). */
  serverOf(kind: AccessKind, name: string): string | undefined {
    return this.routes.serverOf(kind, name);
  }

  listPrompts(): readonly Prompt[] {
    return this.routes.listPrompts();
  }

  promptOwner(name: string): Owner | undefined {
    return this.routes.promptOwner(name);
  }

  getPromptDefinition(name: string): Prompt | undefined {
    return this.routes.getPromptDefinition(name);
  }

  listResources(): readonly Resource[] {
    return this.routes.listResources();
  }

  listResourceTemplates(): readonly ResourceTemplate[] {
    return this.routes.listResourceTemplates();
  }

  /** Ready servers with skills, in config order (the first keeps a contested skill URI), and their request timeouts. */
  skillServers(): { readonly backend: Backend; readonly timeoutMs: number }[] {
    return this.routes.skillServers();
  }

  /** Finds the backend of a namespaced (or passed-through) resource URI. */
  resolveUri(uri: string): ResourceTarget {
    return this.routes.resolveUri(uri);
  }

  // ——— calls ———

  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext = {},
    meta?: Record<string, unknown>,
  ): Promise<CallToolResult> {
    return this.calls.callTool(name, args, context, meta);
  }

  /** The stdio hot path (tool-relay.ts): a 2025-era `tools/call` relayed as JSON-RPC; `undefined`: take the full path. */
  relayToolCall(
    request: RelayRequest,
    peer: ClientPeer | undefined,
    reply: (message: Readonly<Record<string, unknown>>) => void,
    trace?: () => TraceContext,
  ): { cancel(reason: string): void } | undefined {
    // Straight to the relay: the hot path takes no hop through Calls.
    const routing = { tools: this.routes.current.tools, timeouts: this.pool.config.timeouts, peers: this.peers };
    return relayToolCall(routing, request, peer, reply, trace);
  }

  getPrompt(name: string, args: Record<string, string> | undefined, context: CallContext = {}): Promise<GetPromptResult> {
    return this.calls.getPrompt(name, args, context);
  }

  readResource(uri: string, context: CallContext = {}): Promise<ReadResourceResult> {
    return this.calls.readResource(uri, context);
  }

  subscribe(uri: string): Promise<void> {
    return this.calls.subscribe(uri);
  }

  unsubscribe(uri: string): Promise<void> {
    return this.calls.unsubscribe(uri);
  }

  complete(params: CompleteParams, context: CallContext = {}): Promise<CompleteResult> {
    return this.calls.complete(params, context);
  }
}
