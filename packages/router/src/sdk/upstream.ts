/**
 * The SDK seam: the only code in the router that imports the MCP SDK. Here each backend's one
 * shared connection is opened (`upstream-transport.ts` for stdio, Streamable HTTP and SSE,
 * `upstream-connection.ts` for its requests), its `subscriptions/listen` stream probed for and kept
 * (`listen.ts`; framed as SSE or JSON lines, the latter reframed in `bounded-fetch.ts`), its
 * 2026-07-28 results read liberally (`liberal-results.ts`),
 * 2025-era stdio calls relayed as JSON-RPC (`relay.ts`), stdio children spawned and stopped by
 * process group, and OAuth tokens obtained and refreshed (`oauth.ts`, `oauth-login.ts`).
 */
import { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ServerCapabilities, Transport } from '@modelcontextprotocol/client';
import { readLiberally } from './liberal-results.js';
import { notificationChanges, probeListen } from './listen.js';
import type { MessageLimit } from './message-bounds.js';
import { isNeedsLogin } from './oauth.js';
import { createRelay } from './relay.js';
import type { ClosableRelay } from './relay.js';
import { ProcessGroupTransport } from './stdio-transport.js';
import { connectionOf } from './upstream-connection.js';
import { openTransport } from './upstream-transport.js';
import type { OpenedTransport } from './upstream-transport.js';
import type { Era, ListChanges, UpstreamConnection, UpstreamPeer, UpstreamSpec } from './upstream-types.js';

const clientCapabilities: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
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
  /** `[limits] max_message_bytes`, and the server's id its errors name. */
  readonly limit: MessageLimit;
}

/** How one attempt shakes hands: the plain 2025 `initialize`, a probe that may settle for it, or 2026-07-28 only. */
type Negotiation =
  { readonly mode: 'legacy'; readonly fallbackReason?: string } | { readonly mode: 'auto' | 'pin'; readonly timeoutMs: number };

/** A healthy server answers the probe at once; `auto` waits this long before settling for 2025-11-25. */
const MODERN_ATTEMPT_MS = 5000;

/**
 * Opens the one shared connection to a backend: stdio children in their own process group, Streamable
 * HTTP, or a legacy SSE stream, on the revision `spec.protocol` asks for. `auto` over Streamable HTTP
 * probes for 2026-07-28 (`server/discover`) and falls back to the 2025 handshake; when the 2026-07-28
 * handshake fails, it connects again on 2025-11-25 and says why in `fallbackReason`. A 2026-07-28
 * server without a `subscriptions/listen` stream stays on 2026-07-28: its lists are polled. stdio gets the 2025 handshake unless pinned (a probe stalls servers that ignore
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

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The client, its handlers for everything the backend asks or tells, on the revision `negotiation` asks for. */
const createClient = (peer: UpstreamPeer, options: ConnectOptions, negotiation: Negotiation): Client => {
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
    },
  );
  // Not the SDK's `listChanged` option: on 2026-07-28 it waits for the listen stream as long as for
  // the handshake, where `probeListen` waits briefly and polls a server without one. The
  // notifications come unasked on 2025-11-25 and on the stream on 2026-07-28, to the same handlers.
  client.setNotificationHandler('notifications/tools/list_changed', () => peer.listChanged('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => peer.listChanged('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', () => peer.listChanged('resources'));
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
  return client;
};

/** Whether the connection is open, its relay, and the transport error that may explain its close. */
interface LinkState {
  open: boolean;
  relay: ClosableRelay | undefined;
  lastError: { readonly error: Error; readonly at: number } | undefined;
}

/** Tells `peer` when the connection closes (not when the gateway closed it), with the error that explains it. */
const reportClose = (client: Client, peer: UpstreamPeer, state: LinkState): void => {
  // Transport errors are often harmless (a late notification, a dropped SSE stream the SDK resumes);
  // only one just before the connection closed explains the close.
  client.onerror = (error) => {
    state.lastError = { error, at: Date.now() };
  };
  client.onclose = () => {
    state.relay?.closed();
    if (!state.open) return;
    state.open = false;
    peer.closed(state.lastError !== undefined && Date.now() - state.lastError.at < 1000 ? state.lastError.error : undefined);
  };
};

/** The handshake, within the connect timeout and until stopped. */
const handshake = async (client: Client, transport: Transport, options: ConnectOptions, negotiation: Negotiation) => {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), options.connectTimeoutMs);
  const handshakeMs = negotiation.mode === 'legacy' ? options.connectTimeoutMs : negotiation.timeoutMs;
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
    const capabilities = client.getServerCapabilities() ?? {};
    const era: Era = client.getProtocolEra() ?? 'legacy';
    return { capabilities, era };
  } finally {
    clearTimeout(timeout);
  }
};

/** A failed attempt leaves nothing behind: its auth timer, client and transport closed. */
const abandon = async (client: Client, opened: OpenedTransport, options: ConnectOptions): Promise<void> => {
  opened.authProvider?.close();
  const { transport } = opened;
  // Stopped while connecting: a server that never finished its handshake has nothing to save.
  if (options.signal?.aborted === true && transport instanceof ProcessGroupTransport) await transport.close(0).catch(() => {});
  await client.close().catch(() => {});
  await transport.close().catch(() => {});
};

const openUpstream = async (
  spec: UpstreamSpec,
  peer: UpstreamPeer,
  options: ConnectOptions,
  negotiation: Negotiation,
): Promise<UpstreamConnection> => {
  const opened = openTransport(spec, peer, options.limit);
  const { transport } = opened;
  readLiberally(transport, (deviation) => peer.deviated(deviation));
  const client = createClient(peer, options, negotiation);
  const state: LinkState = { open: true, relay: undefined, lastError: undefined };
  reportClose(client, peer, state);
  let shaken: { readonly capabilities: ServerCapabilities; readonly era: Era };
  try {
    shaken = await handshake(client, transport, options, negotiation);
  } catch (error) {
    state.open = false;
    await abandon(client, opened, options);
    throw error;
  }
  const { capabilities, era } = shaken;
  deliverNotificationsFirst(transport);
  let changes: ListChanges = notificationChanges;
  if (era === 'modern') {
    await probeListen(client, capabilities, options.connectTimeoutMs, {
      isOpen: () => state.open,
      missed: (list) => peer.listChanged(list),
      lost: (error) => {
        state.open = false;
        peer.closed(error);
        void client.close().catch(() => {});
      },
      changed: (next) => {
        changes = next;
      },
    });
  }
  opened.joinRequestSignals(era === 'modern');
  // Relayed calls need a 2025-era stdio connection: plain JSON-RPC with ids of their own.
  if (spec.kind === 'stdio' && era === 'legacy') state.relay = createRelay(transport);
  return connectionOf({
    client,
    transport,
    era,
    capabilities,
    relay: state.relay,
    fallbackReason: negotiation.mode === 'legacy' ? negotiation.fallbackReason : undefined,
    authProvider: opened.authProvider,
    pid: opened.pid,
    listChanges: () => changes,
    resourceUpdated: (uri) => peer.resourceUpdated(uri),
    closing: () => {
      state.open = false;
    },
  });
};
