import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  Client,
  CompleteResult,
  GetPromptResult,
  McpSubscription,
  ReadResourceResult,
  RequestOptions,
  ServerCapabilities,
  StandardSchemaV1,
  Transport,
} from '@modelcontextprotocol/client';
import { fresh, ttlOf } from './polling.js';
import type { ClosableRelay } from './relay.js';
import { pollResource } from './resource-polling.js';
import type { ResourceWatch } from './resource-polling.js';
import type { Era, ListChanges, Listed, UpstreamConnection, UpstreamRequestOptions } from './upstream-types.js';
import type { GatewayAuth } from './oauth.js';
import { upstreamSkills } from './upstream-skills.js';

/**
 * Results the gateway forwards unchanged are checked for shape only (a JSON object), not parsed
 * against the SDK's schemas: the downstream client validates what it receives, and a second full
 * parse on the way through costs more than the hop itself.
 */
const forwarded = <T>(what: string): StandardSchemaV1<unknown, T> => ({
  '~standard': {
    version: 1,
    vendor: 'promptyard',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as T }
        : { issues: [{ message: `${what} result must be a JSON object` }] },
  },
});
const callToolResult = forwarded<CallToolResult>('tools/call');
const getPromptResult = forwarded<GetPromptResult>('prompts/get');
const readResourceResult = forwarded<ReadResourceResult>('resources/read');
const completeResult = forwarded<CompleteResult>('completion/complete');

const requestOptions = (options: UpstreamRequestOptions): RequestOptions => ({
  timeout: options.timeoutMs,
  resetTimeoutOnProgress: true,
  ...(options.signal === undefined ? {} : { signal: options.signal }),
  ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
  ...(options.multiRound === undefined ? {} : { allowInputRequired: true }),
});

/** A request's params with the call's trace context in `_meta`, when traces are on. */
const withTrace = (params: Record<string, unknown>, options: UpstreamRequestOptions): Record<string, unknown> =>
  options.meta === undefined
    ? params
    : { ...params, _meta: options.meta(params['_meta'] as Readonly<Record<string, unknown>> | undefined) };

/** A multi-round request's params: the client's answers and the backend's state of the previous round, passed on. */
const withRound = (request: Record<string, unknown>, options: UpstreamRequestOptions): Record<string, unknown> => {
  const params = withTrace(request, options);
  const round = options.multiRound;
  if (round === undefined) return params;
  // The backend asks only what the client can answer: its capabilities, not the gateway's, travel along.
  const meta =
    round.clientCapabilities === undefined
      ? params['_meta']
      : { ...(params['_meta'] as object | undefined), [CLIENT_CAPABILITIES_META_KEY]: round.clientCapabilities };
  return {
    ...params,
    ...(meta === undefined ? {} : { _meta: meta }),
    ...(round.inputResponses === undefined ? {} : { inputResponses: round.inputResponses }),
    ...(round.requestState === undefined ? {} : { requestState: round.requestState }),
  };
};

/** The gateway keeps the lists itself (and re-lists when told or when they go stale): the SDK's cache is not consulted. */
/** A list with the freshness the server gave it (2026-07-28 `ttlMs`); none without the capability. */
const listed = async <R extends object, T>(
  capability: object | undefined,
  list: () => Promise<R>,
  items: (result: R) => T[],
): Promise<Listed<T>> => {
  if (capability === undefined) return { items: [], ttlMs: undefined };
  const result = await list();
  // Page one's `ttlMs`.
  return { items: items(result), ttlMs: ttlOf(result) };
};

/** The connection's four lists. */
const listsOf = (
  client: Client,
  capabilities: ServerCapabilities,
): Pick<UpstreamConnection, 'listTools' | 'listPrompts' | 'listResources' | 'listResourceTemplates'> => ({
  listTools: (timeoutMs) =>
    listed(
      capabilities.tools,
      () => client.listTools(undefined, fresh(timeoutMs)),
      (result) => result.tools,
    ),
  listPrompts: (timeoutMs) =>
    listed(
      capabilities.prompts,
      () => client.listPrompts(undefined, fresh(timeoutMs)),
      (result) => result.prompts,
    ),
  listResources: (timeoutMs) =>
    listed(
      capabilities.resources,
      () => client.listResources(undefined, fresh(timeoutMs)),
      (result) => result.resources,
    ),
  listResourceTemplates: (timeoutMs) =>
    listed(
      capabilities.resources,
      () => client.listResourceTemplates(undefined, fresh(timeoutMs)),
      (result) => result.resourceTemplates,
    ),
});

/** What stays of one attempt once connected: what the connection's methods use. */
export interface Link {
  readonly client: Client;
  readonly transport: Transport;
  readonly era: Era;
  readonly capabilities: ServerCapabilities;
  readonly relay: ClosableRelay | undefined;
  readonly fallbackReason: string | undefined;
  readonly authProvider: GatewayAuth | undefined;
  pid(): number | undefined;
  /** How list changes reach the gateway now (a listen stream may open after the connection did). */
  listChanges(): ListChanges;
  /** A polled resource changed (the server has no listen stream to say so). */
  resourceUpdated(uri: string): void;
  /** Marks the connection closed on purpose (its close is then not reported as lost). */
  closing(): void;
}

/** The connection the gateway uses: every request with its options, lists, subscriptions and close. */
export const connectionOf = (link: Link): UpstreamConnection => {
  const { client, transport, era, capabilities, relay, authProvider } = link;
  const listening = new Map<string, McpSubscription>();
  const polling = new Map<string, ResourceWatch>();
  return {
    era,
    relay,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    fallbackReason: link.fallbackReason,
    get pid() {
      return link.pid();
    },
    capabilities,
    serverInfo: client.getServerVersion(),
    skills: upstreamSkills(client),
    get listChanges() {
      return link.listChanges();
    },
    ...listsOf(client, capabilities),
    // `request` rather than `callTool`: a gateway forwards results unchanged, without re-validating
    // structured output it does not own.
    callTool: (name, args, meta, options) =>
      client.request(
        {
          method: 'tools/call',
          params: withRound(
            { name, ...(args === undefined ? {} : { arguments: args }), ...(meta === undefined ? {} : { _meta: meta }) },
            options,
          ),
        },
        callToolResult,
        requestOptions(options),
      ),
    getPrompt: (name, args, options) =>
      client.request(
        { method: 'prompts/get', params: withRound({ name, ...(args === undefined ? {} : { arguments: args }) }, options) },
        getPromptResult,
        requestOptions(options),
      ),
    readResource: (uri, options) =>
      client.request({ method: 'resources/read', params: withRound({ uri }, options) }, readResourceResult, requestOptions(options)),
    complete: (params, options) =>
      client.request({ method: 'completion/complete', params: withTrace(params, options) }, completeResult, requestOptions(options)),
    // 2026-07-28 has no resources/subscribe: a subscription is a listen stream of its own, whose
    // updates reach the same notification handler.
    subscribe: async (uri, timeoutMs) => {
      if (era === 'legacy') await client.subscribeResource({ uri }, { timeout: timeoutMs });
      else if (listening.has(uri) || polling.has(uri)) return;
      // No listen stream to carry its updates, or a server that does not offer subscriptions: the
      // resource is read again as its ttlMs runs out.
      else if (link.listChanges().via === 'polling' || capabilities.resources?.subscribe !== true)
        polling.set(uri, pollResource(client, uri, timeoutMs, link.resourceUpdated));
      else listening.set(uri, await client.listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs }));
    },
    unsubscribe: async (uri, timeoutMs) => {
      if (era === 'legacy') await client.unsubscribeResource({ uri }, { timeout: timeoutMs });
      else {
        const subscription = listening.get(uri) ?? polling.get(uri);
        listening.delete(uri);
        polling.delete(uri);
        await subscription?.close();
      }
    },
    setLoggingLevel: async (level, timeoutMs) => {
      if (capabilities.logging === undefined || era === 'modern') return;
      await client.setLoggingLevel(level, { timeout: timeoutMs });
    },
    rootsChanged: async () => {
      if (era === 'legacy') await client.sendRootsListChanged();
    },
    close: async () => {
      link.closing();
      for (const watch of polling.values()) void watch.close();
      authProvider?.close();
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
};
