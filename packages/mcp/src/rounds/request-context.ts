import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { Identity } from '@promptyard/core';
import type { CallerAccess, ClientPeer, JsonObject, MultiRoundInput, Progress, RequestContext } from '../handlers.js';
import { identityOfAuthInfo } from '../http/auth-identity.js';
import type { TraceContext } from '../telemetry/tracing-types.js';
import type { PendingCall } from './pending-call.js';

/** Sends `notifications/progress` for the request of `ctx`, when it asked for progress. */
export const progressReporter = (ctx: ServerContext): ((progress: Progress) => void) | undefined => {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  const request = ctx.mcpReq;
  return (progress) => {
    request.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => {});
  };
};

/**
 * A request's context, read from the SDK's on first use: most requests never ask their client
 * anything nor report progress, so they pay for one object and nothing else.
 */
export class SdkRequestContext implements RequestContext {
  readonly connection: ClientPeer | undefined;
  protected readonly server: Server;
  protected readonly ctx: ServerContext;
  private readonly live: boolean;
  protected peer: ClientPeer | undefined;

  readonly access: CallerAccess | undefined;
  readonly trace: TraceContext | undefined;

  constructor(
    server: Server,
    ctx: ServerContext,
    live: boolean,
    connection: ClientPeer | undefined,
    access?: CallerAccess,
    trace?: TraceContext,
  ) {
    this.server = server;
    this.trace = trace;
    this.ctx = ctx;
    this.live = live;
    this.connection = connection;
    this.access = access;
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
      sampling:
        capabilities?.sampling === undefined ? undefined : (params) => request.requestSampling(params as never) as Promise<JsonObject>,
      elicitation:
        capabilities?.elicitation === undefined ? undefined : (params) => request.elicitInput(params as never) as Promise<JsonObject>,
      roots: capabilities?.roots === undefined ? undefined : () => request.send({ method: 'roots/list' }) as Promise<JsonObject>,
    };
    return this.peer;
  }

  get identity(): Identity | undefined {
    return identityOfAuthInfo(this.ctx.http?.authInfo);
  }

  get progressToken(): string | number | undefined {
    return this.ctx.mcpReq._meta?.progressToken;
  }

  get onProgress(): ((progress: Progress) => void) | undefined {
    return progressReporter(this.ctx);
  }

  /** The request's `_meta` without its progress token, to pass on; undefined when nothing is left. */
  get meta(): JsonObject | undefined {
    const meta = this.ctx.mcpReq._meta as Record<string, unknown> | undefined;
    if (meta === undefined) return undefined;
    const { progressToken: _token, ...rest } = meta;
    return Object.keys(rest).length > 0 ? rest : undefined;
  }
}

/**
 * The context of a 2026-07-28 multi-round request (`tools/call`, `prompts/get`, `resources/read`):
 * the client cannot be sent requests, so what the handler asks it becomes an `input_required` round
 * of this call (`PendingCall`), for each capability the request's envelope declares. The call runs
 * across rounds: its signal is the call's, and progress goes to the round in progress.
 */
export class MultiRoundRequestContext extends SdkRequestContext {
  readonly multiRound: MultiRoundInput;
  private readonly pending: PendingCall;
  private readonly capabilitiesKey: string;

  constructor(
    server: Server,
    ctx: ServerContext,
    connection: ClientPeer | undefined,
    pending: PendingCall,
    multiRound: MultiRoundInput,
    capabilitiesKey: string,
    access?: CallerAccess,
    trace?: TraceContext,
  ) {
    super(server, ctx, false, connection, access, trace);
    this.pending = pending;
    this.multiRound = multiRound;
    this.capabilitiesKey = capabilitiesKey;
  }

  override get signal(): AbortSignal {
    return this.pending.controller.signal;
  }

  override get client(): ClientPeer {
    if (this.peer !== undefined) return this.peer;
    const envelope = this.ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
    const capabilities = (envelope?.[this.capabilitiesKey] ?? {}) as Readonly<Record<string, unknown>>;
    const pending = this.pending;
    this.peer = {
      label: 'request (2026-07-28)',
      session: pending,
      sampling: capabilities['sampling'] === undefined ? undefined : (params) => pending.ask('sampling/createMessage', params),
      elicitation: capabilities['elicitation'] === undefined ? undefined : (params) => pending.ask('elicitation/create', params),
      roots: capabilities['roots'] === undefined ? undefined : () => pending.ask('roots/list', {}),
    };
    return this.peer;
  }

  override get onProgress(): ((progress: Progress) => void) | undefined {
    if (this.progressToken === undefined) return undefined;
    const pending = this.pending;
    return (progress) => pending.reporter?.(progress);
  }
}
