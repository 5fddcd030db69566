export { createCatalogHandlers } from './catalog/catalog-handlers.js';
export type { CatalogHandlersOptions } from './catalog/catalog-handlers.js';
export { RpcError } from './errors.js';
export type {
  CallerAccess,
  ClientLogRecord,
  ClientPeer,
  CompleteParams,
  JsonObject,
  ListAnswer,
  ListKind,
  ListPage,
  McpAccess,
  McpHandlers,
  McpLogLevel,
  MultiRoundInput,
  Progress,
  McpRelay,
  RelayChannel,
  RequestContext,
  McpSkills,
  SerializedListPage,
  SkillContent,
} from './handlers.js';
export { isLoopbackHost, isWildcardHost } from './http/hosts.js';
export { serveHttp } from './http/serve-http-on-demand.js';
export type { HttpEndpointSpec, HttpHandle, HttpMount, HttpRoute, HttpRouteAnswer, HttpServeOptions } from './http/options.js';
export type { ClientRoster, ConnectedClient } from './http/client-roster.js';
export { parseServeFlags } from './cli/serve-flags.js';
export type { ServeFlags, ServeFlagValues } from './cli/serve-flags.js';
export { loadMcpTracing } from './telemetry/mcp-tracing.js';
export type { BackendCallSpan, McpTracing, RequestSpan, TraceContext, TracedCall, TracedRequest } from './telemetry/tracing-types.js';
export { createMcpServerBlueprint } from './server/blueprint.js';
export type { McpServerBlueprint, McpServerBlueprintOptions } from './server/blueprint.js';
export { handleShutdown } from './cli/shutdown.js';
export type { Shutdown, ShutdownOptions } from './cli/shutdown.js';
export { serveStdio } from './stdio/serve-stdio.js';
export type { StdioHandle } from './stdio/serve-stdio.js';
export { transportSection } from './cli/transport-config.js';
