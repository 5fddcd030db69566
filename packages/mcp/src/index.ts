export { createCatalogHandlers } from './catalog-handlers.js';
export type { CatalogHandlersOptions } from './catalog-handlers.js';
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
export { isLoopbackHost, serveHttp } from './http.js';
export type { HttpHandle, HttpServeOptions } from './http.js';
export { parseServeFlags } from './serve-flags.js';
export type { ServeFlags, ServeFlagValues } from './serve-flags.js';
export { loadMcpTracing } from './mcp-tracing.js';
export type { BackendCallSpan, McpTracing, RequestSpan, TraceContext, TracedCall, TracedRequest } from './tracing-types.js';
export { createMcpServerBlueprint } from './server.js';
export type { McpServerBlueprint, McpServerBlueprintOptions } from './server.js';
export { handleShutdown } from './shutdown.js';
export type { Shutdown, ShutdownOptions } from './shutdown.js';
export { serveStdio } from './stdio.js';
export type { StdioHandle } from './stdio.js';
export { transportSection } from './transport-config.js';
