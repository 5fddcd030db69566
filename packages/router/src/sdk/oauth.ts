import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type {
  AuthProvider,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from '../config-backend.js';
import type { OAuthRecord, OAuthStore } from '../upstream-oauth/oauth-store.js';

/** How the gateway reaches one `auth = "oauth"` server: its settings and where its tokens live. */
export interface UpstreamOAuth {
  readonly server: string;
  readonly settings: OAuthSettings;
  readonly store: OAuthStore;
}

const NEEDS_LOGIN = Symbol.for('promptyard.needsLogin');

/** No token can be had without a person: `promptyard-gateway login <server>` fixes it. */
const needsLoginError = (server: string, why: string): Error =>
  Object.assign(new Error(`server "${server}" needs a login: run promptyard-gateway login ${server} (${why})`), { [NEEDS_LOGIN]: true });

export const isNeedsLogin = (error: unknown): error is Error =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[NEEDS_LOGIN] === true;

/** `login`: the loopback redirect URL, and where the authorization URL goes (printed for the user). */
export interface LoginHooks {
  readonly redirectUrl: string;
  authorize(url: URL): void;
}

/** What the gateway registers as: a machine client for `client_credentials`, else a loopback-redirect one. */
const clientMetadataOf = (settings: OAuthSettings, redirectUrl: string | undefined): OAuthClientMetadata => {
  const machine = settings.grant === 'client_credentials';
  return {
    client_name: 'promptyard-gateway',
    redirect_uris: redirectUrl === undefined ? [] : [redirectUrl],
    grant_types: machine ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: machine ? [] : ['code'],
    token_endpoint_auth_method: settings.clientSecret === undefined ? 'none' : 'client_secret_basic',
    ...(settings.scopes.length === 0 ? {} : { scope: settings.scopes.join(' ') }),
  } as OAuthClientMetadata;
};

/** The record without the credentials the server refused (`scope`: which). */
const withoutCredentials = (current: OAuthRecord, scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): OAuthRecord => {
  const { client, tokens, obtainedAt, discovery, ...rest } = current;
  return {
    ...rest,
    ...(scope === 'all' || scope === 'client' || client === undefined ? {} : { client }),
    ...(scope === 'all' || scope === 'tokens' || tokens === undefined
      ? {}
      : { tokens, ...(obtainedAt === undefined ? {} : { obtainedAt }) }),
    ...(scope === 'all' || scope === 'discovery' || discovery === undefined ? {} : { discovery }),
  };
};

/**
 * The SDK's `OAuthClientProvider` over an {@link OAuthStore}: client information (configured, or
 * registered dynamically during `login`), tokens, discovery state. In the running gateway (no
 * `login` hooks) a person cannot be sent to the authorization server, so the flow's redirect step
 * throws a needs-login error instead.
 */
export const createClientProvider = (
  oauth: UpstreamOAuth,
  login?: LoginHooks,
): OAuthClientProvider & { reload(): OAuthRecord; current(): OAuthRecord } => {
  const { settings, store, server } = oauth;
  let record: OAuthRecord = store.read();
  let verifier = '';
  const save = (change: (current: OAuthRecord) => OAuthRecord): void => {
    record = store.update(change);
  };
  const configured =
    settings.clientId === undefined
      ? undefined
      : { client_id: settings.clientId, ...(settings.clientSecret === undefined ? {} : { client_secret: settings.clientSecret }) };
  const machine = settings.grant === 'client_credentials';
  const storedRedirect = (record.client?.['redirect_uris'] as string[] | undefined)?.[0];
  const redirectUrl = machine ? undefined : (login?.redirectUrl ?? storedRedirect ?? 'http://127.0.0.1/callback');
  const metadata = clientMetadataOf(settings, redirectUrl);

  const prepare = machine
    ? {
        prepareTokenRequest: (scope?: string) =>
          new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined || scope === '' ? {} : { scope }) }),
      }
    : {};
  return {
    ...prepare,
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    clientInformation: () => {
      if (configured !== undefined) return configured;
      const client = record.client as StoredOAuthClientInformation | undefined;
      // A client registered for another loopback port cannot receive this login's redirect: register again.
      if (
        login !== undefined &&
        client !== undefined &&
        !((client as { redirect_uris?: string[] }).redirect_uris ?? []).includes(login.redirectUrl)
      )
        return undefined;
      return client;
    },
    saveClientInformation: (client) => {
      // A configured client is the config's; the SDK only stamps it with its issuer.
      if (configured !== undefined) return;
      if (login === undefined && !machine) throw needsLoginError(server, 'the gateway has no registered client');
      save((current) => ({ ...current, client: client as Record<string, unknown> }));
    },
    tokens: () => record.tokens as StoredOAuthTokens | undefined,
    saveTokens: (tokens) => save((current) => ({ ...current, tokens: tokens as Record<string, unknown>, obtainedAt: Date.now() })),
    redirectToAuthorization: (url) => {
      if (login === undefined)
        throw needsLoginError(
          server,
          record.tokens === undefined ? 'no stored token' : 'its token expired or was revoked and cannot be refreshed',
        );
      login.authorize(url);
    },
    saveCodeVerifier: (value) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    saveDiscoveryState: (state) => save((current) => ({ ...current, discovery: state as unknown as Record<string, unknown> })),
    discoveryState: () => record.discovery as OAuthDiscoveryState | undefined,
    invalidateCredentials: (scope) => {
      save((current) => withoutCredentials(current, scope));
      if (scope === 'all' || scope === 'verifier') verifier = '';
    },
    // Reread before each flow: `login` may have stored new tokens meanwhile.
    reload: () => (record = store.read()),
    current: () => record,
  };
};

/** The scope to ask for: the configured one, else what the server's challenge named. */
export const scopeFor = (settings: OAuthSettings, challenged: string | undefined): string | undefined =>
  settings.scopes.length > 0 ? settings.scopes.join(' ') : challenged;

interface GatewayAuthHooks {
  /** The token cannot be had without a person; the backend stops until `login`. */
  needsLogin(error: Error): void;
  warn(message: string, reason: string): void;
}

export interface GatewayAuth extends AuthProvider {
  close(): void;
}

/** Refresh this long before expiry: a quarter of the token's lifetime, at most a minute. */
const refreshMargin = (lifetimeMs: number): number => Math.min(60_000, lifetimeMs / 4);
/** After a refresh failed (the authorization server down), wait this long before the next try. */
const RETRY_MS = 5000;

interface Expiry {
  readonly at: number;
  readonly lifetime: number;
}

/** When the stored token expires and how long it lived; `undefined` when the server did not say. */
const expiryOf = (record: OAuthRecord): Expiry | undefined => {
  const seconds = Number(record.tokens?.['expires_in']);
  if (record.obtainedAt === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return { at: record.obtainedAt + seconds * 1000, lifetime: seconds * 1000 };
};

interface Challenge {
  readonly resourceMetadataUrl?: URL | undefined;
  readonly scope?: string | undefined;
}

/** One run of the SDK's flow (discovery, refresh, registration or client credentials); a person needed → a needs-login error. */
const authorize = async (
  provider: ReturnType<typeof createClientProvider>,
  oauth: UpstreamOAuth,
  url: string,
  challenge: Challenge,
): Promise<void> => {
  const record = provider.reload();
  if (oauth.settings.grant === 'authorization_code' && record.tokens === undefined) throw needsLoginError(oauth.server, 'no stored token');
  // The SDK answers a refresh that failed for any reason but a refusal with a new authorization
  // request; an authorization server that is down or failing is no reason to ask for a login.
  let trouble: string | undefined;
  const fetchFn = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    try {
      const response = await fetch(input, init);
      if (response.status >= 500) trouble = `HTTP ${response.status} from ${new URL(String(input)).origin}`;
      return response;
    } catch (error) {
      trouble = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, {
      serverUrl: url,
      fetchFn,
      ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(scopeFor(oauth.settings, challenge.scope) === undefined ? {} : { scope: scopeFor(oauth.settings, challenge.scope) as string }),
    });
  } catch (error) {
    if (isNeedsLogin(error) && trouble !== undefined)
      throw new Error(`could not refresh the OAuth token (${trouble}); the gateway tries again`, { cause: error });
    throw error;
  }
  if (result !== 'AUTHORIZED') throw needsLoginError(oauth.server, 'the authorization server asks for a login');
};

/**
 * What the transport asks for a token and calls on a 401: the stored access token, refreshed before
 * it expires (on a timer, and on use when it is about to), and on a 401 discovery from the
 * challenge, then refresh, registration or client credentials through the SDK's `auth()`. One flow
 * runs at a time: a rotated refresh token used twice would revoke the whole grant.
 */
export const createGatewayAuth = (oauth: UpstreamOAuth, url: string, hooks: GatewayAuthHooks): GatewayAuth => {
  const provider = createClientProvider(oauth);
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let challenge: Challenge = {};
  let failedAt = 0;

  // The record in memory is the file's (every save writes both); a flow rereads the file first.
  const expiry = (): Expiry | undefined => expiryOf(provider.current());
  const schedule = (): void => {
    clearTimeout(timer);
    const when = expiry();
    if (closed || when === undefined) return;
    timer = setTimeout(
      () => {
        refresh().catch((error: unknown) => {
          if (!isNeedsLogin(error))
            hooks.warn(
              'could not refresh the OAuth token before it expires; trying again when it is used',
              error instanceof Error ? error.message : String(error),
            );
        });
      },
      Math.max(failedAt === 0 ? 0 : failedAt + RETRY_MS - Date.now(), when.at - refreshMargin(when.lifetime) - Date.now(), 0),
    );
    timer.unref();
  };

  const flow = (): Promise<void> => authorize(provider, oauth, url, challenge);

  const refresh = (): Promise<void> => {
    running ??= flow()
      .then(() => {
        failedAt = 0;
      })
      .catch((error: unknown) => {
        failedAt = Date.now();
        if (isNeedsLogin(error) && !closed) {
          closed = true;
          clearTimeout(timer);
          hooks.needsLogin(error);
        }
        throw error;
      })
      .finally(() => {
        running = undefined;
        schedule();
      });
    return running;
  };

  schedule();
  return {
    token: async () => {
      const when = expiry();
      // About to expire, and not just failed to refresh: refresh first rather than be refused.
      if (when !== undefined && Date.now() >= when.at - refreshMargin(when.lifetime) && Date.now() >= failedAt + RETRY_MS)
        await refresh().catch(() => {});
      else if (running !== undefined) await running.catch(() => {});
      return provider.current().tokens?.['access_token'] as string | undefined;
    },
    onUnauthorized: async (ctx) => {
      const params = extractWWWAuthenticateParams(ctx.response);
      challenge = { resourceMetadataUrl: params.resourceMetadataUrl, scope: params.scope };
      await refresh();
    },
    close: () => {
      closed = true;
      clearTimeout(timer);
    },
  };
};
