import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { Identity, Logger } from '@promptyard/core';
import { toProtocolError } from '../errors.js';
import type { CallerAccess, ClientPeer, JsonObject, ListAnswer, ListPage, McpHandlers, RequestContext } from '../handlers.js';
import { identityOfAuthInfo } from '../http/auth-identity.js';
import type { InputRounds } from '../rounds/input-rounds.js';
import { MultiRoundRequestContext, SdkRequestContext } from '../rounds/request-context.js';
import type { ServerSdk } from '../sdk.js';
import type { ServerTelemetry } from '../telemetry/instrument.js';
import type { AccessGuard, ListedKey } from './access.js';
import type { ServedSkills } from './skills.js';

/** The methods whose failures are mapped to protocol errors by an `Adapter.failed` mapper. */
const mappedMethods = [
  'prompts/list',
  'prompts/get',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
] as const;

type Failures = Readonly<Record<(typeof mappedMethods)[number], (error: unknown) => never>>;

/** What the handlers of every instance a blueprint builds share: made once per blueprint. */
export interface Adapter {
  readonly handlers: McpHandlers;
  readonly sdk: typeof ServerSdk;
  readonly skills: ServedSkills | undefined;
  readonly rounds: InputRounds;
  readonly guard: AccessGuard | undefined;
  readonly telemetry: ServerTelemetry;
  /** One error mapper per method, made once: a stateless request builds a server, and should pay for its handlers only, not for their error handling. */
  readonly failed: Failures;
}

/** One server instance a blueprint built. */
export interface Instance {
  readonly server: Server;
  /** Stdio or a 2025 session: the instance outlives its requests. */
  readonly live: boolean;
  /** A live instance's connection as a client for requests outside any call. */
  readonly connection: ClientPeer | undefined;
}

export const createFailures = (sdk: typeof ServerSdk, logger: Logger): Failures =>
  Object.fromEntries(
    mappedMethods.map((method) => [
      method,
      (error: unknown): never => {
        throw toProtocolError(sdk, error, logger, method);
      },
    ]),
  ) as Failures;

/** Handlers answer with the protocol's JSON; the SDK's result types are its own business. */
export const asResult = (result: JsonObject): never => result as never;

/** Who asked: the HTTP caller's identity, for handlers that answer each caller their own. */
export const callerOf = (ctx: ServerContext): Identity | undefined => identityOfAuthInfo(ctx.http?.authInfo);

/** The caller a `[[policy]]` applies to: none without a policy, on stdio, or without auth. */
export const governed = (adapter: Adapter, ctx: ServerContext): Identity | undefined =>
  adapter.guard === undefined ? undefined : callerOf(ctx);

/** The policy bound to the request's caller, for handlers that reach further items for it (the gateway's meta tools). */
const accessOf = (adapter: Adapter, ctx: ServerContext): CallerAccess | undefined => {
  const { guard } = adapter;
  const caller = governed(adapter, ctx);
  if (guard === undefined || caller === undefined) return undefined;
  return { allows: (kind, name) => guard.allows(kind, name, caller), check: (kind, name, args) => guard.check(kind, name, caller, args) };
};

export const contextOf = (adapter: Adapter, instance: Instance, ctx: ServerContext): RequestContext =>
  new SdkRequestContext(
    instance.server,
    ctx,
    instance.live,
    instance.connection,
    accessOf(adapter, ctx),
    adapter.telemetry.traces?.get(ctx),
  );

/** A multi-round request: at 2026-07-28 what the handler asks the client becomes `input_required` rounds. */
export const multiRound = (
  adapter: Adapter,
  instance: Instance,
  ctx: ServerContext,
  request: string,
  run: (context: RequestContext) => Promise<JsonObject>,
): Promise<JsonObject> =>
  ctx.mcpReq.envelope === undefined
    ? run(contextOf(adapter, instance, ctx))
    : adapter.rounds.serve(ctx, request, (pending, input) =>
        run(
          new MultiRoundRequestContext(
            instance.server,
            ctx,
            instance.connection,
            pending,
            input,
            adapter.sdk.CLIENT_CAPABILITIES_META_KEY,
            accessOf(adapter, ctx),
            adapter.telemetry.traces?.get(ctx),
          ),
        ),
      );

const page = (key: string, listed: ListPage): Record<string, unknown> =>
  listed.nextCursor === undefined ? { [key]: listed.items } : { [key]: listed.items, nextCursor: listed.nextCursor };

/**
 * A page of a list, its failure mapped; a page returned as is (promptyard-server's) is not awaited.
 * Under a policy the page is filtered for its caller (cached pages stay shared: a filtered page may
 * be short, its cursor unchanged), and a 2026-07-28 result says it is this caller's alone.
 */
export const listed = async (
  adapter: Adapter,
  key: ListedKey,
  list: () => ListAnswer,
  failed: (error: unknown) => never,
  ctx: ServerContext,
): Promise<never> => {
  try {
    const answer = list();
    const listedPage = answer instanceof Promise ? await answer : answer;
    const { guard } = adapter;
    const caller = governed(adapter, ctx);
    if (guard === undefined || caller === undefined) return page(key, listedPage) as never;
    const result = page(key, guard.filter(key, listedPage, caller));
    return (ctx.mcpReq.envelope === undefined ? result : { ...result, cacheScope: 'private' }) as never;
  } catch (error) {
    return failed(error);
  }
};
