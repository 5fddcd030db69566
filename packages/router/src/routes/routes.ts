/**
 * Routes: every ready backend's lists namespaced (`names.ts`) and merged into one route table
 * (`route-table.ts`), their URIs rewritten (`uri-rewrite.ts`), resources and skills resolved to their
 * server (`resource-routes.ts`, `skill-routes.ts`), unknown names answered with the closest ones
 * (`not-found.ts`), and the catalog search over it all. Here the table is kept: rebuilt as backends
 * change (sync → namespace → cache → notify) and read by the lists, the calls and the meta tools.
 */
import type { AccessKind, Logger, PromptyardError } from '@promptyard/core';
import type { Backend } from '../backends/backend.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { StartupWait } from '../backends/startup-wait.js';
import type { RouterEmitter } from '../router-events.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../sdk/upstream-types.js';
import { notFound } from './not-found.js';
import { resolveUri, serverOfItem } from './resource-routes.js';
import type { ResourceTarget } from './resource-routes.js';
import { buildRouteTable, collisionWarning, compareRouteTables, createNamers, emptyRouteTable } from './route-table.js';
import type { Namers, RouteTable } from './route-table.js';

/** A routed item's server and its name there. */
export interface Owner {
  readonly server: string;
  readonly original: string;
}

/** The route table of the moment, rebuilt as backends join, leave or change their lists, and what is read of it. */
export class Routes {
  private table: RouteTable = emptyRouteTable;
  private namers: Namers;
  private separator: string;
  private rebuildScheduled = false;
  private rebuilds = 0;
  private readonly pool: BackendPool;
  /** The gateway's own tools (search, describe, call …), served ahead of the backends' when on. */
  private readonly metaTools: readonly Tool[];
  private readonly events: RouterEmitter;
  private readonly logger: Logger;
  private readonly startupWait: StartupWait;

  constructor(pool: BackendPool, metaTools: readonly Tool[], events: RouterEmitter, logger: Logger, startupWait: StartupWait) {
    this.pool = pool;
    this.metaTools = metaTools;
    this.events = events;
    this.logger = logger;
    this.startupWait = startupWait;
    this.separator = pool.config.separator;
    this.namers = createNamers(this.separator);
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.rebuilds;
  }

  /** The table as it stands (replaced whole on each rebuild). */
  get current(): RouteTable {
    return this.table;
  }

  /** Lazy mode serves the meta tools even when `meta_tools` is off: they are its only way to the tools. */
  metaToolsServed(): boolean {
    return this.pool.config.metaTools || this.pool.config.lazy;
  }

  scheduleRebuild(): void {
    if (this.rebuildScheduled) return;
    this.rebuildScheduled = true;
    queueMicrotask(() => {
      this.rebuildScheduled = false;
      this.rebuild();
    });
  }

  /** sync → namespace → cache: merges every ready backend's lists, then notifies what changed. */
  rebuild(): void {
    const { separator, lazy } = this.pool.config;
    if (separator !== this.separator) {
      this.separator = separator;
      this.namers = createNamers(separator);
    }
    const served = this.metaToolsServed() ? this.metaTools : [];
    const next = buildRouteTable(this.pool.all(), { namers: this.namers, metaTools: served, lazy });
    const { changed, newCollisions } = compareRouteTables(this.table, next);
    this.table = next;
    this.rebuilds++;
    for (const collision of newCollisions) this.logger.warn(collisionWarning(collision), { name: collision.name });
    for (const list of changed) this.events.emit('listChanged', list);
    this.startupWait.rebuilt();
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
    return serverOfItem(this.table, this.pool.all(), kind, name);
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

  /** Ready servers with skills, in config order (the first keeps a contested skill URI), and their request timeouts. */
  skillServers(): { readonly backend: Backend; readonly timeoutMs: number }[] {
    return this.pool
      .list()
      .filter((backend) => backend.state === 'ready' && backend.lists.skills.length > 0)
      .map((backend) => ({ backend, timeoutMs: this.pool.requestTimeout(backend) }));
  }

  /** Finds the backend of a namespaced (or passed-through) resource URI. */
  resolveUri(uri: string): ResourceTarget {
    return resolveUri(this.table, this.pool.all(), uri);
  }

  /** An unknown tool or prompt: the closest names, and the servers that may own it but are down. */
  notFound(kind: 'Tool' | 'Prompt', name: string, known: Iterable<string>): PromptyardError {
    return notFound(kind, name, known, this.pool.list(), this.pool.config.separator);
  }
}
