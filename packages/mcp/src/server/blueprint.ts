/**
 * The server adapter: `createMcpServerBlueprint` mounts an `McpHandlers` description on the SDK's
 * low-level `Server`. One module per capability registers its requests (prompts, tools, resources,
 * completion, logging, skills); beside them the access-policy guard, the readable invalid-params
 * errors, and the wiring of a live connection (subscriptions, change notifications) and of the relay.
 */
import type { McpServerFactory, Server, ServerCapabilities } from '@modelcontextprotocol/server';
import type { Cluster, Logger, Metrics } from '@promptyard/core';
import type { ClientPeer, ListKind, McpHandlers, McpRelay } from '../handlers.js';
import { createInputRounds } from '../rounds/input-rounds.js';
import { loadServerSdk } from '../sdk.js';
import { instrumentServer } from '../telemetry/instrument.js';
import type { McpTracing, TraceContext } from '../telemetry/tracing-types.js';
import { createAccessGuard } from './access.js';
import { createFailures, type Adapter, type Instance } from './adapter.js';
import { registerCompletion } from './completion.js';
import { fingerprintOf } from './fingerprint.js';
import { createValidatingServer } from './invalid-params.js';
import { connectionOf, onListChanged, wireLiveConnection } from './live-connection.js';
import { registerLogging } from './logging.js';
import { registerPrompts } from './prompts.js';
import { assembleRelay } from './relay.js';
import { registerResources } from './resources.js';
import { serveSkills } from './skills.js';
import { registerSubscriptions } from './subscriptions.js';
import { registerTools } from './tools.js';

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

/** How long a call waits for the client's retry with the answers to an `input_required` round. */
const inputRoundTimeoutMs = 10 * 60_000;

type InstanceOptions = { readonly live: boolean; readonly shared?: boolean };

/** The capabilities an instance declares: what the handlers serve. */
const capabilitiesOf = (adapter: Adapter): ServerCapabilities => {
  const { tools, resources } = adapter.handlers;
  const { skills } = adapter;
  return {
    prompts: { listChanged: true },
    ...(tools === undefined ? {} : { tools: { listChanged: true } }),
    ...(resources === undefined && skills === undefined
      ? {}
      : {
          resources: {
            ...(resources?.subscriptions === undefined ? {} : { subscribe: true }),
            ...(resources?.listChanged === true || skills !== undefined ? { listChanged: true } : {}),
          },
        }),
    completions: {},
    logging: {},
  };
};

/** One instance: the SDK server with every capability's requests registered, and a live one wired to its connection. */
const createInstance = (
  adapter: Adapter,
  ValidatingServer: typeof Server,
  clients: WeakMap<Server, ClientPeer>,
  { live, shared = false }: InstanceOptions,
): Server => {
  const { handlers } = adapter;
  const server = new ValidatingServer(
    { name: handlers.name, version: handlers.version },
    {
      capabilities: capabilitiesOf(adapter),
      ...(handlers.instructions === undefined ? {} : { instructions: handlers.instructions }),
      requestState: { verify: adapter.rounds.verify },
    },
  );
  // Every handler registered below (the skills' too) is timed and traced; without metrics or traces nothing is wrapped.
  instrumentServer(server, adapter.telemetry);
  const connection = live ? connectionOf(server) : undefined;
  if (connection !== undefined) {
    clients.set(server, connection);
    handlers.connected?.(connection);
  }
  const instance: Instance = { server, live, connection };
  registerPrompts(adapter, instance);
  if (handlers.tools !== undefined) registerTools(adapter, instance, handlers.tools);
  if (handlers.resources !== undefined || adapter.skills !== undefined) registerResources(adapter, instance);
  registerCompletion(adapter, instance);
  const level = registerLogging(adapter, server);
  const subscribed = registerSubscriptions(adapter, server);
  if (live) wireLiveConnection(adapter, instance, shared, subscribed, level);
  return server;
};

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
  const { logger } = handlers;
  // The skills extension loads beside the SDK, not after it.
  const [sdk, skills, stateKey] = await Promise.all([
    loadServerSdk(),
    handlers.skills === undefined ? undefined : serveSkills(handlers.skills, logger),
    cluster?.sharedSecret('request-state').catch((error: unknown) => {
      logger.warn('requestState is signed with a key of this replica alone: the cluster Redis did not give the shared one', {
        reason: (error as Error).message,
      });
      return undefined;
    }),
  ]);
  const adapter: Adapter = {
    handlers,
    sdk,
    skills,
    rounds: createInputRounds(sdk, inputRoundTimeoutMs, { key: stateKey, cluster, logger }),
    guard: handlers.access === undefined ? undefined : createAccessGuard(handlers.access),
    // Each traced request's span context, by the SDK's context object: read once by the request's
    // `RequestContext`. Without tracing this is `undefined`, and a request pays one check for it.
    telemetry: {
      metrics,
      tracing,
      traces: tracing === undefined ? undefined : new WeakMap<object, TraceContext>(),
      versionKey: sdk.PROTOCOL_VERSION_META_KEY,
    },
    failed: createFailures(sdk, logger),
  };
  const ValidatingServer = createValidatingServer(sdk);
  const clients = new WeakMap<Server, ClientPeer>();
  const create = (instanceOptions: InstanceOptions): Server => createInstance(adapter, ValidatingServer, clients, instanceOptions);
  const subscriptions = handlers.resources?.subscriptions;
  return {
    create,
    factory: (live) => () => create({ live }),
    onListChanged: (listener: (list: ListKind) => void) => onListChanged(adapter, listener),
    fingerprint: (list) => fingerprintOf(adapter, list),
    ...(subscriptions === undefined ? {} : { onResourceUpdated: (listener: (uri: string) => void) => subscriptions.onUpdated(listener) }),
    relay: assembleRelay(handlers, sdk, metrics, tracing),
    governed: adapter.guard !== undefined,
    clientOf: (server) => clients.get(server),
    logger,
    serverInfo: { name: handlers.name, version: handlers.version },
    tracing,
  };
};
