import { checkSecureUrl } from './config.js';

/** The fields of an issuer's metadata a resource server uses. */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwksUri: string | undefined;
  readonly introspectionEndpoint: string | undefined;
  /** Where a browser signs in (authorization code flow), for a client of this issuer such as the gateway's console. */
  readonly authorizationEndpoint: string | undefined;
  readonly tokenEndpoint: string | undefined;
  /** Where a browser signed in that way also signs out at the issuer (OpenID RP-initiated logout); absent: it offers none. */
  readonly endSessionEndpoint: string | undefined;
}

/** The issuer could not be reached or answered something unusable: requests get 503, not 401. */
export class IssuerUnavailableError extends Error {
  override readonly name = 'IssuerUnavailableError';
}

const maxDocumentBytes = 512 * 1024;

/**
 * Where an issuer's metadata may be, in the order the MCP authorization specification tries them:
 * RFC 8414 (path inserted after the well-known prefix), OpenID Connect with the path inserted, then
 * OpenID Connect appended to the issuer.
 */
export const metadataUrls = (issuer: string): string[] => {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const at = (pathname: string): string => new URL(pathname, url.origin).href;
  const urls = [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
  return [...new Set(urls)];
};

/** GETs JSON within `timeoutMs` and a size cap; `undefined` on a 404-like answer, throws when unreachable. */
export const fetchJson = async (url: string, timeoutMs: number, init: RequestInit = {}): Promise<Record<string, unknown> | undefined> => {
  const response = await fetch(url, {
    ...init,
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json', ...init.headers },
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    if (response.status >= 500) throw new IssuerUnavailableError(`${url} answered HTTP ${response.status}`);
    return undefined;
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxDocumentBytes) {
    await response.body?.cancel().catch(() => {});
    throw new IssuerUnavailableError(`${url} answered ${declared} bytes, over ${maxDocumentBytes}`);
  }
  const text = await response.text();
  if (text.length > maxDocumentBytes) throw new IssuerUnavailableError(`${url} answered over ${maxDocumentBytes} bytes`);
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new IssuerUnavailableError(`${url} did not answer a JSON object`);
  return value as Record<string, unknown>;
};

const describe = (error: unknown): string =>
  error instanceof Error ? (error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message) : String(error);

/** Finds the issuer's metadata (RFC 8414, else OpenID discovery) and checks that it names this issuer. */
export const discoverIssuer = async (issuer: string, timeoutMs: number): Promise<IssuerMetadata> => {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let document: Record<string, unknown> | undefined;
    try {
      document = await fetchJson(url, timeoutMs);
    } catch (error) {
      failures.push(`${url}: ${describe(error)}`);
      continue;
    }
    if (document === undefined) {
      failures.push(`${url}: not found`);
      continue;
    }
    // RFC 8414 §3.3: metadata naming another issuer must not be used (a mix-up attack otherwise).
    if (document['issuer'] !== issuer)
      throw new IssuerUnavailableError(
        `${url} names issuer ${JSON.stringify(document['issuer'])}, not ${JSON.stringify(issuer)}: set [auth] issuer to exactly the issuer's identifier`,
      );
    const text = (key: string): string | undefined => (typeof document[key] === 'string' ? document[key] : undefined);
    const [jwksUri, introspection, authorization, token] = [
      text('jwks_uri'),
      text('introspection_endpoint'),
      text('authorization_endpoint'),
      text('token_endpoint'),
    ];
    for (const [what, value] of [
      ['jwks_uri', jwksUri],
      ['introspection_endpoint', introspection],
      ['token_endpoint', token],
    ] as const) {
      const problem = value === undefined ? undefined : checkSecureUrl(value, `the issuer's ${what}`);
      if (problem !== undefined) throw new IssuerUnavailableError(problem);
    }
    return {
      issuer,
      jwksUri,
      introspectionEndpoint: introspection,
      authorizationEndpoint: authorization,
      tokenEndpoint: token,
      endSessionEndpoint: text('end_session_endpoint'),
    };
  }
  throw new IssuerUnavailableError(`no metadata found for issuer ${issuer}: ${failures.join('; ')}`);
};
