/**
 * Calls: every request routed to a backend and back. A `tools/call` takes the SDK route (here, then
 * `peer-requests.ts`) or, from a 2025-era client to a 2025-era stdio backend, the relay
 * (`tool-relay.ts`, which `Router.relayToolCall` calls straight); both keep one `BackendCall` (`backend-call.ts`) for tracking, span, deadline and
 * error text (`call-errors.ts`). The backends' own requests (sampling, elicitation, roots) go to the
 * downstream client whose call they belong to (`peer-requests.ts`); resource reads and subscriptions
 * in `resource-calls.ts`.
 */
import type { BackendPool } from '../backends/backend-pool.js';
import type { StartupWait } from '../backends/startup-wait.js';
import type { MetaTool } from '../meta-tools/meta-tools.js';
import { resolveTemplate } from '../routes/resource-routes.js';
import type { ResourceTarget } from '../routes/resource-routes.js';
import type { Routes } from '../routes/routes.js';
import { rewritePromptResult, rewriteToolResult, uriMapFor } from '../routes/uri-rewrite.js';
import type { CallToolResult, CompleteResult, GetPromptResult, ReadResourceResult } from '../sdk/upstream-types.js';
import type { CallContext } from './call-context.js';
import type { PeerRequests } from './peer-requests.js';
import { readResource, ResourceSubscriptions } from './resource-calls.js';

export interface CompleteParams {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: unknown;
}

/** Requests routed to the backend that owns what they name, waiting for it during the start-up wait. */
export class Calls {
  private readonly subscriptions: ResourceSubscriptions;
  private readonly pool: BackendPool;
  private readonly routes: Routes;
  private readonly peers: PeerRequests;
  private readonly meta: ReadonlyMap<string, MetaTool>;
  private readonly startupWait: StartupWait;

  constructor(pool: BackendPool, routes: Routes, peers: PeerRequests, meta: ReadonlyMap<string, MetaTool>, startupWait: StartupWait) {
    this.pool = pool;
    this.routes = routes;
    this.peers = peers;
    this.meta = meta;
    this.startupWait = startupWait;
    this.subscriptions = new ResourceSubscriptions(peers);
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext,
    meta: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    const served = this.routes.metaToolsServed();
    const route =
      this.routes.current.tools.get(name) ??
      (served && this.meta.has(name) ? undefined : await this.startupWait.lookUp(() => this.routes.current.tools.get(name)));
    if (route === undefined) {
      const metaTool = this.meta.get(name);
      if (metaTool !== undefined && served) {
        // The meta tools list and search the catalog: like the lists, they wait for it during start-up.
        const pending = this.startupWait.pending;
        if (pending !== undefined) await pending;
        return metaTool.call(args ?? {}, context);
      }
      throw this.routes.notFound('Tool', name, [...this.routes.current.tools.keys(), ...(served ? this.meta.keys() : [])]);
    }
    const { backend, original } = route;
    const result = await this.peers.forward(
      backend,
      { method: 'tools/call', target: original },
      this.pool.toolTimeout(backend),
      context,
      (options) => backend.upstream.callTool(original, args, meta, options),
    );
    return rewriteToolResult(result, uriMapFor(backend.config.prefix));
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, context: CallContext): Promise<GetPromptResult> {
    const route = this.routes.current.prompts.get(name) ?? (await this.startupWait.lookUp(() => this.routes.current.prompts.get(name)));
    if (route === undefined) throw this.routes.notFound('Prompt', name, this.routes.current.prompts.keys());
    const { backend, original } = route;
    const target = { method: 'prompts/get', target: original };
    const result = await this.peers.forward(backend, target, this.pool.requestTimeout(backend), context, (options) =>
      backend.upstream.getPrompt(original, args, options),
    );
    return rewritePromptResult(result, uriMapFor(backend.config.prefix));
  }

  /**
   * A URI's server, ready: during the start-up wait a URI whose server has not joined yet (not
   * routed, or its server still starting) is looked up again as servers join, like tool names.
   */
  private async resolveReady(uri: string): Promise<ResourceTarget> {
    const ready = (): ResourceTarget | undefined => {
      try {
        const target = this.routes.resolveUri(uri);
        return target.backend.state === 'ready' ? target : undefined;
      } catch {
        return undefined;
      }
    };
    return ready() ?? (await this.startupWait.lookUp(ready)) ?? this.routes.resolveUri(uri);
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
    const target = this.routes.resolveUri(uri);
    await this.subscriptions.unsubscribe(target, this.pool.requestTimeout(target.backend));
  }

  async complete(params: CompleteParams, context: CallContext): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    const call = { method: 'completion/complete' };
    if (params.ref.type === 'ref/prompt') {
      const route = this.routes.current.prompts.get(params.ref.name ?? '');
      if (route === undefined) throw this.routes.notFound('Prompt', params.ref.name ?? '', this.routes.current.prompts.keys());
      if (route.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(route.backend, call, this.pool.requestTimeout(route.backend), context, (options) =>
        route.backend.upstream.complete({ ...params, ref: { type: 'ref/prompt', name: route.original } }, options),
      );
    }
    if (params.ref.type === 'ref/resource') {
      const target = resolveTemplate(this.routes.current, this.pool.all(), params.ref.uri ?? '');
      if (target === undefined || target.backend.capabilities.completions === undefined) return empty;
      return this.peers.forward(target.backend, call, this.pool.requestTimeout(target.backend), context, (options) =>
        target.backend.upstream.complete({ ...params, ref: { type: 'ref/resource', uri: target.uri } }, options),
      );
    }
    return empty;
  }
}
