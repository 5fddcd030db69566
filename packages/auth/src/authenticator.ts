import type * as JoseModule from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import type { AuthOutcome, AuthRefusal, Authenticator, Logger } from '@promptyard/core';
import { hasAudience, identityOf } from './claims.js';
import type { AuthSettings } from './config.js';
import { discoverIssuer, IssuerUnavailableError } from './discovery.js';
import type { IssuerMetadata } from './discovery.js';
import { introspect } from './introspection.js';

export interface AuthenticatorOptions {
  readonly logger: Logger;
  /** Least time between two key-set fetches caused by an unknown `kid` (default 5 s). */
  readonly jwksCooldownMs?: number;
  /** Longest a fetched key set is used before it is fetched again (default 10 min). */
  readonly jwksMaxAgeMs?: number;
  /** After a failed discovery, requests fail at once for this long before it is tried again (default 5 s). */
  readonly retryAfterMs?: number;
}

type Jose = typeof JoseModule;
/** jose, loaded by the first token check: a binary started without `[auth]` never loads it. */
let jose: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/** RFC 6750 b64token: what a bearer token may be made of. */
const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const jwsShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const refuse = (status: AuthRefusal['status'], error: AuthRefusal['error'], description: string): AuthRefusal =>
  error === undefined ? { ok: false, status, description } : { ok: false, status, error, description };

/** Reads the claims of a token already refused, for the log line only: never trusted. */
const unverifiedClaims = (token: string): Record<string, unknown> | undefined => {
  try {
    const payload = token.split('.')[1];
    if (payload === undefined || payload.length > 8192) return undefined;
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const joseReason = ({ errors: joseErrors }: Jose, error: unknown): { unavailable: boolean; description: string } => {
  if (error instanceof joseErrors.JWKSTimeout) return { unavailable: true, description: "the issuer's key set did not answer in time" };
  if (error instanceof joseErrors.JWTExpired) return { unavailable: false, description: 'the token has expired' };
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return { unavailable: false, description: `the token's "${error.claim}" claim is not accepted (${error.reason})` };
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return { unavailable: false, description: 'the token is signed with an algorithm that is not accepted' };
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return { unavailable: false, description: 'the token is signed with a key the issuer does not publish' };
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return { unavailable: false, description: 'the token signature is not valid' };
  if (error instanceof joseErrors.JOSEError) return { unavailable: false, description: 'the token is not a valid signed JWT' };
  // Anything else came from fetching the key set (network, HTTP status, a broken document).
  return { unavailable: true, description: "the issuer's key set could not be read" };
};

/**
 * An OAuth 2.1 resource server's token check: the `Authorization` header parsed strictly, a JWT
 * verified against the issuer's key set (discovered once, cached, fetched again for an unknown
 * `kid`), or an opaque token introspected; then audience and scopes. Every failure answers at once
 * and names what went wrong; the log names the subject and client, never the token.
 */
export const createAuthenticator = (settings: AuthSettings, options: AuthenticatorOptions): Authenticator => {
  const logger = options.logger;
  const retryAfterMs = options.retryAfterMs ?? 5000;
  let metadata: Promise<IssuerMetadata> | undefined;
  let failedAt = 0;
  let keys: JWTVerifyGetKey | undefined;

  /** The issuer's metadata, fetched on first use; a failure is remembered briefly so a flood does not hammer the issuer. */
  const issuerMetadata = (): Promise<IssuerMetadata> => {
    if (metadata === undefined || (failedAt > 0 && Date.now() - failedAt >= retryAfterMs)) {
      failedAt = 0;
      metadata = discoverIssuer(settings.issuer, settings.timeoutMs).catch((error: unknown) => {
        failedAt = Date.now();
        logger.warn("cannot read the issuer's metadata: requests are refused until it answers", {
          issuer: settings.issuer,
          reason: error instanceof Error ? error.message : String(error),
        });
        throw error;
      });
    }
    return metadata;
  };

  const keySet = async (): Promise<JWTVerifyGetKey> => {
    const [found, { createRemoteJWKSet }] = await Promise.all([issuerMetadata(), loadJose()]);
    if (found.jwksUri === undefined)
      throw new IssuerUnavailableError(`issuer ${settings.issuer} publishes no jwks_uri: its JWT access tokens cannot be checked`);
    keys ??= createRemoteJWKSet(new URL(found.jwksUri), {
      timeoutDuration: settings.timeoutMs,
      cooldownDuration: options.jwksCooldownMs ?? 5000,
      cacheMaxAge: options.jwksMaxAgeMs ?? 600_000,
    });
    return keys;
  };

  const checkScopes = (outcome: AuthOutcome & { ok: true }): AuthOutcome => {
    const missing = settings.requiredScopes.filter((scope) => !outcome.identity.scopes.includes(scope));
    if (missing.length === 0) return outcome;
    logger.info('caller lacks a required scope', {
      subject: outcome.identity.subject,
      client: outcome.identity.clientId,
      missing: missing.join(' '),
    });
    return refuse(403, 'insufficient_scope', `the token lacks the scope ${missing.join(' ')}`);
  };

  const verifyJwt = async (token: string, audience: string): Promise<AuthOutcome> => {
    let getKey: JWTVerifyGetKey;
    try {
      getKey = await keySet();
    } catch {
      return refuse(503, 'temporarily_unavailable', 'the authorization server cannot be reached: try again shortly');
    }
    const library = await loadJose();
    try {
      const { payload } = await library.jwtVerify(token, getKey, {
        issuer: settings.issuer,
        audience,
        algorithms: [...settings.algorithms],
        clockTolerance: settings.clockSkewSeconds,
        requiredClaims: ['exp'],
      });
      const identity = identityOf(payload, settings.groupsClaim);
      if (identity === undefined) return refuse(401, 'invalid_token', 'the token names no subject (sub) or client (client_id)');
      return { ok: true, identity, expiresAt: payload.exp };
    } catch (error) {
      const reason = joseReason(library, error);
      const claims = unverifiedClaims(token);
      const who = {
        subject: typeof claims?.['sub'] === 'string' ? claims['sub'] : undefined,
        client: typeof claims?.['client_id'] === 'string' ? claims['client_id'] : undefined,
      };
      if (reason.unavailable) {
        logger.warn("cannot check a token: the issuer's key set is unreachable", {
          ...who,
          reason: error instanceof Error ? error.message : String(error),
        });
        return refuse(503, 'temporarily_unavailable', 'the authorization server cannot be reached: try again shortly');
      }
      logger.info('token refused', { ...who, reason: reason.description });
      return refuse(401, 'invalid_token', reason.description);
    }
  };

  const verifyOpaque = async (token: string, audience: string): Promise<AuthOutcome> => {
    const client = settings.introspection;
    if (client === undefined)
      return refuse(401, 'invalid_token', 'the token is not a JWT, and this server has no introspection configured');
    try {
      const url = client.url ?? (await issuerMetadata()).introspectionEndpoint;
      if (url === undefined)
        return refuse(401, 'invalid_token', 'the token is not a JWT, and the issuer publishes no introspection endpoint');
      const claims = await introspect(token, {
        url,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        timeoutMs: settings.timeoutMs,
      });
      if (claims === undefined) return refuse(401, 'invalid_token', 'the token is not active');
      const now = Date.now() / 1000;
      const exp = typeof claims['exp'] === 'number' ? claims['exp'] : undefined;
      const problem =
        exp !== undefined && exp + settings.clockSkewSeconds < now
          ? 'the token has expired'
          : claims['iss'] !== undefined && claims['iss'] !== settings.issuer
            ? 'the token was issued by another issuer'
            : !hasAudience(claims['aud'], audience)
              ? 'the token was not issued for this server (aud)'
              : undefined;
      const identity = identityOf(claims, settings.groupsClaim);
      if (problem !== undefined || identity === undefined) {
        logger.info('token refused', { subject: identity?.subject, client: identity?.clientId, reason: problem ?? 'no subject' });
        return refuse(401, 'invalid_token', problem ?? 'the token names no subject (sub) or client (client_id)');
      }
      return { ok: true, identity, expiresAt: exp };
    } catch (error) {
      logger.warn('cannot introspect a token', { reason: error instanceof Error ? error.message : String(error) });
      return refuse(503, 'temporarily_unavailable', 'the authorization server cannot be reached: try again shortly');
    }
  };

  return {
    authorizationServers: [settings.issuer],
    requiredScopes: settings.requiredScopes,
    audience: settings.audience,
    authenticate: async (authorization, resource) => {
      if (authorization === undefined || authorization === '')
        return refuse(401, undefined, 'send an OAuth access token as "Authorization: Bearer <token>"');
      // The header's length is checked before any parsing: a huge header costs one comparison.
      if (authorization.length > settings.maxTokenBytes + 16)
        return refuse(401, 'invalid_token', `the token is longer than ${settings.maxTokenBytes} bytes`);
      const match = bearer.exec(authorization);
      if (match === null) return refuse(401, 'invalid_request', 'the Authorization header must be "Bearer <token>"');
      const token = match[1] as string;
      const audience = settings.audience ?? resource;
      const outcome = jwsShape.test(token) ? await verifyJwt(token, audience) : await verifyOpaque(token, audience);
      if (!outcome.ok) return outcome;
      logger.debug('caller authenticated', { subject: outcome.identity.subject, client: outcome.identity.clientId });
      return checkScopes(outcome);
    },
  };
};
