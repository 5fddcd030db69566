import type { AuthOutcome, Logger } from '@promptyard/core';
import { hasAudience, identityOf } from './claims.js';
import type { AuthSettings } from './config.js';
import { introspect } from './introspection.js';
import type { Issuer } from './issuer.js';
import { refuse, unreachable } from './refusals.js';

/** Why an active token's claims are not accepted here: expired, another issuer's, or for another audience. */
const claimsProblem = (
  claims: Record<string, unknown>,
  exp: number | undefined,
  now: number,
  settings: AuthSettings,
  audience: string,
): string | undefined =>
  exp !== undefined && exp + settings.clockSkewSeconds < now
    ? 'the token has expired'
    : claims['iss'] !== undefined && claims['iss'] !== settings.issuer
      ? 'the token was issued by another issuer'
      : !hasAudience(claims['aud'], audience)
        ? 'the token was not issued for this server (aud)'
        : undefined;

/** An opaque token introspected (RFC 7662) at the configured endpoint or the issuer's, then its expiry, issuer and audience checked. */
export const verifyOpaque = async (
  token: string,
  audience: string,
  settings: AuthSettings,
  issuer: Issuer,
  logger: Logger,
): Promise<AuthOutcome> => {
  const client = settings.introspection;
  if (client === undefined) return refuse(401, 'invalid_token', 'the token is not a JWT, and this server has no introspection configured');
  try {
    const url = client.url ?? (await issuer.metadata()).introspectionEndpoint;
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
    const problem = claimsProblem(claims, exp, now, settings, audience);
    const identity = identityOf(claims, settings.groupsClaim);
    if (problem !== undefined || identity === undefined) {
      logger.info('token refused', { subject: identity?.subject, client: identity?.clientId, reason: problem ?? 'no subject' });
      return refuse(401, 'invalid_token', problem ?? 'the token names no subject (sub) or client (client_id)');
    }
    return { ok: true, identity, expiresAt: exp };
  } catch (error) {
    logger.warn('cannot introspect a token', { reason: error instanceof Error ? error.message : String(error) });
    return unreachable();
  }
};
