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
export { createCardIndex, tokenizeIdentifier } from './search.js';
export type { CardIndex, CardSearchOptions, CatalogCard } from './search.js';
export { Router, UpstreamError } from './router.js';
export type { CallContext, Collision, DownstreamPeer, RoutedList, RouterEvents, RouterLogRecord, RouterOptions, RouterStatus } from './router.js';
export { Backend } from './backend.js';
export type { BackendState, BackendStatus } from './backend.js';
export { createCatalogSearch, createMetaTools, metaToolNames, summarize } from './meta-tools.js';
export type { CatalogSearch, Hit, MetaTool, PromptCard, ToolCard } from './meta-tools.js';
export { createGatewayBlueprint } from './sdk/downstream.js';
export type { GatewayServerOptions } from './sdk/downstream.js';
export { killAllChildren } from './sdk/kill.js';
export { deliverNotificationsFirst } from './sdk/upstream.js';
