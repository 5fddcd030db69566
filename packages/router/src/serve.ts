import type { Logger } from '@promptyard/core';
import type { JsonObject, ListAnswer, ListPage, McpAccess, McpHandlers, McpRelay, RequestContext } from '@promptyard/mcp';
import type { CallContext } from './calls/call-context.js';
import type { Router } from './router.js';
import type { RouterView } from './router-view.js';
import { createGatewaySkills } from './routes/skill-routes.js';

export interface GatewayHandlersOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
  readonly logger: Logger;
  /** `[[policy]]`: who may use what; each item's server is the router's to say. */
  readonly access?: Omit<McpAccess, 'serverOf'> | undefined;
  /** The surface served: `default` (everything) or a profile's name. */
  readonly profile?: string | undefined;
  /**
   * Relay 2025-era `tools/call`s as JSON-RPC (default true). Off where a call's line must name its
   * caller (an audit trail over HTTP): the relay sees no identity.
   */
  readonly relay?: boolean | undefined;
}

/**
 * The relay: a 2025-11-25 `tools/call` (stdio, an HTTP session, or a 2026-07-28 request the HTTP front
 * has translated) to a 2025-era stdio backend travels as JSON-RPC, and its `notifications/cancelled`
 * follows it. Everything else takes the full path.
 */
const createRelay = (router: RouterView): McpRelay => ({
  methods: ['tools/call'],
  open: (client) => {
    const relayed = new Map<unknown, { cancel(reason: string): void }>();
    return {
      offer: (message, reply, trace) => {
        const params = message['params'] as Readonly<Record<string, unknown>> | undefined;
        if (message['method'] === 'tools/call' && message['id'] !== undefined && params !== undefined) {
          const id = message['id'];
          const handle = router.relayToolCall(
            { id, params },
            client,
            (response) => {
              relayed.delete(id);
              reply(response);
            },
            trace,
          );
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
      close: () => {
        for (const handle of relayed.values()) handle.cancel('the client disconnected');
        relayed.clear();
      },
    };
  },
});

/**
 * The gateway as MCP handlers for `@promptyard/mcp`: every request routed through the router, the
 * router's events (list changes, backend logs, resource updates) announced to clients, and each
 * client remembered for the requests its servers make outside any call.
 */
export const createGatewayHandlers = (gateway: Router, options: GatewayHandlersOptions): McpHandlers => {
  const router = gateway.view(options.profile);
  const callContext = (context: RequestContext): CallContext => {
    if (context.connection !== undefined) gateway.notePeer(context.connection);
    return {
      identity: context.identity,
      peer: context.client,
      signal: context.signal,
      onProgress: context.onProgress,
      multiRound: context.multiRound,
      access: context.access,
      trace: context.trace,
    };
  };
  const all = (items: readonly unknown[]): ListPage => ({ items: items as readonly JsonObject[] });
  /** Many clients list once: during start-up a list waits for the servers still starting (a bounded wait). */
  const listed = (list: () => readonly unknown[]): ListAnswer => {
    const startup = router.startup();
    return startup === undefined ? all(list()) : startup.then(() => all(list()));
  };
  return {
    name: options.name,
    version: options.version,
    instructions: options.instructions,
    logger: options.logger,
    tools: {
      list: () => listed(() => router.listTools()),
      call: async (name, args, context) =>
        (await router.callTool(
          name,
          args as Record<string, unknown> | undefined,
          callContext(context),
          context.meta as Record<string, unknown> | undefined,
        )) as JsonObject,
    },
    prompts: {
      list: () => listed(() => router.listPrompts()),
      get: async (name, args, context) =>
        (await router.getPrompt(name, args as Record<string, string> | undefined, callContext(context))) as JsonObject,
    },
    resources: {
      listChanged: true,
      list: () => listed(() => router.listResources()),
      templates: () => listed(() => router.listResourceTemplates()),
      read: async (uri, context) => (await router.readResource(uri, callContext(context))) as JsonObject,
      subscriptions: {
        subscribe: (uri) => router.subscribe(uri),
        unsubscribe: (uri) => router.unsubscribe(uri),
        onUpdated: (listener) => gateway.on('resourceUpdated', listener),
      },
    },
    complete: async (params, context) => (await router.complete(params as never, callContext(context))) as JsonObject,
    logs: {
      subscribe: (listener) =>
        gateway.on('log', (record) =>
          listener({
            level: record.level,
            logger: record.logger === undefined ? record.server : `${record.server}/${record.logger}`,
            data: record.data,
          }),
        ),
    },
    setLogLevel: (level) => gateway.setLogLevel(level),
    rootsChanged: () => void gateway.rootsChanged(),
    onListChanged: (listener) => router.onListChanged(listener),
    disconnected: (connection) => gateway.forgetPeer(connection),
    ...(options.relay === false ? {} : { relay: createRelay(router) }),
    skills: createGatewaySkills(router),
    ...(options.access === undefined ? {} : { access: { ...options.access, serverOf: (kind, name) => router.serverOf(kind, name) } }),
  };
};
