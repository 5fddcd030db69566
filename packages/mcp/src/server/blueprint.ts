/**
 * The server adapter: `createMcpServerBlueprint` mounts an `McpHandlers` description on the SDK's
 * low-level `Server`. One module per capability registers its requests (prompts, tools, resources,
 * completion, logging, skills); beside them the access-policy guard, the readable invalid-params
 * errors, and the wiring of a live connection (subscriptions, change notifications) and of the relay.
 */
import { createHash } from 'node:crypto';
import type { LoggingLevel, McpServerFactory, Server, ServerContext } from '@modelcontextprotocol/server';
import type { Cluster, Identity, Logger, Metrics } from '@promptyard/core';
import { createAccessGuard, type ListedKey } from './access.js';
import { toolErrorResult, toProtocolError } from '../errors.js';
import type {
  CallerAccess,
  ClientPeer,
  JsonObject,
  ListAnswer,
  ListKind,
  ListPage,
  McpHandlers,
  McpLogLevel,
  McpRelay,
  RequestContext,
} from '../handlers.js';
import { identityOfAuthInfo } from '../http/auth-gate.js';
import { createInputRounds } from '../rounds/input-rounds.js';
import { createValidatingServer } from './invalid-params.js';
import { createPromptRelay, joinRelays } from '../stdio/prompt-relay.js';
import { MultiRoundRequestContext, SdkRequestContext } from '../rounds/request-context.js';
import type { McpTracing, TraceContext } from '../telemetry/tracing-types.js';
import { timedHandler, timedRelay } from '../telemetry/request-metrics.js';
import { tracedHandler, tracedRelay } from '../telemetry/request-tracing.js';
import { loadServerSdk } from '../sdk.js';
import { serveSkills, type ServedSkills } from './skills.js';

/** What the serving entries (`serveStdio`, `serveHttp`) need: fresh server instances and change events. */
export interface McpServerBlueprint {
  /**
   * Builds one instance; `live` instances (stdio, 2025 sessions) push notifications until closed —
   * list changes and resource updates too, unless `shared` (a cluster's sessions hear those from the
   * cluster, once each, whichever node saw them).
   */
  create(options: { readonly live: boolean; readonly shared?: boolean }): Server;
  readonly factory: (live: boolean) => McpServerFactory;
  /** Fires when a served list changes, for stateless entries that publish changes themselves. */
  onListChanged(listener: (list: ListKind) => void): () => void;
  /** Fires when a subscribable resource changed, for stateless entries. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  /** A digest of a whole list as served now (every page, no caller): replicas that serve the same list agree on it. */
  fingerprint(list: ListKind): Promise<string>;
  readonly relay?: McpRelay | undefined;
  /** Whether `[[policy]]` governs HTTP callers: their calls then take the full path, where it is checked, not the relay. */
  readonly governed: boolean;
  /** The client of a live instance (stdio, a 2025 session), for a relay channel on its connection. */
  clientOf(server: Server): ClientPeer | undefined;
  readonly logger: Logger;
  /** The identity results carry (a 2026-07-28 result's `_meta` names its server). */
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** Present when traces are exported: the HTTP front then reads the `traceparent` header. */
  readonly tracing?: McpTracing | undefined;
}

export interface McpServerBlueprintOptions {
  readonly metrics?: Metrics | undefined;
  /** Traces of every request (`loadMcpTracing`); absent: the serving paths never call into OpenTelemetry. */
  readonly tracing?: McpTracing | undefined;
  /**
   * Replicas behind one balancer: their 2026-07-28 `requestState` is signed with a key they share,
   * and a retry reaching a replica that does not hold its call is handed to the one that does.
   */
  readonly cluster?: Cluster | undefined;
}

type AnyHandler = (request: never, ctx: never) => unknown;

/** Wraps every request handler registered on `server` from now on (the handler is the last argument, after the schemas in the custom-method form). */
const wrapHandlers = (server: Server, wrap: (method: string, handler: AnyHandler) => unknown): void => {
  const register = server.setRequestHandler.bind(server) as unknown as (method: string, ...rest: unknown[]) => void;
  (server as { setRequestHandler: unknown }).setRequestHandler = (method: string, ...rest: unknown[]) =>
    register(method, ...rest.slice(0, -1), wrap(method, rest.at(-1) as AnyHandler));
};

const levels: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const levelRank = (level: McpLogLevel): number => levels.indexOf(level);

const page = (key: string, listed: ListPage): Record<string, unknown> =>
  listed.nextCursor === undefined ? { [key]: listed.items } : { [key]: listed.items, nextCursor: listed.nextCursor };

/** Handlers answer with the protocol's JSON; the SDK's result types are its own business. */
const asResult = (result: JsonObject): never => result as never;

/** How long a call waits for the client's retry with the answers to an `input_required` round. */
const inputRoundTimeoutMs = 10 * 60_000;

/**
 * The one server adapter: every Promptyard server (the prompt server, the gateway) is an `McpHandlers`
 * description mounted here on the SDK's low-level `Server` — capabilities, request handlers, the
 * error mapping, requests back to the client, progress, per-connection log levels and subscriptions.
 */
export const createMcpServerBlueprint = async (
  handlers: McpHandlers,
  options: McpServerBlueprintOptions = {},
): Promise<McpServerBlueprint> => {
  const { metrics, tracing, cluster } = options;
  /**
   * Each traced request's span context, by the SDK's context object: read once by the request's
   * `RequestContext`. Without tracing this is `undefined`, and a request pays one check for it: in
   * interleaved stdio `prompts/get` runs against the build without traces (3 × 6,000 gets, a busy
   * 2-core machine) the p50 was 171/171/211 µs before and 178/169/199 µs after — noise. With traces
   * on, a SERVER span (context read from `_meta`, attributes, the batch queue) costs ~2.7 µs.
   */
  const traces = tracing === undefined ? undefined : new WeakMap<object, TraceContext>();
  // The skills extension loads beside the SDK, not after it.
  const [sdk, skills, stateKey] = await Promise.all([
    loadServerSdk(),
    handlers.skills === undefined ? undefined : serveSkills(handlers.skills, handlers.logger),
    cluster?.sharedSecret('request-state').catch((error: unknown) => {
      handlers.logger.warn('requestState is signed with a key of this replica alone: the cluster Redis did not give the shared one', {
        reason: (error as Error).message,
      });
      return undefined;
    }),
  ]);
  const { logger, tools, resources } = handlers;
  const subscriptions = resources?.subscriptions;
  const rounds = createInputRounds(sdk, inputRoundTimeoutMs, { key: stateKey, cluster, logger });
  const ValidatingServer = createValidatingServer(sdk);
  /** The handlers' list changes, and the skills' as `resources` changes. */
  const onListChanged = (listener: (list: ListKind) => void): (() => void) => {
    const stops = [handlers.onListChanged(listener), skills?.onChanged(() => listener('resources'))];
    return () => {
      for (const stop of stops) stop?.();
    };
  };
  // One error mapper per method, made once: a stateless request builds a server, and should pay for
  // its handlers only, not for their error handling.
  const rethrow =
    (method: string) =>
    (error: unknown): never => {
      throw toProtocolError(sdk, error, logger, method);
    };
  const listFailed = rethrow('prompts/list');
  const getFailed = rethrow('prompts/get');
  const toolsListFailed = rethrow('tools/list');
  const resourcesListFailed = rethrow('resources/list');
  const templatesListFailed = rethrow('resources/templates/list');
  const readFailed = rethrow('resources/read');
  const completeFailed = rethrow('completion/complete');
  const setLevelFailed = rethrow('logging/setLevel');
  const subscribeFailed = rethrow('resources/subscribe');
  const unsubscribeFailed = rethrow('resources/unsubscribe');
  /** Who asked for a list: the HTTP caller's identity, for handlers that answer each caller their own. */
  const callerOf = (ctx: ServerContext): Identity | undefined => identityOfAuthInfo(ctx.http?.authInfo);
  const guard = handlers.access === undefined ? undefined : createAccessGuard(handlers.access);
  /** The caller a `[[policy]]` applies to: none without a policy, on stdio, or without auth. */
  const governed = (ctx: ServerContext): Identity | undefined => (guard === undefined ? undefined : callerOf(ctx));
  /** The policy bound to the request's caller, for handlers that reach further items for it (the gateway's meta tools). */
  const accessOf = (ctx: ServerContext): CallerAccess | undefined => {
    const caller = governed(ctx);
    if (guard === undefined || caller === undefined) return undefined;
    return { allows: (kind, name) => guard.allows(kind, name, caller), check: (kind, name) => guard.check(kind, name, caller) };
  };
  /**
   * A page of a list, its failure mapped; a page returned as is (promptyard-server's) is not awaited.
   * Under a policy the page is filtered for its caller (cached pages stay shared: a filtered page may
   * be short, its cursor unchanged), and a 2026-07-28 result says it is this caller's alone.
   */
  const listed = async (key: ListedKey, list: () => ListAnswer, failed: (error: unknown) => never, ctx: ServerContext): Promise<never> => {
    try {
      const answer = list();
      const listedPage = answer instanceof Promise ? await answer : answer;
      const caller = governed(ctx);
      if (guard === undefined || caller === undefined) return page(key, listedPage) as never;
      const result = page(key, guard.filter(key, listedPage, caller));
      return (ctx.mcpReq.envelope === undefined ? result : { ...result, cacheScope: 'private' }) as never;
    } catch (error) {
      return failed(error);
    }
  };

  // Skills' `SKILL.md` files close the resources list: they follow the last page of the other resources.
  const withSkills = async (answer: ListAnswer, served: ServedSkills): Promise<ListPage> => {
    const listedPage = answer instanceof Promise ? await answer : answer;
    return listedPage.nextCursor !== undefined ? listedPage : { items: [...listedPage.items, ...(await served.resources())] };
  };
  const listResources = (cursor: string | undefined, caller: Identity | undefined): ListAnswer => {
    const answer = resources?.list(cursor, caller) ?? { items: [] };
    return skills === undefined ? answer : withSkills(answer, skills);
  };

  const clients = new WeakMap<Server, ClientPeer>();
  const create = ({ live, shared = false }: { readonly live: boolean; readonly shared?: boolean }): Server => {
    const server = new ValidatingServer(
      { name: handlers.name, version: handlers.version },
      {
        capabilities: {
          prompts: { listChanged: true },
          ...(tools === undefined ? {} : { tools: { listChanged: true } }),
          ...(resources === undefined && skills === undefined
            ? {}
            : {
                resources: {
                  ...(subscriptions === undefined ? {} : { subscribe: true }),
                  ...(resources?.listChanged === true || skills !== undefined ? { listChanged: true } : {}),
                },
              }),
          completions: {},
          logging: {},
        },
        ...(handlers.instructions === undefined ? {} : { instructions: handlers.instructions }),
        requestState: { verify: rounds.verify },
      },
    );
    // Every handler registered below (the skills' too) is timed, and traced inside the timing; without
    // metrics or traces nothing is wrapped.
    if (metrics !== undefined) wrapHandlers(server, (method, handler) => timedHandler(metrics, method, handler));
    if (tracing !== undefined && traces !== undefined) {
      wrapHandlers(server, (method, handler) => tracedHandler(tracing, method, handler, traces, sdk.PROTOCOL_VERSION_META_KEY));
    }
    /** This connection as a client for requests outside any call; capabilities are read when asked. */
    const connection: ClientPeer | undefined = live
      ? {
          label: 'session',
          session: server,
          sampling: (params) =>
            (server.getClientCapabilities()?.sampling === undefined
              ? undefined
              : server.createMessage(params as never)) as Promise<JsonObject>,
          elicitation: (params) =>
            (server.getClientCapabilities()?.elicitation === undefined
              ? undefined
              : server.elicitInput(params as never)) as Promise<JsonObject>,
          roots: () => (server.getClientCapabilities()?.roots === undefined ? undefined : server.listRoots()) as Promise<JsonObject>,
        }
      : undefined;
    if (connection !== undefined) {
      clients.set(server, connection);
      handlers.connected?.(connection);
    }

    const contextOf = (ctx: ServerContext): RequestContext =>
      new SdkRequestContext(server, ctx, live, connection, accessOf(ctx), traces?.get(ctx));
    /** A multi-round request: at 2026-07-28 what the handler asks the client becomes `input_required` rounds. */
    const multiRound = (ctx: ServerContext, request: string, run: (context: RequestContext) => Promise<JsonObject>): Promise<JsonObject> =>
      ctx.mcpReq.envelope === undefined
        ? run(contextOf(ctx))
        : rounds.serve(ctx, request, (pending, input) =>
            run(
              new MultiRoundRequestContext(
                server,
                ctx,
                connection,
                pending,
                input,
                sdk.CLIENT_CAPABILITIES_META_KEY,
                accessOf(ctx),
                traces?.get(ctx),
              ),
            ),
          );

    server.setRequestHandler('prompts/list', (request, ctx) =>
      listed('prompts', () => handlers.prompts.list(request.params?.cursor, callerOf(ctx)), listFailed, ctx),
    );
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const { name } = request.params;
      const caller = governed(ctx);
      try {
        guard?.check('prompt', name, caller);
        return asResult(
          await multiRound(ctx, `prompts/get "${name}"`, (context) => handlers.prompts.get(name, request.params.arguments, context)),
        );
      } catch (error) {
        return getFailed(guard === undefined ? error : guard.conceal(error, 'prompt', name, caller));
      }
    });

    if (tools !== undefined) {
      server.setRequestHandler('tools/list', (request, ctx) =>
        listed('tools', () => tools.list(request.params?.cursor, callerOf(ctx)), toolsListFailed, ctx),
      );
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const { name } = request.params;
        const caller = governed(ctx);
        try {
          guard?.check('tool', name, caller);
          return (await multiRound(ctx, `tools/call "${name}"`, (context) => tools.call(name, request.params.arguments, context))) as never;
        } catch (thrown) {
          const error = guard === undefined ? thrown : guard.conceal(thrown, 'tool', name, caller);
          const result = toolErrorResult(error);
          if (result !== undefined) return result as never;
          throw toProtocolError(sdk, error, logger, 'tools/call');
        }
      });
    }

    if (resources !== undefined || skills !== undefined) {
      server.setRequestHandler('resources/list', (request, ctx) =>
        listed('resources', () => listResources(request.params?.cursor, callerOf(ctx)), resourcesListFailed, ctx),
      );
      server.setRequestHandler('resources/templates/list', (request, ctx) =>
        listed(
          'resourceTemplates',
          () => resources?.templates(request.params?.cursor, callerOf(ctx)) ?? { items: [] },
          templatesListFailed,
          ctx,
        ),
      );
      server.setRequestHandler('resources/read', async (request, ctx) => {
        const { uri } = request.params;
        const kind = skills?.owns(uri) === true ? 'skill' : 'resource';
        const caller = governed(ctx);
        try {
          guard?.check(kind, uri, caller);
          if (skills?.owns(uri) === true) return asResult(await skills.read(uri, ctx));
          if (resources === undefined) throw new sdk.ResourceNotFoundError(uri);
          return asResult(await multiRound(ctx, `resources/read "${uri}"`, (context) => resources.read(uri, context)));
        } catch (error) {
          return readFailed(guard === undefined ? error : guard.conceal(error, kind, uri, caller));
        }
      });
      skills?.attach(server, guard === undefined ? undefined : { guard, callerOf });
    }

    // Completion suggests values, but only for what the caller may use: anything else completes to nothing.
    server.setRequestHandler('completion/complete', (request, ctx) => {
      const { ref } = request.params;
      const target = ref.type === 'ref/prompt' ? (['prompt', ref.name] as const) : (['resource', ref.uri] as const);
      if (guard !== undefined && !guard.allows(target[0], target[1], governed(ctx)))
        return Promise.resolve(asResult({ completion: { values: [], total: 0, hasMore: false } }));
      return handlers.complete(request.params, contextOf(ctx)).then(asResult, completeFailed);
    });

    // A connection hears log records at or above its level: the handlers' default until it sends
    // logging/setLevel. Stateless requests have no connection to hear them, but may still set the level.
    let clientLevel: McpLogLevel | undefined = handlers.logs.defaultLevel;
    server.setRequestHandler('logging/setLevel', async (request) => {
      clientLevel = request.params.level;
      await handlers.setLogLevel?.(request.params.level).catch(setLevelFailed);
      return {};
    });

    // Each connection subscribes to a URI once; a live connection's subscriptions end with it.
    // (A stateless request's subscription stays with the handlers: it has no connection to end.)
    const subscribed = new Set<string>();
    if (subscriptions !== undefined) {
      server.setRequestHandler('resources/subscribe', async (request) => {
        const { uri } = request.params;
        if (!subscribed.has(uri)) {
          await subscriptions.subscribe(uri).catch(subscribeFailed);
          subscribed.add(uri);
        }
        return {};
      });
      server.setRequestHandler('resources/unsubscribe', async (request) => {
        if (subscribed.delete(request.params.uri)) await subscriptions.unsubscribe(request.params.uri).catch(unsubscribeFailed);
        return {};
      });
    }

    if (live) {
      if (handlers.rootsChanged !== undefined) {
        const rootsChanged = handlers.rootsChanged;
        server.setNotificationHandler('notifications/roots/list_changed', () => rootsChanged());
      }
      const stops = [
        shared
          ? undefined
          : onListChanged((list) => {
              const sent =
                list === 'tools'
                  ? server.sendToolListChanged()
                  : list === 'prompts'
                    ? server.sendPromptListChanged()
                    : server.sendResourceListChanged();
              sent.catch(() => {});
            }),
        handlers.logs.subscribe((record) => {
          if (clientLevel !== undefined && levelRank(record.level) < levelRank(clientLevel)) return;
          const params = {
            level: record.level as LoggingLevel,
            data: record.data,
            ...(record.logger === undefined ? {} : { logger: record.logger }),
          };
          server.sendLoggingMessage(params).catch(() => {});
        }),
        shared
          ? undefined
          : subscriptions?.onUpdated((uri) => {
              if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
            }),
      ];
      const previousOnClose = server.onclose;
      server.onclose = () => {
        for (const stop of stops) stop?.();
        for (const uri of subscribed) void subscriptions?.unsubscribe(uri).catch(() => {});
        subscribed.clear();
        if (connection !== undefined) handlers.disconnected?.(connection);
        previousOnClose?.();
      };
    }
    return server;
  };

  /** The handlers' digest of a list, or every page of it hashed in order. */
  const fingerprint = async (list: ListKind): Promise<string> => {
    const own = handlers.fingerprint?.(list);
    if (own !== undefined) return own;
    const hash = createHash('sha256');
    const lister =
      list === 'prompts'
        ? (cursor: string | undefined) => handlers.prompts.list(cursor)
        : list === 'tools'
          ? tools === undefined
            ? undefined
            : (cursor: string | undefined) => tools.list(cursor)
          : (cursor: string | undefined) => listResources(cursor, undefined);
    let cursor: string | undefined;
    do {
      const answer = lister?.(cursor) ?? { items: [] };
      const listedPage = answer instanceof Promise ? await answer : answer;
      hash.update(JSON.stringify(listedPage.items));
      cursor = listedPage.nextCursor;
    } while (cursor !== undefined);
    return hash.digest('base64url');
  };

  return {
    create,
    factory: (live) => () => create({ live }),
    onListChanged,
    fingerprint,
    ...(subscriptions === undefined ? {} : { onResourceUpdated: (listener: (uri: string) => void) => subscriptions.onUpdated(listener) }),
    relay: relayOf(
      handlers.prompts.getNeedsSignalOnly === true ? joinRelays(createPromptRelay(handlers, sdk, logger), handlers.relay) : handlers.relay,
      metrics,
      tracing,
    ),
    governed: guard !== undefined,
    clientOf: (server) => clients.get(server),
    logger,
    serverInfo: { name: handlers.name, version: handlers.version },
    tracing,
  };
};

/** The handlers' relay, timed with metrics and traced with traces (each only when on). */
const relayOf = (relay: McpRelay | undefined, metrics: Metrics | undefined, tracing: McpTracing | undefined): McpRelay | undefined => {
  if (relay === undefined) return undefined;
  const timed = metrics === undefined ? relay : timedRelay(relay, metrics);
  return tracing === undefined ? timed : tracedRelay(timed, tracing);
};
