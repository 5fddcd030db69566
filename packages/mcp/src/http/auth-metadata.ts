import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '@promptyard/core';
import { headerOf } from './messages.js';

const metadataBase = '/.well-known/oauth-protected-resource';

/** Where the RFC 9728 document is served: the base path, the SDK's URL for the resource, and the base suffixed with each endpoint's path. */
const metadataPaths = (metadataUrl: string, paths: readonly string[]): Set<string> =>
  new Set([metadataBase, new URL(metadataUrl).pathname, ...paths.map((path) => `${metadataBase}${path}`)]);

/**
 * Answers a protected-resource metadata request (RFC 9728), CORS preflight included; `false` for
 * any other path, and for every path without OAuth.
 */
export const serveMetadata = (
  authenticator: Authenticator | undefined,
  place: { readonly resource: () => string; readonly metadataUrl: () => string; readonly paths: readonly string[] },
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): boolean => {
  if (authenticator === undefined || !pathname.startsWith(metadataBase) || !metadataPaths(place.metadataUrl(), place.paths).has(pathname))
    return false;
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' };
  if (req.method === 'OPTIONS')
    res.writeHead(204, { ...cors, 'access-control-allow-headers': headerOf(req, 'access-control-request-headers') ?? '' }).end();
  else if (req.method !== 'GET' && req.method !== 'HEAD')
    res.writeHead(405, { ...cors, allow: 'GET, HEAD, OPTIONS', 'content-type': 'text/plain' }).end('Method not allowed');
  else {
    // RFC 9728 §3.2: the document's `resource` is exactly the identifier clients send as RFC 8707 `resource`.
    const document = {
      resource: authenticator.audience ?? place.resource(),
      authorization_servers: authenticator.authorizationServers,
      bearer_methods_supported: ['header'],
      ...(authenticator.requiredScopes.length > 0 ? { scopes_supported: authenticator.requiredScopes } : {}),
    };
    res
      .writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'max-age=300' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(document));
  }
  return true;
};
