/**
 * One surface of the gateway: the default one (everything, at `/mcp` and on stdio) or a profile's
 * (`[profiles.<name>]`, at `/mcp/<name>` and with `--profile`). Its lists, calls, search, meta tools
 * and skills all read its own route table; the backends, their supervision and the peers are shared.
 */
import type { AccessKind, AuditTrail } from '@promptyard/core';
import type { ClientPeer, McpTracing, TraceContext } from '@promptyard/mcp';
import type { Backend } from './backends/backend.js';
import type { BackendPool } from './backends/backend-pool.js';
import type { BackendStatus } from './backends/backend-status.js';
import type { StartupWait } from './backends/startup-wait.js';
import type { Approvals } from './calls/approval.js';
import { Auditor } from './calls/call-audit.js';
import type { CallContext } from './calls/call-context.js';
import { Calls } from './calls/calls.js';
import type { CompleteParams } from './calls/calls.js';
import type { PeerRequests } from './calls/peer-requests.js';
import type { ResourceSubscriptions } from './calls/resource-calls.js';
import { relayToolCall } from './calls/tool-relay.js';
import type { RelayRequest } from './calls/tool-relay.js';
import type { MetaToolHost } from './meta-tools/caller-view.js';
import { createMetaTools } from './meta-tools/meta-tools.js';
import type { RouterEmitter } from './router-events.js';
import { createCatalogSearch } from './routes/catalog-search.js';
import type { CatalogSearch, CatalogView } from './routes/catalog-search.js';
import type { ResourceTarget } from './routes/resource-routes.js';
import type { Collision, RoutedList, RouteTable } from './routes/route-table.js';
import type { Owner, Routes } from './routes/routes.js';
import type { SkillHost } from './routes/skill-routes.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from './sdk/upstream-types.js';
import type { PinChange } from './pins/pin-types.js';

export interface SurfaceStatus {
  readonly profile: string;
  readonly backends: readonly BackendStatus[];
  readonly collisions: readonly Collision[];
  readonly counts: { readonly tools: number; readonly prompts: number; readonly resources: number; readonly resourceTemplates: number };
  /** Definitions held back by `pinning = "enforce"`, with what changed. */
  readonly quarantined: readonly PinChange[];
  readonly lazy: boolean;
}

/** What a view shares with the router and the other views. */
export interface ViewParts {
  readonly pool: BackendPool;
  readonly routes: Routes;
  readonly peers: PeerRequests;
  readonly startupWait: StartupWait;
  readonly subscriptions: ResourceSubscriptions;
  readonly events: RouterEmitter;
  readonly tracing: McpTracing | undefined;
  readonly trail: AuditTrail | undefined;
  readonly approvals: Approvals | undefined;
}

export class RouterView implements MetaToolHost, CatalogView, SkillHost {
  readonly profile: string;
  /** The search behind search_tools / search_prompts, for other front ends (the terminal UI). */
  readonly search: CatalogSearch;
  private readonly parts: ViewParts;
  private readonly calls: Calls;
  private readonly auditor: Auditor;

  constructor(profile: string, parts: ViewParts) {
    this.profile = profile;
    this.parts = parts;
    this.search = createCatalogSearch(this);
    const metaTools = createMetaTools(this, this.search);
    this.auditor = new Auditor(parts.trail, profile, parts.tracing);
    this.calls = new Calls(parts, new Map(metaTools.map((tool) => [tool.definition.name, tool])), {
      profile,
      table: () => this.table,
      auditor: this.auditor,
      approvals: parts.approvals,
    });
  }

  /** This surface's table as it stands. */
  get table(): RouteTable {
    return this.parts.routes.table(this.profile);
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.parts.routes.version;
  }

  /** Within the start-up wait: settles when the servers are done with their first attempt; `undefined`: answer now. */
  startup(): Promise<void> | undefined {
    return this.parts.startupWait.pending;
  }

  /** This surface's list changes. */
  onListChanged(listener: (list: RoutedList) => void): () => void {
    return this.parts.events.on('listChanged', ({ list, profile }) => {
      if (profile === this.profile) listener(list);
    });
  }

  status(): SurfaceStatus {
    const table = this.table;
    const members = new Set(table.members.map((backend) => backend.id));
    return {
      profile: this.profile,
      backends: this.parts.pool.statuses().filter((status) => members.has(status.id)),
      collisions: table.collisions,
      counts: {
        tools: table.tools.size,
        prompts: table.prompts.size,
        resources: table.resources.size,
        resourceTemplates: table.templates.length,
      },
      quarantined: [...table.quarantined.tools.values(), ...table.quarantined.prompts.values()],
      lazy: this.parts.pool.config.lazy,
    };
  }

  // ——— lists ———

  /** The servers of this surface, in config order. */
  backendIds(): string[] {
    return this.table.members.map((backend) => backend.id);
  }

  listTools(): readonly Tool[] {
    return this.table.lists.tools;
  }

  /** Every backend tool, lazy mode or not (for the meta tools). */
  allTools(): readonly Tool[] {
    return [...this.table.tools.values()].map((route) => route.item);
  }

  /** A backend tool by its namespaced name (lazy mode or not). */
  backendTool(name: string): Tool | undefined {
    return this.table.tools.get(name)?.item;
  }

  toolOwner(name: string): Owner | undefined {
    const route = this.table.tools.get(name);
    return route === undefined ? undefined : { server: route.backend.id, original: route.original };
  }

  /** The server a tool, prompt, resource or skill comes from (`[[policy]] servers`). */
  serverOf(kind: AccessKind, name: string): string | undefined {
    return this.parts.routes.serverOf(kind, name, this.table);
  }

  listPrompts(): readonly Prompt[] {
    return this.table.lists.prompts;
  }

  promptOwner(name: string): Owner | undefined {
    const route = this.table.prompts.get(name);
    return route === undefined ? undefined : { server: route.backend.id, original: route.original };
  }

  getPromptDefinition(name: string): Prompt | undefined {
    return this.table.prompts.get(name)?.item;
  }

  listResources(): readonly Resource[] {
    return this.table.lists.resources;
  }

  listResourceTemplates(): readonly ResourceTemplate[] {
    return this.table.lists.templates;
  }

  /** Ready servers of this surface with skills, in config order, and their request timeouts. */
  skillServers(): { readonly backend: Backend; readonly timeoutMs: number }[] {
    const members = new Set(this.table.members.map((backend) => backend.id));
    return this.parts.routes.skillServers((id) => members.has(id));
  }

  /** Finds the backend of a namespaced (or passed-through) resource URI. */
  resolveUri(uri: string): ResourceTarget {
    return this.parts.routes.resolveUri(uri, this.table);
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
    const { pool, peers, approvals } = this.parts;
    // Straight to the relay: the hot path takes no hop through Calls.
    const routing = { tools: this.table.tools, timeouts: pool.config.timeouts, peers, auditor: this.auditor, approvals };
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
