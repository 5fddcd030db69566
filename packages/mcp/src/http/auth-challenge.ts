import type { ServerResponse } from 'node:http';
import type { AuthRefusal, Authenticator } from '@promptyard/core';

/** An HTTP quoted-string (RFC 9110 §5.6.4). */
const quoted = (value: string): string => `"${value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7e]/g, ' ')}"`;

/** The `WWW-Authenticate` challenge (RFC 6750 §3): the error, the scope needed, and where the metadata is (or a realm without OAuth). */
const challengeOf = (refusal: AuthRefusal, authenticator: Authenticator | undefined, metadataUrl: () => string): string => {
  const params = [
    ...(refusal.error === undefined ? [] : [`error=${quoted(refusal.error)}`, `error_description=${quoted(refusal.description)}`]),
    ...(authenticator !== undefined && authenticator.requiredScopes.length > 0
      ? [`scope=${quoted(authenticator.requiredScopes.join(' '))}`]
      : []),
    ...(authenticator === undefined ? ['realm="promptyard"'] : [`resource_metadata=${quoted(metadataUrl())}`]),
  ];
  return `Bearer ${params.join(', ')}`;
};

const messageOf = (refusal: AuthRefusal, authenticator: Authenticator | undefined): string =>
  refusal.status === 403
    ? `Forbidden: ${refusal.description}; ask for a token with the scope ${authenticator?.requiredScopes.join(' ') ?? ''}.`
    : refusal.status === 503
      ? `Service unavailable: ${refusal.description}.`
      : `Unauthorized: ${refusal.description}.`;

/** Writes a refusal: a challenge, or a retry hint while the authorization server is unreachable (503). */
export const refuse = (
  res: ServerResponse,
  refusal: AuthRefusal,
  authenticator: Authenticator | undefined,
  metadataUrl: () => string,
): void => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (refusal.status !== 503) headers['www-authenticate'] = challengeOf(refusal, authenticator, metadataUrl);
  else headers['retry-after'] = '5';
  const message = messageOf(refusal, authenticator);
  res
    .writeHead(refusal.status, headers)
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.status === 503 ? -32000 : -32001, message }, id: null }));
};
