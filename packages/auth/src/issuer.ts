import type * as JoseModule from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import type { Logger } from '@promptyard/core';
import type { AuthSettings } from './config.js';
import { discoverIssuer, IssuerUnavailableError } from './discovery.js';
import type { IssuerMetadata } from './discovery.js';

export interface IssuerOptions {
  readonly logger: Logger;
  /** Least time between two key-set fetches caused by an unknown `kid` (default 5 s). */
  readonly jwksCooldownMs?: number;
  /** Longest a fetched key set is used before it is fetched again (default 10 min). */
  readonly jwksMaxAgeMs?: number;
  /** After a failed discovery, requests fail at once for this long before it is tried again (default 5 s). */
  readonly retryAfterMs?: number;
}

export type Jose = typeof JoseModule;
/** jose, loaded by the first token check: a binary started without `[auth]` never loads it. */
let jose: Promise<Jose> | undefined;
export const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/** What the token checks ask of the issuer: its metadata and its key set, each fetched once. */
export interface Issuer {
  /** The issuer's metadata, fetched on first use; a failure is remembered briefly so a flood does not hammer the issuer. */
  metadata(): Promise<IssuerMetadata>;
  /** The issuer's key set (jose's remote JWKS: cached, fetched again for an unknown `kid`). */
  keySet(): Promise<JWTVerifyGetKey>;
}

export const createIssuer = (settings: AuthSettings, options: IssuerOptions): Issuer => {
  const { logger } = options;
  const retryAfterMs = options.retryAfterMs ?? 5000;
  let metadata: Promise<IssuerMetadata> | undefined;
  let failedAt = 0;
  let keys: JWTVerifyGetKey | undefined;

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

  return {
    metadata: issuerMetadata,
    keySet: async () => {
      const [found, { createRemoteJWKSet }] = await Promise.all([issuerMetadata(), loadJose()]);
      if (found.jwksUri === undefined)
        throw new IssuerUnavailableError(`issuer ${settings.issuer} publishes no jwks_uri: its JWT access tokens cannot be checked`);
      keys ??= createRemoteJWKSet(new URL(found.jwksUri), {
        timeoutDuration: settings.timeoutMs,
        cooldownDuration: options.jwksCooldownMs ?? 5000,
        cacheMaxAge: options.jwksMaxAgeMs ?? 600_000,
      });
      return keys;
    },
  };
};
