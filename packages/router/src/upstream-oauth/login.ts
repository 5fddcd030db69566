/**
 * Upstream OAuth: the gateway's own login to `auth = "oauth"` servers (never a client's token) —
 * `promptyard-gateway login <id>` here, the tokens kept between runs in `oauth-store.ts` (one 0600
 * file per server, watched so a running gateway picks a new login up). The OAuth flows themselves go
 * through the SDK, in `sdk/oauth.ts` and `sdk/oauth-login.ts`.
 */
import { PromptyardError } from '@promptyard/core';
import type { RouterConfig } from '../router-config.js';
import { OAuthStore } from './oauth-store.js';

export interface LoginResult {
  readonly grant: 'authorization_code' | 'client_credentials';
  /** Where the tokens are kept (0600). */
  readonly file: string;
}

/**
 * Logs the gateway in to one `auth = "oauth"` server of `config` and stores its tokens: see
 * `loginUpstream`. A running gateway notices the new tokens and connects without a restart.
 */
export const loginToServer = async (
  config: Pick<RouterConfig, 'servers'>,
  id: string,
  options: { readonly announce: (url: string) => void; readonly timeoutMs?: number },
): Promise<LoginResult> => {
  const server = config.servers.find((candidate) => candidate.id === id);
  if (server === undefined) {
    const names = config.servers.filter((candidate) => candidate.oauth !== undefined).map((candidate) => candidate.id);
    throw new PromptyardError(
      'CONFIG_INVALID',
      `No server "${id}" in the gateway config${names.length > 0 ? `; servers with auth = "oauth": ${names.join(', ')}` : ''}.`,
    );
  }
  if (server.oauth === undefined || server.url === undefined) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `Server "${id}" does not use OAuth: add auth = "oauth" to [servers.${id}] (a url server) to log in to it.`,
    );
  }
  const store = new OAuthStore(server.id, server.url);
  // The MCP client loads only for this command.
  const { loginUpstream } = await import('../sdk/oauth-login.js');
  await loginUpstream({
    server: server.id,
    url: server.url,
    settings: server.oauth,
    store,
    announce: options.announce,
    timeoutMs: options.timeoutMs ?? 300_000,
  });
  return { grant: server.oauth.grant, file: store.path };
};
