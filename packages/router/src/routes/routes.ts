/**
 * Routes: every ready backend's lists namespaced (`names.ts`) and merged into one route table
 * (`route-table.ts`), their URIs rewritten (`uri-rewrite.ts`), resources and skills resolved to their
 * server (`resource-routes.ts`, `skill-routes.ts`), unknown names answered with the closest ones
 * (`not-found.ts`), and the catalog search over it all. Here the table is kept: rebuilt as backends
 * change (sync → namespace → cache → notify) and read by the lists, the calls and the meta tools.
 */
import { describeError } from '@promptyard/core';
import type { AccessKind, Logger, PromptyardError } from '@promptyard/core';
import type { Backend } from '../backends/backend.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { StartupWait } from '../backends/startup-wait.js';
import type { PinBook } from '../pins/pin-types.js';
import type { RouterEmitter } from '../router-events.js';
import { DEFAULT_PROFILE } from '../surface/surface-types.js';
import type { ProfileConfig } from '../surface/surface-types.js';
import type { Tool } from '../sdk/upstream-types.js';
import { notFound } from './not-found.js';
import { resolveUri, serverOfItem } from './resource-routes.js';
import type { ResourceTarget } from './resource-routes.js';
import { runSliced } from '../slices.js';
import type { Sliced } from '../slices.js';
import { buildingRouteTable, collisionWarning, compareRouteTables, createNamers, emptyRouteTable } from './route-table.js';
import type { Namers, ReviewedLists, RouteTable } from './route-table.js';

/** A routed item's server and its name there. */
export interface Owner {
  readonly server: string;
  readonly original: string;
}

/** The route table of the moment, rebuilt as backends join, leave or change their lists, and what is read of it. */
export class Routes {
  /** Each profile's table (the default one under `default`), replaced whole on each rebuild. */
  private tables = new Map<string, RouteTable>([[DEFAULT_PROFILE, emptyRouteTable]]);
  /** Pin warnings and quarantines already logged, so each change is told once. */
  private readonly told = new Set<string>();
  private namers: Namers;
  private separator: string;
  private rebuildScheduled = false;
  /** The rebuild under way in slices, and whether another was asked for meanwhile. */
  private building: Promise<void> | undefined;
  private again = false;
  private rebuilds = 0;
  private readonly pool: BackendPool;
  /** The gateway's own tools (search, describe, call …), served ahead of the backends' when on. */
  private readonly metaTools: readonly Tool[];
  private readonly events: RouterEmitter;
  private readonly logger: Logger;
  private readonly startupWait: StartupWait;
  private readonly pins: PinBook | undefined;

  constructor(
    pool: BackendPool,
    metaTools: readonly Tool[],
    parts: { events: RouterEmitter; logger: Logger; startupWait: StartupWait; pins: PinBook | undefined },
  ) {
    this.pool = pool;
    this.metaTools = metaTools;
    this.events = parts.events;
    this.logger = parts.logger;
    this.startupWait = parts.startupWait;
    this.pins = parts.pins;
    this.separator = pool.config.separator;
    this.namers = createNamers(this.separator);
  }

  /** Grows with every rebuild of the lists (the search indexes rebuild when it changed). */
  get version(): number {
    return this.rebuilds;
  }

  /** The default surface's table as it stands (replaced whole on each rebuild). */
  get current(): RouteTable {
    return this.table();
  }

  /** A profile's table; an unknown (or removed) profile has an empty one. */
  table(profile: string = DEFAULT_PROFILE): RouteTable {
    return this.tables.get(profile) ?? emptyRouteTable;
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

  /**
   * sync → review → namespace → cache: merges every ready backend's lists per profile, then notifies
   * what changed. Usual lists are merged at once; a server's long lists in slices (`slices.ts`), the
   * tables in use served meanwhile and replaced whole at the end. A rebuild asked for while one is
   * under way runs after it, once, with the lists as they are then.
   */
  rebuild(): void {
    if (this.building !== undefined) {
      this.again = true;
      return;
    }
    const built = runSliced(this.rebuilding());
    if (!(built instanceof Promise)) return;
    this.building = built
      .catch((error: unknown) => this.logger.error('could not rebuild the lists', { error: describeError(error) }))
      .finally(() => {
        this.building = undefined;
        if (!this.again) return;
        this.again = false;
        this.rebuild();
      });
  }

  /** Resolves once no rebuild is under way in slices (one asked for meanwhile included). */
  async settled(): Promise<void> {
    while (this.building !== undefined) await this.building;
  }

  private *rebuilding(): Sliced<void> {
    const { separator, lazy, profiles } = this.pool.config;
    if (separator !== this.separator) {
      this.separator = separator;
      this.namers = createNamers(separator);
    }
    const served = this.metaToolsServed() ? this.metaTools : [];
    const reviews = yield* this.review();
    const surfaces: [string, ProfileConfig | undefined][] = [
      [DEFAULT_PROFILE, undefined],
      ...profiles.map((profile) => [profile.name, profile] as [string, ProfileConfig]),
    ];
    const next = new Map<string, RouteTable>();
    for (const [name, profile] of surfaces) {
      const table = yield* buildingRouteTable(this.pool.all(), { namers: this.namers, metaTools: served, lazy, profile, reviews });
      next.set(name, table);
    }
    for (const [name, table] of next) {
      const { changed, newCollisions } = compareRouteTables(this.tables.get(name) ?? emptyRouteTable, table);
      for (const collision of newCollisions) this.logger.warn(collisionWarning(collision), { name: collision.name, profile: name });
      for (const list of changed) this.events.emit('listChanged', { list, profile: name });
    }
    this.tables = next;
    this.rebuilds++;
    this.startupWait.rebuilt();
  }

  /** Each ready backend's tools and prompts reviewed against its pins; changes are logged once each. */
  private *review(): Sliced<ReadonlyMap<Backend, ReviewedLists> | undefined> {
    const { pins } = this;
    if (pins === undefined) return undefined;
    const reviews = new Map<Backend, ReviewedLists>();
    for (const backend of this.pool.all()) {
      if (backend.state !== 'ready') continue;
      const mode = backend.config.pinning;
      const { lists } = backend;
      const reviewed = {
        tools: yield* pins.reviewing(backend.id, mode, 'tool', lists.tools),
        prompts: yield* pins.reviewing(backend.id, mode, 'prompt', lists.prompts),
      };
      reviews.set(backend, reviewed);
      for (const change of [...reviewed.tools.quarantined.values(), ...reviewed.prompts.quarantined.values()])
        this.tell('warn', change.message);
      for (const change of [...reviewed.tools.warned.values(), ...reviewed.prompts.warned.values()]) this.tell('warn', change.message);
    }
    return reviews;
  }

  private tell(level: 'warn', message: string): void {
    if (this.told.has(message)) return;
    if (this.told.size > 10_000) this.told.clear();
    this.told.add(message);
    this.logger[level](message);
  }

  /** The server a tool, prompt, resource or skill of `table` comes from (`[[policy]] servers`). */
  serverOf(kind: AccessKind, name: string, table: RouteTable): string | undefined {
    return serverOfItem(table, kind, name);
  }

  /** Ready servers of `servers` with skills, in config order (the first keeps a contested skill URI), and their request timeouts. */
  skillServers(servers: (id: string) => boolean): { readonly backend: Backend; readonly timeoutMs: number }[] {
    return this.pool
      .list()
      .filter((backend) => backend.state === 'ready' && backend.lists.skills.length > 0 && servers(backend.id))
      .map((backend) => ({ backend, timeoutMs: this.pool.requestTimeout(backend) }));
  }

  /** Finds the backend of a namespaced (or passed-through) resource URI in `table`. */
  resolveUri(uri: string, table: RouteTable): ResourceTarget {
    return resolveUri(table, uri);
  }

  /** An unknown tool or prompt: the closest names, and the servers that may own it but are down. */
  notFound(kind: 'Tool' | 'Prompt', name: string, known: Iterable<string>): PromptyardError {
    return notFound(kind, name, known, this.pool.list(), this.pool.config.separator);
  }
}
