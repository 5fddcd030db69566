import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../config-backend.js';
import type { OAuthStore } from '../upstream-oauth/oauth-store.js';
import { createClientProvider, scopeFor } from './oauth.js';

export interface LoginOptions {
  readonly server: string;
  readonly url: string;
  readonly settings: OAuthSettings;
  readonly store: OAuthStore;
  /** Shows the authorization URL to the person logging in. */
  readonly announce: (url: string) => void;
  /** How long to wait for the redirect. */
  readonly timeoutMs: number;
}

/** What the server's 401 says: where its protected-resource metadata is (RFC 9728) and the scope it wants. */
const challengeOf = async (url: string): Promise<{ resourceMetadataUrl?: URL | undefined; scope?: string | undefined }> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel().catch(() => {});
  if (response.status !== 401) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { resourceMetadataUrl, scope };
};

const page = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;

interface Redirect {
  readonly code: string;
  readonly iss?: string;
}

interface Settle {
  resolve(value: Redirect): void;
  reject(error: Error): void;
}

/** The loopback server the authorization server redirects the person back to: it takes the code of this attempt (`state`). */
const catchRedirect = (state: string, server: string, settle: Settle): Server =>
  createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    if (!(req.url ?? '').startsWith('/callback')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (query.get('state') !== state) {
      res
        .writeHead(400, { 'content-type': 'text/html' })
        .end(page('Login failed', 'This answer belongs to another login attempt; start promptyard-gateway login again.'));
      return;
    }
    const error = query.get('error');
    const code = query.get('code');
    if (error !== null || code === null) {
      res
        .writeHead(400, { 'content-type': 'text/html' })
        .end(page('Login failed', `The authorization server refused: ${error ?? 'no code'} ${query.get('error_description') ?? ''}`));
      settle.reject(
        new Error(
          `the authorization server refused the login: ${error ?? 'no code in the redirect'}${query.get('error_description') === null ? '' : ` (${query.get('error_description') as string})`}`,
        ),
      );
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(page('Logged in', `promptyard-gateway is logged in to ${server}; you can close this tab.`));
    const iss = query.get('iss');
    settle.resolve({ code, ...(iss === null ? {} : { iss }) });
  });

/** Listens on the loopback `port` (`oauth.redirect_port`; any free port when unset). */
const listen = (listener: Server, port: number | undefined): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    listener.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(error.code === 'EADDRINUSE' ? `port ${port ?? 0} is in use: free it, or change oauth.redirect_port` : error.message),
      ),
    );
    listener.listen(port ?? 0, '127.0.0.1', resolve);
  });

/**
 * `promptyard-gateway login <server>`: the authorization code flow with PKCE. Discovery from the
 * server's 401 (RFC 9728, then RFC 8414), dynamic client registration unless a client id is
 * configured, the authorization URL announced, the redirect caught on a loopback port, the code
 * exchanged and the tokens stored. A machine account (client credentials) just gets a token, which
 * checks its credentials.
 */
export const loginUpstream = async (options: LoginOptions): Promise<void> => {
  const { settings, url } = options;
  const challenge = await challengeOf(url);
  const scope = scopeFor(settings, challenge.scope);
  const flowOptions = {
    serverUrl: url,
    ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
  const oauth = { server: options.server, settings, store: options.store };
  if (settings.grant === 'client_credentials') {
    const provider = createClientProvider(oauth);
    provider.invalidateCredentials?.('tokens');
    if ((await auth(provider, flowOptions)) !== 'AUTHORIZED')
      throw new Error('the authorization server did not issue a token for the client credentials');
    return;
  }

  const state = randomBytes(16).toString('base64url');
  let settle: Settle | undefined;
  const redirected = new Promise<Redirect>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const listener = catchRedirect(state, options.server, settle as Settle);
  await listen(listener, settings.redirectPort);
  const timer = setTimeout(
    () =>
      settle?.reject(
        new Error(`no login within ${Math.round(options.timeoutMs / 1000)} s: run promptyard-gateway login ${options.server} again`),
      ),
    options.timeoutMs,
  );
  try {
    const redirectUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const provider = createClientProvider(oauth, { redirectUrl, authorize: (authorizationUrl) => options.announce(authorizationUrl.href) });
    provider.state = () => state;
    const started = await auth(provider, { ...flowOptions, forceReauthorization: true });
    if (started === 'AUTHORIZED') return;
    const { code, iss } = await redirected;
    const finished = await auth(provider, { ...flowOptions, authorizationCode: code, ...(iss === undefined ? {} : { iss }) });
    if (finished !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token for the code');
  } finally {
    clearTimeout(timer);
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
};
