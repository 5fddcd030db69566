export { createAuthenticator } from './authenticator.js';
export type { AuthenticatorOptions } from './authenticator.js';
export { identityOf } from './claims.js';
export { authSection, checkAuthSection, checkSecureUrl, defaultAlgorithms, resolveAuthSettings } from './config.js';
export type { AuthSectionValues, AuthSettings } from './config.js';
export { discoverIssuer, metadataUrls } from './discovery.js';
export type { IssuerMetadata } from './discovery.js';
