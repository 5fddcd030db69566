import { CLIENT_CAPABILITIES_META_KEY, specTypeSchemas } from '@modelcontextprotocol/client';
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
import { ttlOf } from './polling.js';
import { runSliced } from '../slices.js';
import type { Sliced } from '../slices.js';
import type { ClosableRelay } from './relay.js';
import { pollResource } from './resource-polling.js';
import type { ResourceWatch } from './resource-polling.js';
import type {
  Era,
  ListChanges,
  Listed,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  UpstreamConnection,
  UpstreamRequestOptions,
} from './upstream-types.js';
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

/** The four lists: their request method, the key of their items in a page, and the spec type of an item. */
const LISTS = {
  tools: { method: 'tools/list', key: 'tools', type: 'Tool' },
  prompts: { method: 'prompts/list', key: 'prompts', type: 'Prompt' },
  resources: { method: 'resources/list', key: 'resources', type: 'Resource' },
  resourceTemplates: { method: 'resources/templates/list', key: 'resourceTemplates', type: 'ResourceTemplate' },
} as const;
type ListKind = keyof typeof LISTS;

/** One page as it came: its items (not checked yet), the next page's cursor, and the rest (`ttlMs`). */
interface Page {
  readonly items: readonly unknown[];
  readonly nextCursor: string | undefined;
  readonly result: object;
}

/**
 * A page is checked for its shape only (an object with a list of items): its items are checked one
 * by one, the kept ones, in slices (`validating`) — the SDK's check of a whole page at once would
 * hold the event loop for every item of a huge page, cap or not.
 */
const pageShape = (key: string): StandardSchemaV1<unknown, Page> => ({
  '~standard': {
    version: 1,
    vendor: 'promptyard',
    validate: (value) => {
      const record = value as Record<string, unknown> | null;
      const items = typeof record === 'object' && record !== null ? record[key] : undefined;
      const cursor = record?.['nextCursor'];
      if (!Array.isArray(items) || (cursor !== undefined && typeof cursor !== 'string'))
        return { issues: [{ message: `the result must hold a list "${key}" (and a string "nextCursor" when there is more)` }] };
      return { value: { items, nextCursor: cursor as string | undefined, result: record as object } };
    },
  },
});

/** Each item checked against its spec type (defaults filled in, as the SDK's own check would), a slice at a time. */
function* validating(kind: ListKind, items: readonly unknown[]): Sliced<unknown[]> {
  const schema = specTypeSchemas[LISTS[kind].type]['~standard'];
  const valid: unknown[] = [];
  for (const [index, item] of items.entries()) {
    yield;
    const checked = schema.validate(item);
    if (checked instanceof Promise) throw new Error(`${LISTS[kind].method}: item ${index} could not be checked`);
    if (checked.issues !== undefined)
      throw new Error(
        `${LISTS[kind].method}: item ${index} is not a valid ${LISTS[kind].type}: ${checked.issues.map((issue) => issue.message).join('; ')}`,
      );
    valid.push(checked.value);
  }
  return valid;
}

/**
 * A list read page by page, with the freshness page one gave it (2026-07-28 `ttlMs`); none without
 * the capability. Reading stops once more than `cap` items were read (so a huge catalog costs at
 * most one page past the cap), at a page that adds nothing, and at a cursor seen before; the first
 * `cap` are kept and checked. The gateway keeps the lists itself (and re-lists when told or when
 * they go stale): the SDK's cache is neither consulted nor written.
 */
const walk = async (
  client: Client,
  kind: ListKind,
  capability: object | undefined,
  timeoutMs: number,
  cap: number,
): Promise<Listed<unknown>> => {
  if (capability === undefined) return { items: [], ttlMs: undefined };
  const { method, key } = LISTS[kind];
  const page = (cursor: string | undefined): Promise<Page> =>
    client.request({ method, ...(cursor === undefined ? {} : { params: { cursor } }) }, pageShape(key), { timeout: timeoutMs });
  const first = await page(undefined);
  const read = [...first.items];
  const cursors = new Set<string>();
  let cursor = first.nextCursor;
  while (cursor !== undefined && read.length <= cap && !cursors.has(cursor)) {
    cursors.add(cursor);
    const next = await page(cursor);
    if (next.items.length === 0) break;
    // One at a time: spreading a page of many thousand items into push() overflows the stack.
    for (const item of next.items) read.push(item);
    cursor = next.nextCursor;
  }
  const over = read.length <= cap ? undefined : { count: read.length, more: cursor !== undefined && !cursors.has(cursor) };
  read.length = Math.min(read.length, cap);
  const items = await runSliced(validating(kind, read));
  return { items, ttlMs: ttlOf(first.result), ...(over === undefined ? {} : { over }) };
};

/**
 * What the SDK's `listTools()` does to every list it returns: on 2026-07-28 over HTTP, tools whose
 * `x-mcp-header` declarations cannot be mirrored are left out (SEP-2243). The SDK keeps that step to
 * itself; it is reached here by name, and skipped should a later SDK drop it.
 */
const withoutUnmirrorableTools = (client: Client, listed: Listed<Tool>): Listed<Tool> => {
  const page = { tools: listed.items };
  (client as unknown as { _excludeInvalidXMcpHeaderTools?: (result: { tools: Tool[] }) => void })._excludeInvalidXMcpHeaderTools?.(page);
  return { ...listed, items: page.tools };
};

/** The connection's four lists. */
const listsOf = (
  client: Client,
  capabilities: ServerCapabilities,
): Pick<UpstreamConnection, 'listTools' | 'listPrompts' | 'listResources' | 'listResourceTemplates'> => ({
  listTools: async (timeoutMs, cap) =>
    withoutUnmirrorableTools(client, (await walk(client, 'tools', capabilities.tools, timeoutMs, cap)) as Listed<Tool>),
  listPrompts: async (timeoutMs, cap) => (await walk(client, 'prompts', capabilities.prompts, timeoutMs, cap)) as Listed<Prompt>,
  listResources: async (timeoutMs, cap) => (await walk(client, 'resources', capabilities.resources, timeoutMs, cap)) as Listed<Resource>,
  listResourceTemplates: async (timeoutMs, cap) =>
    (await walk(client, 'resourceTemplates', capabilities.resources, timeoutMs, cap)) as Listed<ResourceTemplate>,
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
