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
 * set can be made to fail or hang, as an issuer's does when it is down.
 */
export interface TestIssuer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A client that may ask only for `profile`, never the scopes the resource needs. */
  readonly narrowClientId: string;
  /** A token from the token endpoint (client credentials) for `resource`. */
  token(options?: { resource?: string; scope?: string; clientId?: string; clientSecret?: string; format?: 'jwt' | 'opaque' }): Promise<string>;
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
}): Promise<TestIssuer> => {
  const clientId = 'machine';
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
        { client_id: clientId, client_secret: clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: `${scope} profile` },
        { client_id: narrowClientId, client_secret: clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: 'profile' },
        ...Object.keys(options.members ?? {}).map((id) => ({ client_id: id, client_secret: clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: `${scope} profile` })),
      ],
      jwks: { keys: [signing.jwk] },
      scopes: ['openid', 'profile', ...scope.split(' ')],
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => options.resources()[0] ?? 'urn:none',
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => {
            if (!options.resources().includes(resource) && !resource.startsWith('https://elsewhere.example')) throw new errors.InvalidTarget();
            return { scope: `${scope} profile`, audience: resource, accessTokenTTL: 300, accessTokenFormat: opaque ? 'opaque' : 'jwt', jwt: { sign: { alg: 'RS256' } } };
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
    (provider as Provider).callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = build(issuer);

  const token: TestIssuer['token'] = async (request = {}) => {
    opaque = request.format === 'opaque';
    const body = new URLSearchParams({ grant_type: 'client_credentials', scope: request.scope ?? scope, resource: request.resource ?? options.resources()[0] ?? '' });
    const credentials = Buffer.from(`${request.clientId ?? clientId}:${request.clientSecret ?? clientSecret}`).toString('base64');
    const response = await fetch(`${issuer}/token`, { method: 'POST', headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    opaque = false;
    if (answer.access_token === undefined) throw new Error(`token endpoint: ${answer.error ?? response.status} ${answer.error_description ?? ''}`);
    return answer.access_token;
  };

  return {
    issuer,
    clientId,
    clientSecret,
    narrowClientId,
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
