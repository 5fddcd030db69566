export {
  backendFingerprint,
  compileNameFilter,
  diffBackends,
  gatewayConfigSchema,
  loadGatewayConfig,
  normaliseServerId,
  parseGatewayConfig,
} from './config.js';
export type {
  BackendConfig,
  BackendDiff,
  BackendTransport,
  GatewayConfig,
  GatewayConfigFormat,
  GatewayLogLevel,
  GatewayTransportConfig,
  NameFilter,
  ParseGatewayConfigOptions,
} from './config.js';
export { MAX_NAME_LENGTH, NAME_CHARACTERS, createNamer, decodeUri, encodeUri, encodeUriTemplate, shortHash, uriScheme } from './names.js';
export type { Namer } from './names.js';
export { Router } from './router.js';
export type { CallContext } from './call-context.js';
export type { RouterOptions, RouterStatus } from './router.js';
export type { RouterEvents, RouterLogRecord } from './router-events.js';
export type { Collision, RoutedList } from './route-table.js';
export { Backend } from './backend.js';
export type { BackendState, BackendStatus } from './backend.js';
export { createCardIndex } from './catalog-search.js';
export type { CatalogSearch, Hit, PromptCard, ToolCard } from './catalog-search.js';
export { createMetaTools, metaToolNames, summarize } from './meta-tools.js';
export type { MetaTool } from './meta-tools.js';
export { createGatewayHandlers } from './serve.js';
export type { GatewayHandlersOptions } from './serve.js';
export { killAllChildren } from './sdk/kill.js';
export { deliverNotificationsFirst } from './sdk/upstream.js';
