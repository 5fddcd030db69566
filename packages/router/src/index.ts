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
