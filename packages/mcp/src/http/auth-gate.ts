import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { AuthRefusal, Authenticator, Logger } from '@promptyard/core';
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

/** An HTTP quoted-string (RFC 9110 §5.6.4). */
const quoted = (value: string): string => `"${value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7e]/g, ' ')}"`;

export const createHttpAuthGate = (options: {
  readonly sdk: typeof ServerSdk;
  readonly authToken: string | undefined;
  readonly authenticator: Authenticator | undefined;
  /** The URL clients reach the endpoint at: the OAuth resource. Known once the server is bound. */
  readonly resource: () => string;
  /** The endpoint's local path, also served suffixed to the metadata path. */
  readonly path: string;
  readonly logger: Logger;
}): HttpAuthGate => {
  const { sdk, authenticator, logger } = options;
  const expectedToken = options.authToken === undefined || options.authToken === '' ? undefined : digest(options.authToken);
  const metadataUrl = (): string => sdk.getOAuthProtectedResourceMetadataUrl(new URL(options.resource()));

  const bearerToken = (req: IncomingMessage): string | undefined =>
    /^Bearer\s+(.+)$/i.exec(headerOf(req, 'authorization') ?? '')?.[1]?.trim();
  const hasServerToken = (req: IncomingMessage): boolean => {
    if (expectedToken === undefined) return false;
    const token = bearerToken(req);
    return token !== undefined && timingSafeEqual(digest(token), expectedToken);
  };

  const metadataPaths = (): Set<string> => {
    const base = '/.well-known/oauth-protected-resource';
    return new Set([base, new URL(metadataUrl()).pathname, `${base}${options.path}`]);
  };

  const refuse = (res: ServerResponse, refusal: AuthRefusal): void => {
    const params = [
      ...(refusal.error === undefined ? [] : [`error=${quoted(refusal.error)}`, `error_description=${quoted(refusal.description)}`]),
      ...(authenticator !== undefined && authenticator.requiredScopes.length > 0
        ? [`scope=${quoted(authenticator.requiredScopes.join(' '))}`]
        : []),
      ...(authenticator === undefined ? ['realm="promptyard"'] : [`resource_metadata=${quoted(metadataUrl())}`]),
    ];
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (refusal.status !== 503) headers['www-authenticate'] = `Bearer ${params.join(', ')}`;
    else headers['retry-after'] = '5';
    const message =
      refusal.status === 403
        ? `Forbidden: ${refusal.description}; ask for a token with the scope ${authenticator?.requiredScopes.join(' ') ?? ''}.`
        : refusal.status === 503
          ? `Service unavailable: ${refusal.description}.`
          : `Unauthorized: ${refusal.description}.`;
    res
      .writeHead(refusal.status, headers)
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.status === 503 ? -32000 : -32001, message }, id: null }));
  };

  return {
    required: expectedToken !== undefined || authenticator !== undefined,
    accepts: async (req) =>
      hasServerToken(req) ||
      (authenticator !== undefined &&
        headerOf(req, 'authorization') !== undefined &&
        (await authenticator.authenticate(headerOf(req, 'authorization'), options.resource())).ok),
    metadata: (req, res, pathname) => {
      if (authenticator === undefined || !pathname.startsWith('/.well-known/oauth-protected-resource') || !metadataPaths().has(pathname))
        return false;
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' };
      if (req.method === 'OPTIONS')
        res.writeHead(204, { ...cors, 'access-control-allow-headers': headerOf(req, 'access-control-request-headers') ?? '' }).end();
      else if (req.method !== 'GET' && req.method !== 'HEAD')
        res.writeHead(405, { ...cors, allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain' }).end('Method not allowed');
      else {
        // RFC 9728 §3.2: the document's `resource` is exactly the identifier clients send as RFC 8707 `resource`.
        const document = {
          resource: authenticator.audience ?? options.resource(),
          authorization_servers: authenticator.authorizationServers,
          bearer_methods_supported: ['header'],
          ...(authenticator.requiredScopes.length > 0 ? { scopes_supported: authenticator.requiredScopes } : {}),
        };
        res
          .writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' })
          .end(req.method === 'HEAD' ? undefined : JSON.stringify(document));
      }
      return true;
    },
    check: async (req, res) => {
      if (expectedToken === undefined && authenticator === undefined) return { token: '', clientId: '', scopes: [] };
      const target = req.url ?? '';
      // The MCP authorization specification forbids tokens in a URL: they end up in logs and histories.
      if (/[?&]access_token=/.test(target)) {
        refuse(res, {
          ok: false,
          status: 400,
          error: 'invalid_request',
          description: 'an access token in the URL is refused: send it as "Authorization: Bearer <token>"',
        });
        return undefined;
      }
      if (hasServerToken(req)) return { token: '', clientId: '', scopes: [], extra: { identity: serverTokenIdentity } };
      if (authenticator === undefined) {
        refuse(res, { ok: false, status: 401, description: 'send the server token as "Authorization: Bearer <token>"' });
        return undefined;
      }
      const outcome = await authenticator.authenticate(headerOf(req, 'authorization'), authenticator.audience ?? options.resource());
      if (!outcome.ok) {
        if (outcome.status === 503)
          logger.warn('request refused: the authorization server cannot be reached', { reason: outcome.description });
        refuse(res, outcome);
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
    },
  };
};
