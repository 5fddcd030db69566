import type { LoggingLevel, McpServerFactory, Server, ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '@promptyard/core';
import { toolErrorResult, toProtocolError } from './errors.js';
import type { ClientPeer, JsonObject, ListKind, ListPage, McpHandlers, McpLogLevel, RequestContext, StdioRelay } from './handlers.js';
import { loadServerSdk } from './sdk.js';
import type { ServerSdk } from './sdk.js';

/** What the serving entries (`serveStdio`, `serveHttp`) need: fresh server instances and change events. */
export interface McpServerBlueprint {
  /** Builds one instance; `live` instances (stdio, 2025 sessions) push notifications until closed. */
  create(options: { readonly live: boolean }): Server;
  readonly factory: (live: boolean) => McpServerFactory;
  /** Fires when a served list changes, for stateless entries that publish changes themselves. */
  onListChanged(listener: (list: ListKind) => void): () => void;
  /** Fires when a subscribable resource changed, for stateless entries. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  readonly relay?: StdioRelay | undefined;
  readonly logger: Logger;
}

const levels: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const levelRank = (level: McpLogLevel): number => levels.indexOf(level);

const page = (key: string, listed: ListPage): Record<string, unknown> => ({
  [key]: listed.items,
  ...(listed.nextCursor === undefined ? {} : { nextCursor: listed.nextCursor }),
});

/** Wraps a handler: its failures become the JSON-RPC errors of `toProtocolError`. */
const guard =
  <A extends unknown[], R>(sdk: typeof ServerSdk, logger: Logger, method: string, handle: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await handle(...args);
    } catch (error) {
      throw toProtocolError(sdk, error, logger, method);
    }
  };

/**
 * The one server adapter: every Promptyard server (the prompt server, the gateway) is an `McpHandlers`
 * description mounted here on the SDK's low-level `Server` — capabilities, request handlers, the
 * error mapping, requests back to the client, progress, per-connection log levels and subscriptions.
 */
export const createMcpServerBlueprint = async (handlers: McpHandlers): Promise<McpServerBlueprint> => {
  const sdk = await loadServerSdk();
  const { logger, tools, resources } = handlers;
  const subscriptions = resources?.subscriptions;

  const create = ({ live }: { readonly live: boolean }): Server => {
    const server = new sdk.Server(
      { name: handlers.name, version: handlers.version },
      {
        capabilities: {
          prompts: { listChanged: true },
          ...(tools === undefined ? {} : { tools: { listChanged: true } }),
          ...(resources === undefined
            ? {}
            : { resources: { ...(subscriptions === undefined ? {} : { subscribe: true }), ...(resources.listChanged ? { listChanged: true } : {}) } }),
          completions: {},
          logging: {},
        },
        ...(handlers.instructions === undefined ? {} : { instructions: handlers.instructions }),
      },
    );
    const wrap = <A extends unknown[], R>(method: string, handle: (...args: A) => Promise<R>) => guard(sdk, logger, method, handle);

    /** This connection as a client for requests outside any call; capabilities are read when asked. */
    const connection: ClientPeer | undefined = live
      ? {
          label: 'session',
          session: server,
          sampling: (params) => (server.getClientCapabilities()?.sampling === undefined ? undefined : server.createMessage(params as never)) as Promise<JsonObject>,
          elicitation: (params) => (server.getClientCapabilities()?.elicitation === undefined ? undefined : server.elicitInput(params as never)) as Promise<JsonObject>,
          roots: () => (server.getClientCapabilities()?.roots === undefined ? undefined : server.listRoots()) as Promise<JsonObject>,
        }
      : undefined;
    if (connection !== undefined) handlers.connected?.(connection);

    const contextOf = (ctx: ServerContext): RequestContext => {
      const request = ctx.mcpReq;
      const meta = request._meta as Record<string, unknown> | undefined;
      const progressToken = meta?.['progressToken'] as string | number | undefined;
      let client: ClientPeer | undefined;
      let passed: JsonObject | undefined;
      if (meta !== undefined) {
        const { progressToken: _token, ...rest } = meta;
        if (Object.keys(rest).length > 0) passed = rest;
      }
      return {
        signal: request.signal,
        connection,
        // Built on first use: most requests never ask their client anything.
        get client(): ClientPeer {
          if (client !== undefined) return client;
          const modern = request.envelope !== undefined;
          const capabilities = modern ? undefined : server.getClientCapabilities();
          client = {
            label: modern ? 'request (2026-07-28)' : 'request',
            // Stateless requests are each their own connection.
            session: live ? server : ctx,
            sampling: capabilities?.sampling === undefined ? undefined : (params) => request.requestSampling(params as never) as Promise<JsonObject>,
            elicitation: capabilities?.elicitation === undefined ? undefined : (params) => request.elicitInput(params as never) as Promise<JsonObject>,
            roots: capabilities?.roots === undefined ? undefined : () => request.send({ method: 'roots/list' }) as Promise<JsonObject>,
          };
          return client;
        },
        ...(progressToken === undefined
          ? {}
          : {
              progressToken,
              onProgress: (progress) => {
                request.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => {});
              },
            }),
        ...(passed === undefined ? {} : { meta: passed }),
      };
    };

    server.setRequestHandler(
      'prompts/list',
      wrap('prompts/list', async (request) => page('prompts', handlers.prompts.list(request.params?.cursor)) as never),
    );
    server.setRequestHandler(
      'prompts/get',
      wrap('prompts/get', async (request, ctx) => (await handlers.prompts.get(request.params.name, request.params.arguments, contextOf(ctx))) as never),
    );

    if (tools !== undefined) {
      server.setRequestHandler('tools/list', wrap('tools/list', async (request) => page('tools', tools.list(request.params?.cursor)) as never));
      server.setRequestHandler('tools/call', async (request, ctx) => {
        try {
          return (await tools.call(request.params.name, request.params.arguments, contextOf(ctx))) as never;
        } catch (error) {
          const result = toolErrorResult(error);
          if (result !== undefined) return result as never;
          throw toProtocolError(sdk, error, logger, 'tools/call');
        }
      });
    }

    if (resources !== undefined) {
      server.setRequestHandler('resources/list', wrap('resources/list', async (request) => page('resources', resources.list(request.params?.cursor)) as never));
      server.setRequestHandler(
        'resources/templates/list',
        wrap('resources/templates/list', async (request) => page('resourceTemplates', resources.templates(request.params?.cursor)) as never),
      );
      server.setRequestHandler(
        'resources/read',
        wrap('resources/read', async (request, ctx) => (await resources.read(request.params.uri, contextOf(ctx))) as never),
      );
    }

    server.setRequestHandler(
      'completion/complete',
      wrap('completion/complete', async (request, ctx) => (await handlers.complete(request.params, contextOf(ctx))) as never),
    );

    // A connection hears log records at or above its level: the handlers' default until it sends
    // logging/setLevel. Stateless requests have no connection to hear them, but may still set the level.
    let clientLevel: McpLogLevel | undefined = handlers.logs.defaultLevel;
    server.setRequestHandler(
      'logging/setLevel',
      wrap('logging/setLevel', async (request) => {
        clientLevel = request.params.level;
        await handlers.setLogLevel?.(request.params.level);
        return {};
      }),
    );

    // Each connection subscribes to a URI once; a live connection's subscriptions end with it.
    // (A stateless request's subscription stays with the handlers: it has no connection to end.)
    const subscribed = new Set<string>();
    if (subscriptions !== undefined) {
      server.setRequestHandler(
        'resources/subscribe',
        wrap('resources/subscribe', async (request) => {
          const { uri } = request.params;
          if (!subscribed.has(uri)) {
            await subscriptions.subscribe(uri);
            subscribed.add(uri);
          }
          return {};
        }),
      );
      server.setRequestHandler(
        'resources/unsubscribe',
        wrap('resources/unsubscribe', async (request) => {
          if (subscribed.delete(request.params.uri)) await subscriptions.unsubscribe(request.params.uri);
          return {};
        }),
      );
    }

    if (live) {
      if (handlers.rootsChanged !== undefined) {
        const rootsChanged = handlers.rootsChanged;
        server.setNotificationHandler('notifications/roots/list_changed', () => rootsChanged());
      }
      const stops = [
        handlers.onListChanged((list) => {
          const sent = list === 'tools' ? server.sendToolListChanged() : list === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
          sent.catch(() => {});
        }),
        handlers.logs.subscribe((record) => {
          if (clientLevel !== undefined && levelRank(record.level) < levelRank(clientLevel)) return;
          const params = { level: record.level as LoggingLevel, data: record.data, ...(record.logger === undefined ? {} : { logger: record.logger }) };
          server.sendLoggingMessage(params).catch(() => {});
        }),
        subscriptions?.onUpdated((uri) => {
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

  return {
    create,
    factory: (live) => () => create({ live }),
    onListChanged: (listener) => handlers.onListChanged(listener),
    ...(subscriptions === undefined ? {} : { onResourceUpdated: (listener: (uri: string) => void) => subscriptions.onUpdated(listener) }),
    relay: handlers.relay,
    logger,
  };
};
