/**
 * Calls: every request routed to a backend and back. A `tools/call` takes the SDK route (here, then
 * `peer-requests.ts`) or, from a 2025-era client to a 2025-era stdio backend, the relay
 * (`tool-relay.ts`, which `Router.relayToolCall` calls straight); both keep one `BackendCall` (`backend-call.ts`) for tracking, span, deadline and
 * error text (`call-errors.ts`). The backends' own requests (sampling, elicitation, roots) go to the
 * downstream client whose call they belong to (`peer-requests.ts`); resource reads and subscriptions
 * in `resource-calls.ts`.
 */
import { describeError, PromptyardError } from '@promptyard/core';
import type { BackendPool } from '../backends/backend-pool.js';
import type { StartupWait } from '../backends/startup-wait.js';
import type { MetaTool } from '../meta-tools/meta-tools.js';
import { resolveTemplate } from '../routes/resource-routes.js';
import type { ResourceTarget } from '../routes/resource-routes.js';
import type { Routes } from '../routes/routes.js';
import { routedArguments } from '../routes/route-table.js';
import type { Route, RouteTable } from '../routes/route-table.js';
import { rewritePromptResult, rewriteToolResult, uriMapFor } from '../routes/uri-rewrite.js';
import type { CallToolResult, CompleteResult, GetPromptResult, Prompt, ReadResourceResult, Tool } from '../sdk/upstream-types.js';
import type { Approvals } from './approval.js';
import type { Auditor, CallAudit } from './call-audit.js';
import type { CallContext } from './call-context.js';
import type { PeerRequests } from './peer-requests.js';
import type { ResourceSubscriptions } from './resource-calls.js';
import { readResource } from './resource-calls.js';

export interface CompleteParams {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: unknown;
}

/** One profile's surface as its calls see it: its table, its audit and the approvals it asks for. */
export interface CallSurface {
  readonly profile: string;
  table(): RouteTable;
  readonly auditor: Auditor;
  readonly approvals: Approvals | undefined;
}

/** Requests routed to the backend that owns what they name, waiting for it during the start-up wait. */
export class Calls {
  private readonly pool: BackendPool;
  private readonly routes: Routes;
  private readonly peers: PeerRequests;
  private readonly meta: ReadonlyMap<string, MetaTool>;
  private readonly startupWait: StartupWait;
  private readonly subscriptions: ResourceSubscriptions;
  private readonly surface: CallSurface;

  constructor(
    parts: { pool: BackendPool; routes: Routes; peers: PeerRequests; startupWait: StartupWait; subscriptions: ResourceSubscriptions },
    meta: ReadonlyMap<string, MetaTool>,
    surface: CallSurface,
  ) {
    this.pool = parts.pool;
    this.routes = parts.routes;
    this.peers = parts.peers;
    this.startupWait = parts.startupWait;
    this.subscriptions = parts.subscriptions;
    this.meta = meta;
    this.surface = surface;
  }

  private get table(): RouteTable {
    return this.surface.table();
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext,
    meta: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const served = this.routes.metaToolsServed();
    const find = (): Route<Tool> | undefined => this.table.tools.get(name);
    const route = find() ?? (served && this.meta.has(name) ? undefined : await this.lookUp(find));
    if (route === undefined) {
      const metaTool = this.meta.get(name);
      if (metaTool !== undefined && served) {
        // The meta tools list and search the catalog: like the lists, they wait for it during start-up.
        const pending = this.startupWait.pending;
        if (pending !== undefined) await pending;
        return metaTool.call(args ?? {}, context);
      }
      this.refuseQuarantined('tool', name, args, context);
      throw this.routes.notFound('Tool', name, [...this.table.tools.keys(), ...(served ? this.meta.keys() : [])]);
    }
    const audit = this.surface.auditor.begin({ kind: 'tool', name, server: route.backend.id, args }, context);
    const approved = await this.approve(route, name, args, context, audit);
    const { backend, original } = route;
    let result: CallToolResult;
    try {
      result = await this.peers.forward(
        backend,
        { method: 'tools/call', target: original },
        this.pool.toolTimeout(backend),
        context,
        (options) => backend.upstream.callTool(original, routedArguments(route, args), meta, options),
      );
    } catch (error) {
      audit.end('failed', describeError(error));
      throw error;
    }
    audit.end(approved ? 'approved' : 'allowed');
    return rewriteToolResult(result, uriMapFor(backend.config.prefix));
  }

  /** A name held back by its pins: the audit line and the error that says what changed and how to approve it. */
  private refuseQuarantined(
    kind: 'tool' | 'prompt',
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    context: CallContext,
  ): void {
    const held = (kind === 'tool' ? this.table.quarantined.tools : this.table.quarantined.prompts).get(name);
    if (held === undefined) return;
    this.surface.auditor.begin({ kind, name, server: held.server, args }, context).end('quarantined', held.message);
    throw new PromptyardError('QUARANTINED', held.message, {
      data: { server: held.server, [kind]: held.name, change: held.change, fields: held.fields },
    });
  }

  /** `[[policy]] approve`: false when no approval is needed, true once a person approved; throws when not approved. */
  private async approve(
    route: Route<Tool>,
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext,
    audit: CallAudit,
  ): Promise<boolean> {
    const { approvals, profile } = this.surface;
    const rule = approvals?.required(context.identity, name, route.backend.id);
    if (approvals === undefined || rule === undefined) return false;
    try {
      await approvals.obtain({
        rule,
        identity: context.identity,
        profile,
        server: route.backend.id,
        tool: name,
        args,
        peer: context.peer,
        signal: context.signal,
        timeoutMs: this.pool.toolTimeout(route.backend),
      });
      return true;
    } catch (error) {
      audit.end('declined', describeError(error));
      throw error;
    }
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, context: CallContext): Promise<GetPromptResult> {
    const find = (): Route<Prompt> | undefined => this.table.prompts.get(name);
    const route = find() ?? (await this.lookUp(find));
    if (route === undefined) {
      this.refuseQuarantined('prompt', name, args, context);
      throw this.routes.notFound('Prompt', name, this.table.prompts.keys());
    }
    const { backend, original } = route;
    const audit = this.surface.auditor.begin({ kind: 'prompt', name, server: backend.id, args }, context);
    const target = { method: 'prompts/get', target: original };
    let result: GetPromptResult;
    try {
      result = await this.peers.forward(backend, target, this.pool.requestTimeout(backend), context, (options) =>
        backend.upstream.getPrompt(original, args, options),
      );
    } catch (error) {
      audit.end('failed', describeError(error));
      throw error;
    }
    audit.end('allowed');
    return rewritePromptResult(result, uriMapFor(backend.config.prefix));
  }

  /**
   * A URI's server, ready: during the start-up wait a URI whose server has not joined yet (not
   * routed, or its server still starting) is looked up again as servers join, like tool names.
   */
  private async resolveReady(uri: string): Promise<ResourceTarget> {
    const ready = (): ResourceTarget | undefined => {
      try {
        const target = this.routes.resolveUri(uri, this.table);
        return target.backend.state === 'ready' ? target : undefined;
      } catch {
        return undefined;
      }
    };
    return ready() ?? (await this.lookUp(ready)) ?? this.routes.resolveUri(uri, this.table);
  }

  /**
   * Something not in the lists: during the start-up wait, looked for as servers join; then once more
   * after the servers without a listen stream listed again (it may be new since their last poll).
   */
  private async lookUp<T>(find: () => T | undefined): Promise<T | undefined> {
    const found = await this.startupWait.lookUp(find);
    if (found !== undefined || !(await this.pool.relistPolled())) return found;
    // The lists taken in again are routed once the rebuild they started is over (long lists take slices).
    await this.routes.settled();
    return find();
  }

  async readResource(uri: string, context: CallContext): Promise<ReadResourceResult> {
    const target = await this.resolveReady(uri);
    return readResource(target, this.peers, this.pool.requestTimeout(target.backend), context);
  }

  async subscribe(uri: string): Promise<void> {
    const target = await this.resolveReady(uri);
    await this.subscriptions.subscribe(target, this.pool.requestTimeout(target.backend));
  }

  async unsubscribe(uri: string): Promise<void> {
    const target = this.routes.resolveUri(uri, this.table);
    await this.subscriptions.unsubscribe(target, this.pool.requestTimeout(target.backend));
  }

  async complete(params: CompleteParams, context: CallContext): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    const call = { method: 'completion/complete' };
    if (params.ref.type === 'ref/prompt') {
      const route = this.table.prompts.get(params.ref.name ?? '');
      if (route === undefined) throw this.routes.notFound('Prompt', params.ref.name ?? '', this.table.prompts.keys());
      if (route.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(route.backend, call, this.pool.requestTimeout(route.backend), context, (options) =>
        route.backend.upstream.complete({ ...params, ref: { type: 'ref/prompt', name: route.original } }, options),
      );
    }
    if (params.ref.type === 'ref/resource') {
      const target = resolveTemplate(this.table, params.ref.uri ?? '');
      if (target === undefined || target.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(target.backend, call, this.pool.requestTimeout(target.backend), context, (options) =>
        target.backend.upstream.complete({ ...params, ref: { type: 'ref/resource', uri: target.uri } }, options),
      );
    }
    return empty;
  }
}
