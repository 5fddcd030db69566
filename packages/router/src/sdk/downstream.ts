import { isInvalidParams, isPromptyardError } from '@promptyard/core';
import type { ListKind, Logger, McpServerBlueprint } from '@promptyard/core';
import type * as ServerModule from '@modelcontextprotocol/server';
import type { LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallContext, DownstreamPeer, Router } from '../router.js';
import { UpstreamError } from '../router.js';

type ServerSdk = typeof ServerModule;

let loading: Promise<ServerSdk> | undefined;
const loadSdk = (): Promise<ServerSdk> => (loading ??= import('@modelcontextprotocol/server'));

export interface GatewayServerOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
  readonly logger: Logger;
}

const levels: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const levelRank = (level: LoggingLevel): number => levels.indexOf(level);

/** Failures a model should read and act on come back as `isError` results, not protocol errors. */
const toolErrorCodes = new Set(['BACKEND_UNAVAILABLE', 'BACKEND_ERROR', 'TIMEOUT']);

/**
 * The gateway as an MCP server: one low-level `Server` per downstream connection (stdio, 2025
 * sessions) or per request (2026-07-28 and session-less HTTP), every handler routed through the
 * router, and the router's events pushed to live connections.
 */
export const createGatewayBlueprint = async (router: Router, options: GatewayServerOptions): Promise<McpServerBlueprint> => {
  const sdk = await loadSdk();
  const { ProtocolError } = sdk;
  const { logger } = options;

  const toProtocolError = (error: unknown, method: string): Error => {
    if (error instanceof ProtocolError) return error;
    if (error instanceof UpstreamError) return new ProtocolError(error.code, error.message, error.data);
    if (isPromptyardError(error)) {
      if (!isInvalidParams(error.code)) logger.warn(`${method} failed`, { code: error.code, reason: error.message });
      return new ProtocolError(isInvalidParams(error.code) ? -32602 : -32603, error.message, { code: error.code, ...error.data });
    }
    const reason = error instanceof Error ? error.message : String(error);
    logger.error(`${method} failed unexpectedly`, { reason });
    return new ProtocolError(-32603, `Internal error while handling ${method}: ${reason}. See the gateway log for details.`);
  };

  /** The stdio connection's peer (stdio has one live instance), for calls taken by the relay. */
  let stdioPeer: DownstreamPeer | undefined;
  const relayed = new Map<unknown, { cancel(reason: string): void }>();
  const relay = {
    offer: (message: Readonly<Record<string, unknown>>, reply: (message: Readonly<Record<string, unknown>>) => void): boolean => {
      const params = message['params'] as Readonly<Record<string, unknown>> | undefined;
      if (message['method'] === 'tools/call' && message['id'] !== undefined && params !== undefined) {
        const id = message['id'];
        const handle = router.relayToolCall({ id, params }, stdioPeer, (response) => {
          relayed.delete(id);
          reply(response);
        });
        if (handle === undefined) return false;
        relayed.set(id, handle);
        return true;
      }
      if (message['method'] === 'notifications/cancelled' && params !== undefined) {
        const handle = relayed.get(params['requestId']);
        if (handle === undefined) return false;
        relayed.delete(params['requestId']);
        handle.cancel(typeof params['reason'] === 'string' ? params['reason'] : 'cancelled by the client');
        return true;
      }
      return false;
    },
  };

  const create = ({ live }: { readonly live: boolean }): Server => {
    const server = new sdk.Server(
      { name: options.name, version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          completions: {},
          logging: {},
        },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );

    /** This connection as a peer for backend requests made outside any call (roots at start-up). */
    const sessionPeer: DownstreamPeer | undefined = live
      ? {
          label: 'session',
          session: server,
          sampling: (params) => (server.getClientCapabilities()?.sampling === undefined ? undefined : (server.createMessage(params as never) as Promise<never>)),
          elicitation: (params) => (server.getClientCapabilities()?.elicitation === undefined ? undefined : (server.elicitInput(params as never) as Promise<never>)),
          roots: () => (server.getClientCapabilities()?.roots === undefined ? undefined : (server.listRoots() as Promise<never>)),
        } as DownstreamPeer
      : undefined;

    if (sessionPeer !== undefined) stdioPeer = sessionPeer;

    /** The downstream context of one request: its client (when it can take requests), progress, cancellation. */
    const contextOf = (ctx: ServerContext): CallContext => {
      const modern = ctx.mcpReq.envelope !== undefined;
      const capabilities = modern ? undefined : server.getClientCapabilities();
      const peer: DownstreamPeer = {
        label: modern ? 'request (2026-07-28)' : 'request',
        // Stateless requests are each their own connection.
        session: live ? server : ctx,
        sampling: capabilities?.sampling === undefined ? undefined : (params) => ctx.mcpReq.requestSampling(params as never) as Promise<never>,
        elicitation: capabilities?.elicitation === undefined ? undefined : (params) => ctx.mcpReq.elicitInput(params as never) as Promise<never>,
        roots: capabilities?.roots === undefined ? undefined : () => ctx.mcpReq.send({ method: 'roots/list' }) as Promise<never>,
      };
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (sessionPeer !== undefined) router.notePeer(sessionPeer);
      return {
        peer,
        signal: ctx.mcpReq.signal,
        ...(progressToken === undefined
          ? {}
          : {
              progressToken,
              onProgress: (progress) => {
                ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => {});
              },
            }),
      };
    };
    const passMeta = (ctx: ServerContext): Record<string, unknown> | undefined => {
      const meta = ctx.mcpReq._meta;
      if (meta === undefined) return undefined;
      const { progressToken: _progressToken, ...rest } = meta as Record<string, unknown>;
      return Object.keys(rest).length === 0 ? undefined : rest;
    };

    server.setRequestHandler('tools/list', async () => ({ tools: [...router.listTools()] }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      try {
        return (await router.callTool(request.params.name, request.params.arguments, contextOf(ctx), passMeta(ctx))) as never;
      } catch (error) {
        if (isPromptyardError(error) && toolErrorCodes.has(error.code)) return { content: [{ type: 'text', text: error.message }], isError: true };
        throw toProtocolError(error, 'tools/call');
      }
    });
    server.setRequestHandler('prompts/list', async () => ({ prompts: [...router.listPrompts()] }));
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      try {
        return (await router.getPrompt(request.params.name, request.params.arguments, contextOf(ctx))) as never;
      } catch (error) {
        throw toProtocolError(error, 'prompts/get');
      }
    });
    server.setRequestHandler('resources/list', async () => ({ resources: [...router.listResources()] }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [...router.listResourceTemplates()] }));
    server.setRequestHandler('resources/read', async (request, ctx) => {
      try {
        return (await router.readResource(request.params.uri, contextOf(ctx))) as never;
      } catch (error) {
        throw toProtocolError(error, 'resources/read');
      }
    });
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      try {
        return (await router.complete(request.params as never, contextOf(ctx))) as never;
      } catch (error) {
        throw toProtocolError(error, 'completion/complete');
      }
    });

    const subscribed = new Set<string>();
    server.setRequestHandler('resources/subscribe', async (request) => {
      try {
        if (!subscribed.has(request.params.uri)) {
          await router.subscribe(request.params.uri);
          subscribed.add(request.params.uri);
        }
        return {};
      } catch (error) {
        throw toProtocolError(error, 'resources/subscribe');
      }
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      try {
        if (subscribed.delete(request.params.uri)) await router.unsubscribe(request.params.uri);
        return {};
      } catch (error) {
        throw toProtocolError(error, 'resources/unsubscribe');
      }
    });

    let clientLevel: LoggingLevel | undefined;
    server.setRequestHandler('logging/setLevel', async (request) => {
      clientLevel = request.params.level;
      await router.setLogLevel(request.params.level);
      return {};
    });

    if (live) {
      server.setNotificationHandler('notifications/roots/list_changed', () => {
        void router.rootsChanged();
      });
      const stops = [
        router.on('listChanged', (list) => {
          const send = list === 'tools' ? server.sendToolListChanged() : list === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
          send.catch(() => {});
        }),
        router.on('log', (record) => {
          if (clientLevel !== undefined && levelRank(record.level) < levelRank(clientLevel)) return;
          server.sendLoggingMessage({ level: record.level, logger: record.logger === undefined ? record.server : `${record.server}/${record.logger}`, data: record.data }).catch(() => {});
        }),
        router.on('resourceUpdated', (uri) => {
          if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
        }),
      ];
      const previousOnClose = server.onclose;
      server.onclose = () => {
        for (const stop of stops) stop();
        for (const uri of subscribed) void router.unsubscribe(uri).catch(() => {});
        subscribed.clear();
        if (sessionPeer !== undefined) router.forgetPeer(sessionPeer);
        previousOnClose?.();
      };
    }
    return server;
  };

  return {
    create,
    factory: (live) => () => create({ live }),
    onListChanged: (listener: (list: ListKind) => void) => router.on('listChanged', listener),
    onResourceUpdated: (listener) => router.on('resourceUpdated', listener),
    relay,
    logger,
  };
};
