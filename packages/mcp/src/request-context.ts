import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { ClientPeer, JsonObject, Progress, RequestContext } from './handlers.js';

/**
 * A request's context, read from the SDK's on first use: most requests never ask their client
 * anything nor report progress, so they pay for one object and nothing else.
 */
export class SdkRequestContext implements RequestContext {
  readonly connection: ClientPeer | undefined;
  private readonly server: Server;
  private readonly ctx: ServerContext;
  private readonly live: boolean;
  private peer: ClientPeer | undefined;

  constructor(server: Server, ctx: ServerContext, live: boolean, connection: ClientPeer | undefined) {
    this.server = server;
    this.ctx = ctx;
    this.live = live;
    this.connection = connection;
  }

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  get client(): ClientPeer {
    if (this.peer !== undefined) return this.peer;
    const request = this.ctx.mcpReq;
    const modern = request.envelope !== undefined;
    const capabilities = modern ? undefined : this.server.getClientCapabilities();
    this.peer = {
      label: modern ? 'request (2026-07-28)' : 'request',
      // Stateless requests are each their own connection.
      session: this.live ? this.server : this.ctx,
      sampling: capabilities?.sampling === undefined ? undefined : (params) => request.requestSampling(params as never) as Promise<JsonObject>,
      elicitation: capabilities?.elicitation === undefined ? undefined : (params) => request.elicitInput(params as never) as Promise<JsonObject>,
      roots: capabilities?.roots === undefined ? undefined : () => request.send({ method: 'roots/list' }) as Promise<JsonObject>,
    };
    return this.peer;
  }

  get progressToken(): string | number | undefined {
    return this.ctx.mcpReq._meta?.progressToken;
  }

  get onProgress(): ((progress: Progress) => void) | undefined {
    const progressToken = this.progressToken;
    if (progressToken === undefined) return undefined;
    const request = this.ctx.mcpReq;
    return (progress) => {
      request.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => {});
    };
  }

  /** The request's `_meta` without its progress token, to pass on; undefined when nothing is left. */
  get meta(): JsonObject | undefined {
    const meta = this.ctx.mcpReq._meta as Record<string, unknown> | undefined;
    if (meta === undefined) return undefined;
    const { progressToken: _token, ...rest } = meta;
    return Object.keys(rest).length > 0 ? rest : undefined;
  }
}
