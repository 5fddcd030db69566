import type { JWTVerifyGetKey } from 'jose';
import type { AuthOutcome, Logger } from '@promptyard/core';
import { identityOf } from './claims.js';
import type { AuthSettings } from './config.js';
import { loadJose } from './issuer.js';
import type { Issuer, Jose } from './issuer.js';
import { refuse, unreachable } from './refusals.js';

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

/** A JWT access token verified against the issuer's key set: signature, issuer, audience, algorithm, expiry. */
export const verifyJwt = async (
  token: string,
  audience: string,
  settings: AuthSettings,
  issuer: Issuer,
  logger: Logger,
): Promise<AuthOutcome> => {
  let getKey: JWTVerifyGetKey;
  try {
    getKey = await issuer.keySet();
  } catch {
    return unreachable();
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
      return unreachable();
    }
    logger.info('token refused', { ...who, reason: reason.description });
    return refuse(401, 'invalid_token', reason.description);
  }
};
