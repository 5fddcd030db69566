import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import Provider, { errors } from 'oidc-provider';

/**
 * A real OpenID provider (`oidc-provider`, certified) on loopback, for resource-server tests: RFC 8707
 * resource indicators so it issues JWT access tokens for the MCP endpoint, the client credentials
 * grant, RFC 7662 introspection, and its signing key rotated on demand without a new port. Its key
 * set can be made to fail or hang, as an issuer's does when it is down. For OAuth clients (the
 * gateway logging in to a server) it also registers clients dynamically (RFC 7591), runs the
 * authorization code flow with PKCE through an interaction a test completes head-lessly
 * ({@link TestIssuer.authorize}), issues refresh tokens and revokes grants (RFC 7009).
 */
export interface TestIssuer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A client that may ask only for `profile`, never the scopes the resource needs. */
  readonly narrowClientId: string;
  /** A second machine account (client credentials, same secret), for a gateway in front of a server. */
  readonly gatewayClientId: string;
  /**
   * Plays the person at the authorization endpoint: follows `authorizationUrl`, logs `account` in and
   * consents at the interaction, and returns the URL the provider redirects the browser to (the
   * client's redirect URI with the code), without fetching it.
   */
  authorize(authorizationUrl: string, account?: string): Promise<string>;
  /** The account a browser that reaches the interaction itself is logged in as (default `ann`). */
  loginAs(account: string): void;
  /** Revokes `token` (RFC 7009); a refresh or access token takes its whole grant with it. */
  revoke(token: string, client: { clientId: string; clientSecret?: string }): Promise<void>;
  /** A token from the token endpoint (client credentials) for `resource`. */
  token(options?: {
    resource?: string;
    scope?: string;
    clientId?: string;
    clientSecret?: string;
    format?: 'jwt' | 'opaque';
  }): Promise<string>;
  /** A JWT signed with the provider's current key, with whatever claims a test needs (expired, wrong issuer …). */
  sign(claims: JWTPayload, options?: { kid?: string }): Promise<string>;
  /** Replaces the provider with one holding a new signing key; the old key is no longer published. */
  rotateKeys(): Promise<void>;
  /** `ok`, `down` (HTTP 503) or `slow` (never answers) for the key set and metadata endpoints. */
  setJwks(mode: 'ok' | 'down' | 'slow'): void;
  close(): Promise<void>;
}

interface Signing {
  readonly kid: string;
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  readonly jwk: JWK;
}

const newSigning = async (): Promise<Signing> => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, jwk };
};

export const startTestIssuer = async (options: {
  resources: () => readonly string[];
  scope?: string;
  /** The `groups` claim of every token. */
  groups?: readonly string[];
  /** More client-credentials clients (secret: `clientSecret`), each with the `groups` of its tokens. */
  members?: Readonly<Record<string, readonly string[]>>;
  /** Access-token lifetime, seconds. */
  accessTokenTtl?: number;
}): Promise<TestIssuer> => {
  const clientId = 'machine';
  const gatewayClientId = 'gateway';
  const clientSecret = 'machine-secret-0123456789';
  const narrowClientId = 'narrow';
  const scope = options.scope ?? 'mcp';
  let jwksMode: 'ok' | 'down' | 'slow' = 'ok';
  const hanging = new Set<ServerResponse>();
  let provider: Provider | undefined;
  let signing = await newSigning();
  let opaque = false;

  const build = (issuer: string): Provider => {
    const created = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: `${scope} profile`,
        },
        {
          client_id: narrowClientId,
          client_secret: clientSecret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: 'profile',
        },
        ...Object.keys(options.members ?? {}).map((id) => ({
          client_id: id,
          client_secret: clientSecret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: `${scope} profile`,
        })),
        {
          client_id: gatewayClientId,
          client_secret: clientSecret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: `${scope} profile`,
        },
      ],
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      jwks: { keys: [signing.jwk] },
      scopes: ['openid', 'profile', ...scope.split(' ')],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        registration: { enabled: true },
        revocation: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => options.resources()[0] ?? 'urn:none',
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => {
            if (!options.resources().includes(resource) && !resource.startsWith('https://elsewhere.example'))
              throw new errors.InvalidTarget();
            return {
              scope: `${scope} profile`,
              audience: resource,
              accessTokenTTL: options.accessTokenTtl ?? 300,
              accessTokenFormat: opaque ? 'opaque' : 'jwt',
              jwt: { sign: { alg: 'RS256' } },
            };
          },
        },
      },
      ttl: { ClientCredentials: 300 },
      extraTokenClaims: (_ctx, token) => {
        const groups = (token.clientId === undefined ? undefined : options.members?.[token.clientId]) ?? options.groups;
        return groups === undefined ? undefined : { groups: [...groups] };
      },
    });
    return created;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (jwksMode !== 'ok' && (path === '/jwks' || path.startsWith('/.well-known/'))) {
      if (jwksMode === 'down') res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
      else hanging.add(res);
      return;
    }
    if (path.startsWith('/interaction/')) {
      void finishInteraction(req, res).catch((error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)));
      return;
    }
    (provider as Provider).callback()(req, res);
  });

  /** The login and consent pages a person would see, answered at once for `login_hint`'s account. */
  const finishInteraction = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const current = provider as Provider;
    const details = await current.interactionDetails(req, res);
    const accountId = accounts.get(details.uid) ?? browserAccount;
    const clientIdOf = String(details.params['client_id']);
    const grant = new current.Grant({ accountId, clientId: clientIdOf });
    const requested = String(details.params['scope'] ?? '');
    if (requested !== '') grant.addOIDCScope(requested);
    const resource = details.params['resource'];
    for (const indicator of Array.isArray(resource) ? resource : resource === undefined ? [] : [resource])
      grant.addResourceScope(String(indicator), requested);
    const grantId = await grant.save();
    await current.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };
  const accounts = new Map<string, string>();
  let browserAccount = 'ann';
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = build(issuer);

  const token: TestIssuer['token'] = async (request = {}) => {
    opaque = request.format === 'opaque';
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: request.scope ?? scope,
      resource: request.resource ?? options.resources()[0] ?? '',
    });
    const credentials = Buffer.from(`${request.clientId ?? clientId}:${request.clientSecret ?? clientSecret}`).toString('base64');
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    opaque = false;
    if (answer.access_token === undefined)
      throw new Error(`token endpoint: ${answer.error ?? response.status} ${answer.error_description ?? ''}`);
    return answer.access_token;
  };

  const authorize: TestIssuer['authorize'] = async (authorizationUrl, account = 'ann') => {
    // A browser's cookie jar, enough for one provider on one host.
    const jar = new Map<string, string>();
    let next = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
      const target = new URL(location, next);
      if (target.origin !== issuer) return target.href;
      const uid = /^\/interaction\/([^/]+)/.exec(target.pathname)?.[1];
      if (uid !== undefined) accounts.set(uid, account);
      next = target.href;
    }
    throw new Error('too many redirects at the authorization endpoint');
  };

  const revoke: TestIssuer['revoke'] = async (revoked, client) => {
    const body = new URLSearchParams({
      token: revoked,
      client_id: client.clientId,
      ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret }),
    });
    const response = await fetch(`${issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    if (!response.ok) throw new Error(`revocation endpoint: ${response.status} ${await response.text()}`);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    narrowClientId,
    gatewayClientId,
    authorize,
    loginAs: (account) => {
      browserAccount = account;
    },
    revoke,
    token,
    sign: (claims, signOptions = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signOptions.kid ?? signing.kid, typ: 'at+jwt' }).sign(signing.privateKey),
    rotateKeys: async () => {
      signing = await newSigning();
      provider = build(issuer);
    },
    setJwks: (mode) => {
      jwksMode = mode;
      if (mode !== 'slow') for (const res of hanging) res.destroy();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
