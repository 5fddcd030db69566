import type { AuthOutcome, Authenticator } from '@promptyard/core';
import type { AuthSettings } from './config.js';
import { createIssuer } from './issuer.js';
import type { IssuerOptions } from './issuer.js';
import { refuse } from './refusals.js';
import { verifyJwt } from './verify-jwt.js';
import { verifyOpaque } from './verify-opaque.js';

/** The logger, and how often the issuer's key set and metadata may be fetched again. */
export type AuthenticatorOptions = IssuerOptions;

/** RFC 6750 b64token: what a bearer token may be made of. */
const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const jwsShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * An OAuth 2.1 resource server's token check: the `Authorization` header parsed strictly, a JWT
 * verified against the issuer's key set (discovered once, cached, fetched again for an unknown
 * `kid`), or an opaque token introspected; then audience and scopes. Every failure answers at once
 * and names what went wrong; the log names the subject and client, never the token.
 */
export const createAuthenticator = (settings: AuthSettings, options: AuthenticatorOptions): Authenticator => {
  const { logger } = options;
  const issuer = createIssuer(settings, options);

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
      const outcome = jwsShape.test(token)
        ? await verifyJwt(token, audience, settings, issuer, logger)
        : await verifyOpaque(token, audience, settings, issuer, logger);
      if (!outcome.ok) return outcome;
      logger.debug('caller authenticated', { subject: outcome.identity.subject, client: outcome.identity.clientId });
      return checkScopes(outcome);
    },
  };
};
