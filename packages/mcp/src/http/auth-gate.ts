import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Authenticator, Logger } from '@promptyard/core';
import { refuse } from './auth-challenge.js';
import { serveMetadata } from './auth-metadata.js';
import { serverTokenIdentity } from './auth-identity.js';
import type { ServerSdk } from '../sdk.js';
import { headerOf } from './messages.js';

/**
 * Who may reach the MCP endpoint: a static bearer token (simple setups), an OAuth resource server's
 * `Authenticator` (RFC 9728 metadata, RFC 6750 challenges), both, or neither. The identity of an
 * accepted caller rides to request handling as the SDK's `authInfo`.
 */
export interface HttpAuthGate {
  /** Answers a protected-resource metadata request; false for any other path. */
  metadata(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /** The caller's `authInfo`, or `undefined` once the refusal is written. */
  check(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | undefined>;
  /** Whether the request carries credentials that would be accepted, without answering it (for `/health` details). */
  accepts(req: IncomingMessage): Promise<boolean>;
  /** Whether requests need credentials at all. */
  readonly required: boolean;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

const bearerToken = (req: IncomingMessage): string | undefined =>
  /^Bearer\s+(.+)$/i.exec(headerOf(req, 'authorization') ?? '')?.[1]?.trim();

export interface HttpAuthGateOptions {
  readonly sdk: typeof ServerSdk;
  readonly authToken: string | undefined;
  readonly authenticator: Authenticator | undefined;
  /** The URL clients reach the endpoint at: the OAuth resource. Known once the server is bound. */
  readonly resource: () => string;
  /** The endpoints' local paths, each also served suffixed to the metadata path (one resource for all). */
  readonly paths: readonly string[];
  readonly logger: Logger;
}

/** What `check` reads: made once per endpoint. */
interface Gate extends HttpAuthGateOptions {
  /** The static token's digest, compared in constant time. */
  readonly expectedToken: Buffer | undefined;
  readonly metadataUrl: () => string;
}

const hasServerToken = (gate: Gate, req: IncomingMessage): boolean => {
  if (gate.expectedToken === undefined) return false;
  const token = bearerToken(req);
  return token !== undefined && timingSafeEqual(digest(token), gate.expectedToken);
};

/** The caller's `authInfo` — the server token's, or the identity the authenticator accepted — or `undefined` once the refusal is written. */
const checkCaller = async (gate: Gate, req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | undefined> => {
  const { authenticator, expectedToken, metadataUrl } = gate;
  if (expectedToken === undefined && authenticator === undefined) return { token: '', clientId: '', scopes: [] };
  const target = req.url ?? '';
  // The MCP authorization specification forbids tokens in a URL: they end up in logs and histories.
  if (/[?&]access_token=/.test(target)) {
    const description = 'an access token in the URL is refused: send it as "Authorization: Bearer <token>"';
    refuse(res, { ok: false, status: 400, error: 'invalid_request', description }, authenticator, metadataUrl);
    return undefined;
  }
  if (hasServerToken(gate, req)) return { token: '', clientId: '', scopes: [], extra: { identity: serverTokenIdentity } };
  if (authenticator === undefined) {
    refuse(
      res,
      { ok: false, status: 401, description: 'send the server token as "Authorization: Bearer <token>"' },
      authenticator,
      metadataUrl,
    );
    return undefined;
  }
  const outcome = await authenticator.authenticate(headerOf(req, 'authorization'), authenticator.audience ?? gate.resource());
  if (!outcome.ok) {
    if (outcome.status === 503)
      gate.logger.warn('request refused: the authorization server cannot be reached', { reason: outcome.description });
    refuse(res, outcome, authenticator, metadataUrl);
    return undefined;
  }
  const { identity, expiresAt } = outcome;
  // The token itself stays here: handlers get who is calling, not a credential to pass on.
  return {
    token: '',
    clientId: identity.clientId ?? '',
    scopes: [...identity.scopes],
    ...(expiresAt === undefined ? {} : { expiresAt }),
    extra: { identity },
  };
};

export const createHttpAuthGate = (options: HttpAuthGateOptions): HttpAuthGate => {
  const { sdk, authenticator } = options;
  const gate: Gate = {
    ...options,
    expectedToken: options.authToken === undefined || options.authToken === '' ? undefined : digest(options.authToken),
    metadataUrl: () => sdk.getOAuthProtectedResourceMetadataUrl(new URL(options.resource())),
  };
  return {
    required: gate.expectedToken !== undefined || authenticator !== undefined,
    accepts: async (req) =>
      hasServerToken(gate, req) ||
      (authenticator !== undefined &&
        headerOf(req, 'authorization') !== undefined &&
        (await authenticator.authenticate(headerOf(req, 'authorization'), options.resource())).ok),
    metadata: (req, res, pathname) => serveMetadata(authenticator, gate, req, res, pathname),
    check: (req, res) => checkCaller(gate, req, res),
  };
};
