import { CLIENT_CAPABILITIES_META_KEY, Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  McpSubscription,
  Prompt,
  ReadResourceResult,
  RequestOptions,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  StandardSchemaV1,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import type { ProtocolChoice } from '../config-backend.js';
import { keepListening } from './listen.js';
import { createGatewayAuth, isNeedsLogin } from './oauth.js';
import type { GatewayAuth, UpstreamOAuth } from './oauth.js';
import { createRelay } from './relay.js';
import type { ClosableRelay, UpstreamRelay } from './relay.js';
import { ProcessGroupTransport } from './stdio-transport.js';
import { upstreamSkills } from './upstream-skills.js';
import type { UpstreamSkills } from './upstream-skills.js';

export type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
};
export type ListName = 'tools' | 'prompts' | 'resources';
export type Era = 'legacy' | 'modern';

/** How to reach one backend. */
export type UpstreamSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly inheritEnv: boolean;
      readonly cwd?: string | undefined;
      readonly protocol: ProtocolChoice;
    }
  | {
      readonly kind: 'streamable-http' | 'sse';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly protocol: ProtocolChoice;
      /** `auth = "oauth"`: the gateway's own token for this server (never a client's). */
      readonly oauth?: UpstreamOAuth | undefined;
    };

/** What a backend asks of its client, answered by the router (usually by asking a downstream client). */
export interface UpstreamPeer {
  sampling(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  elicitation(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  roots(): Promise<Record<string, unknown>>;
  listChanged(list: ListName): void;
  log(params: { readonly level: LoggingLevel; readonly logger?: string | undefined; readonly data: unknown }): void;
  resourceUpdated(uri: string): void;
  stderr(line: string): void;
  closed(error: Error | undefined): void;
  /** An `auth = "oauth"` server whose token cannot be had or refreshed without a person logging in. */
  needsLogin(error: Error): void;
  /** Something worth a warning that does not end the connection. */
  warn(message: string, reason: string): void;
}

export interface UpstreamRequestOptions {
  readonly timeoutMs: number;
  /** With traces on: the `_meta` the request carries, given the one it would (the call's trace context replaces the caller's). */
  readonly meta?: ((meta: Readonly<Record<string, unknown>> | undefined) => Record<string, unknown>) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  /**
   * A 2026-07-28 client's multi-round request to a 2026-07-28 backend: its answers and state go along,
   * and an `input_required` result comes back as it is (the client answers it) instead of being
   * fulfilled here.
   */
  readonly multiRound?:
    | {
        readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
        readonly requestState?: string | undefined;
        readonly clientCapabilities?: Readonly<Record<string, unknown>> | undefined;
      }
    | undefined;
}

export interface UpstreamConnection {
  readonly era: Era;
  /** Present for 2025-era stdio backends. */
  readonly relay: UpstreamRelay | undefined;
  readonly protocolVersion: string | undefined;
  /** Why `protocol = "auto"` settled for 2025-11-25 although the server offered 2026-07-28. */
  readonly fallbackReason: string | undefined;
  readonly pid: number | undefined;
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  /** Present when the server declares the skills extension. */
  readonly skills: UpstreamSkills | undefined;
  listTools(timeoutMs: number): Promise<Tool[]>;
  listPrompts(timeoutMs: number): Promise<Prompt[]>;
  listResources(timeoutMs: number): Promise<Resource[]>;
  listResourceTemplates(timeoutMs: number): Promise<ResourceTemplate[]>;
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    options: UpstreamRequestOptions,
  ): Promise<CallToolResult>;
  getPrompt(name: string, args: Record<string, string> | undefined, options: UpstreamRequestOptions): Promise<GetPromptResult>;
  readResource(uri: string, options: UpstreamRequestOptions): Promise<ReadResourceResult>;
  complete(params: Record<string, unknown>, options: UpstreamRequestOptions): Promise<CompleteResult>;
  subscribe(uri: string, timeoutMs: number): Promise<void>;
  unsubscribe(uri: string, timeoutMs: number): Promise<void>;
  setLoggingLevel(level: LoggingLevel, timeoutMs: number): Promise<void>;
  rootsChanged(): Promise<void>;
  close(): Promise<void>;
}

const clientCapabilities: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

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

/**
 * The SDK runs notification handlers a microtask late but settles responses at once, so a progress
 * notification read in the same chunk as its request's response finds the request gone and is
 * dropped (the last step of every fast tool). After a notification, later messages wait one
 * macrotask: handlers see messages in the order the backend sent them.
 */
export const deliverNotificationsFirst = (transport: Transport): void => {
  const handler = transport.onmessage;
  if (handler === undefined) return;
  type Args = Parameters<typeof handler>;
  const queue: Args[] = [];
  let draining = false;
  const drain = (): void => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      handler(...next);
      if (!('id' in next[0])) {
        setImmediate(drain);
        return;
      }
    }
    draining = false;
  };
  transport.onmessage = (...args: Args) => {
    queue.push(args);
    if (draining) return;
    draining = true;
    drain();
  };
};

interface ConnectOptions {
  readonly name: string;
  readonly version: string;
  readonly connectTimeoutMs: number;
  /** Aborted: the attempt ends at once (the gateway closing, the server stopped or removed). */
  readonly signal?: AbortSignal;
}

/** How one attempt shakes hands: the plain 2025 `initialize`, a probe that may settle for it, or 2026-07-28 only. */
type Negotiation =
  { readonly mode: 'legacy'; readonly fallbackReason?: string } | { readonly mode: 'auto' | 'pin'; readonly timeoutMs: number };

/** A healthy server answers the probe and acknowledges the listen stream at once; `auto` waits this long before settling for 2025-11-25. */
const MODERN_ATTEMPT_MS = 5000;

/**
 * Opens the one shared connection to a backend: stdio children in their own process group, Streamable
 * HTTP, or a legacy SSE stream, on the revision `spec.protocol` asks for. `auto` over Streamable HTTP
 * probes for 2026-07-28 (`server/discover`) and falls back to the 2025 handshake; when the 2026-07-28
 * handshake or its `subscriptions/listen` stream fails, it connects again on 2025-11-25 and says why
 * in `fallbackReason`. stdio gets the 2025 handshake unless pinned (a probe stalls servers that ignore
 * unknown requests). Every server→client request and notification goes to `peer`.
 */
export const connectUpstream = async (spec: UpstreamSpec, peer: UpstreamPeer, options: ConnectOptions): Promise<UpstreamConnection> => {
  if (spec.protocol === '2026-07-28') {
    try {
      return await openUpstream(spec, peer, options, { mode: 'pin', timeoutMs: options.connectTimeoutMs });
    } catch (error) {
      throw new Error(`protocol = "2026-07-28" is set, but ${errorText(error)}; set protocol = "auto" (or "2025-11-25") for this server`, {
        cause: error,
      });
    }
  }
  if (spec.protocol === '2025-11-25' || spec.kind !== 'streamable-http') return openUpstream(spec, peer, options, { mode: 'legacy' });
  let reason: string;
  try {
    return await openUpstream(spec, peer, options, {
      mode: 'auto',
      timeoutMs: Math.min(MODERN_ATTEMPT_MS, Math.max(1, Math.floor(options.connectTimeoutMs / 2))),
    });
  } catch (error) {
    // No login, no connection: the 2025 handshake would be refused the same way.
    if (options.signal?.aborted === true || isNeedsLogin(error)) throw error;
    reason = errorText(error);
  }
  return openUpstream(spec, peer, options, { mode: 'legacy', fallbackReason: `its 2026-07-28 connection failed (${reason})` });
};

/** The SDK's headers for an SSE stream (Accept, the token …) plus the configured ones. */
const withHeaders = (base: ConstructorParameters<typeof Headers>[0], extra: Readonly<Record<string, string>>): Headers => {
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The error that ends a 2026-07-28 attempt whose `subscriptions/listen` stream did not open. */
const listenFailure = (error: Error | undefined): Error =>
  new Error(
    `the server did not open its subscriptions/listen stream${error === undefined ? '' : ` (${error.message})`}, so it could not report list changes`,
  );

const openUpstream = async (
  spec: UpstreamSpec,
  peer: UpstreamPeer,
  options: ConnectOptions,
  negotiation: Negotiation,
): Promise<UpstreamConnection> => {
  let transport: Transport;
  let joinRequestSignals = true;
  let pidOf: () => number | undefined = () => undefined;
  let authProvider: GatewayAuth | undefined;
  if (spec.kind !== 'stdio' && spec.oauth !== undefined) {
    authProvider = createGatewayAuth(spec.oauth, spec.url, {
      needsLogin: (error) => peer.needsLogin(error),
      warn: (message, reason) => peer.warn(message, reason),
    });
  }
  const auth = authProvider === undefined ? {} : { authProvider };
  if (spec.kind === 'stdio') {
    const stdio = new ProcessGroupTransport(spec, (line) => peer.stderr(line));
    transport = stdio;
    pidOf = () => stdio.pid;
  } else if (spec.kind === 'sse') {
    transport = new SSEClientTransport(new URL(spec.url), {
      ...auth,
      requestInit: { headers: { ...spec.headers } },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: withHeaders(init?.headers, spec.headers) }) },
    });
  } else {
    const http = new StreamableHTTPClientTransport(new URL(spec.url), { ...auth, requestInit: { headers: { ...spec.headers } } });
    // SDK 2.4: a request's abort signal is joined to the transport's with listeners removed only on
    // abort, so every request to an HTTP backend leaves one behind (a leak in a long-running gateway).
    // On a 2025-era connection cancellation travels as notifications/cancelled, so the request signal
    // is not needed there and is not passed; 2026-07-28 needs it (cancelling closes the stream).
    const send = http.send.bind(http);
    http.send = (message, sendOptions) => {
      if (joinRequestSignals || sendOptions?.requestSignal === undefined) return send(message, sendOptions);
      const { requestSignal: _dropped, ...rest } = sendOptions;
      return send(message, rest);
    };
    transport = http;
  }

  const client = new Client(
    { name: options.name, version: options.version },
    {
      capabilities: clientCapabilities,
      ...(negotiation.mode === 'legacy'
        ? {}
        : {
            versionNegotiation: {
              mode: negotiation.mode === 'auto' ? ('auto' as const) : { pin: '2026-07-28' },
              probe: { timeoutMs: negotiation.timeoutMs },
            },
          }),
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => peer.listChanged('tools') },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => peer.listChanged('prompts') },
        resources: { autoRefresh: false, debounceMs: 0, onChanged: () => peer.listChanged('resources') },
      },
    },
  );
  client.setRequestHandler(
    'sampling/createMessage',
    async (request) => (await peer.sampling(request.params as Record<string, unknown>)) as never,
  );
  client.setRequestHandler(
    'elicitation/create',
    async (request) => (await peer.elicitation(request.params as Record<string, unknown>)) as never,
  );
  client.setRequestHandler('roots/list', async () => (await peer.roots()) as never);
  client.setNotificationHandler('notifications/message', (notification) => {
    peer.log({ level: notification.params.level, logger: notification.params.logger, data: notification.params.data });
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => peer.resourceUpdated(notification.params.uri));

  // Transport errors are often harmless (a late notification, a dropped SSE stream the SDK resumes);
  // only one just before the connection closed explains the close.
  let lastError: { readonly error: Error; readonly at: number } | undefined;
  client.onerror = (error) => {
    lastError = { error, at: Date.now() };
  };
  let open = true;
  let relay: ClosableRelay | undefined;
  client.onclose = () => {
    relay?.closed();
    if (!open) return;
    open = false;
    peer.closed(lastError !== undefined && Date.now() - lastError.at < 1000 ? lastError.error : undefined);
  };

  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), options.connectTimeoutMs);
  // On 2026-07-28 the connect also waits for the listen stream's acknowledgement, within this.
  const handshakeMs = negotiation.mode === 'legacy' ? options.connectTimeoutMs : negotiation.timeoutMs;
  let capabilities: ServerCapabilities;
  let era: Era;
  try {
    await Promise.race([
      client.connect(transport, { timeout: handshakeMs }),
      new Promise((_, reject) =>
        timer.signal.addEventListener('abort', () =>
          reject(new Error(`no answer to the MCP handshake within ${options.connectTimeoutMs} ms`)),
        ),
      ),
      // Stopped while connecting (the gateway closing, the server removed): end the attempt now.
      new Promise((_, reject) => {
        const stop = (): void => reject(new Error('stopped while connecting'));
        if (options.signal?.aborted === true) stop();
        else options.signal?.addEventListener('abort', stop, { once: true });
      }),
    ]);
    capabilities = client.getServerCapabilities() ?? {};
    era = client.getProtocolEra() ?? 'legacy';
    // The SDK opens the listen stream for the lists the server announces changes of, and only
    // reports (to onerror) when that fails: without it the gateway would never hear of a change.
    const listens =
      capabilities.tools?.listChanged === true ||
      capabilities.prompts?.listChanged === true ||
      capabilities.resources?.listChanged === true;
    if (era === 'modern' && listens && client.autoOpenedSubscription === undefined) throw listenFailure(lastError?.error);
  } catch (error) {
    open = false;
    authProvider?.close();
    // Stopped while connecting: a server that never finished its handshake has nothing to save.
    if (options.signal?.aborted === true && transport instanceof ProcessGroupTransport) await transport.close(0).catch(() => {});
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timeout);
  }

  deliverNotificationsFirst(transport);
  const subscription = client.autoOpenedSubscription;
  if (subscription !== undefined) {
    keepListening(client, subscription, {
      isOpen: () => open,
      missed: (list) => peer.listChanged(list),
      lost: (error) => {
        open = false;
        peer.closed(error);
        void client.close().catch(() => {});
      },
    });
  }
  joinRequestSignals = era === 'modern';
  const listening = new Map<string, McpSubscription>();
  // Relayed calls need a 2025-era stdio connection: plain JSON-RPC with ids of their own.
  if (spec.kind === 'stdio' && era === 'legacy') relay = createRelay(transport);
  return {
    era,
    relay,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    fallbackReason: negotiation.mode === 'legacy' ? negotiation.fallbackReason : undefined,
    get pid() {
      return pidOf();
    },
    capabilities,
    serverInfo: client.getServerVersion(),
    skills: upstreamSkills(client),
    listTools: async (timeoutMs) =>
      capabilities.tools === undefined ? [] : (await client.listTools(undefined, { timeout: timeoutMs })).tools,
    listPrompts: async (timeoutMs) =>
      capabilities.prompts === undefined ? [] : (await client.listPrompts(undefined, { timeout: timeoutMs })).prompts,
    listResources: async (timeoutMs) =>
      capabilities.resources === undefined ? [] : (await client.listResources(undefined, { timeout: timeoutMs })).resources,
    listResourceTemplates: async (timeoutMs) =>
      capabilities.resources === undefined ? [] : (await client.listResourceTemplates(undefined, { timeout: timeoutMs })).resourceTemplates,
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
      else if (!listening.has(uri)) listening.set(uri, await client.listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs }));
    },
    unsubscribe: async (uri, timeoutMs) => {
      if (era === 'legacy') await client.unsubscribeResource({ uri }, { timeout: timeoutMs });
      else {
        const subscription = listening.get(uri);
        listening.delete(uri);
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
      open = false;
      authProvider?.close();
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
};
