// config-oauth.test.ts (still here until the config leaves the package) reads these at their old path; the store lives in upstream-oauth/.
export { OAuthStore, oauthFolder } from './upstream-oauth/oauth-store.js';
