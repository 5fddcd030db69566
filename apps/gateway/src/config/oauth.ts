import { closestNames, didYouMean } from '@promptyard/core';
import { OAUTH_GRANTS } from '@promptyard/router';
import type { OAuthSettings } from '@promptyard/router';
import { isTable } from '@promptyard/core';

/** Reads `auth = "oauth"` with its `[servers.<id>.oauth]` table: the gateway as an OAuth client of that server. */

const OAUTH_KEYS = ['grant', 'client_id', 'client_secret', 'scopes', 'redirect_port'] as const;

interface OAuthInput {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
  readonly headers: Readonly<Record<string, string>>;
  readonly problem: (path: readonly string[], message: string) => void;
  /** `${VAR}` substitution of a string value at `path`. */
  readonly substitute: (path: readonly string[], value: string) => string;
}

/** The `oauth` table when `auth = "oauth"` can work for this entry; undefined (with a problem when it is wrong) otherwise. */
const oauthTable = ({ fields, transport, headers, problem }: OAuthInput): Record<string, unknown> | undefined => {
  const auth = fields['auth'];
  const table = fields['oauth'];
  if (auth === undefined || auth === 'none') {
    if (table !== undefined)
      problem(['oauth'], 'has an [oauth] table but no auth = "oauth": add auth = "oauth" to use it, or remove the table');
    return undefined;
  }
  if (auth !== 'oauth') {
    problem(
      ['auth'],
      `auth must be "oauth" (the gateway logs in to the server) or "none", got ${JSON.stringify(auth)}; a static token goes in headers instead`,
    );
    return undefined;
  }
  if (transport === 'stdio') {
    problem(
      ['auth'],
      'auth = "oauth" needs a url: a command (stdio) server is not reached over HTTP, so remove auth or replace command with url',
    );
    return undefined;
  }
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
    problem(
      ['headers'],
      'has both auth = "oauth" and an Authorization header: remove the header (the gateway sends the token it got by OAuth)',
    );
  }
  if (table !== undefined && !isTable(table)) {
    problem(['oauth'], 'oauth must be a table ([servers.<id>.oauth]) with grant, client_id, client_secret, scopes or redirect_port');
    return undefined;
  }
  return table ?? {};
};

const readScopes = (values: Record<string, unknown>, problem: OAuthInput['problem']): readonly string[] => {
  const scopesValue = values['scopes'] ?? [];
  if (Array.isArray(scopesValue) && scopesValue.every((item) => typeof item === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item)))
    return scopesValue as string[];
  problem(['oauth', 'scopes'], `oauth.scopes must be a list of scope names such as ["read", "write"], got ${JSON.stringify(scopesValue)}`);
  return [];
};

const readRedirectPort = (values: Record<string, unknown>, problem: OAuthInput['problem']): number | undefined => {
  const port = typeof values['redirect_port'] === 'bigint' ? Number(values['redirect_port']) : values['redirect_port'];
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535)) {
    problem(['oauth', 'redirect_port'], `oauth.redirect_port must be a port number from 1 to 65535, got ${JSON.stringify(port)}`);
  }
  return typeof port === 'number' ? port : undefined;
};

/** Reads `auth` and `oauth` of one server entry; undefined without `auth = "oauth"`. */
export const readOAuth = (input: OAuthInput): OAuthSettings | undefined => {
  const { problem, substitute } = input;
  const values = oauthTable(input);
  if (values === undefined) return undefined;
  for (const key of Object.keys(values)) {
    if ((OAUTH_KEYS as readonly string[]).includes(key)) continue;
    const hint = didYouMean(closestNames(key, OAUTH_KEYS, 1), 'aside');
    problem(['oauth', key], `unknown key "${key}" in oauth${hint}; allowed keys: ${OAUTH_KEYS.join(', ')}`);
  }
  const text = (key: string): string | undefined => {
    const value = values[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') {
      problem(['oauth', key], `oauth.${key} must be a non-empty string, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return substitute(['oauth', key], value);
  };
  const grantValue = values['grant'] ?? 'authorization_code';
  const grant = OAUTH_GRANTS.find((item) => item === grantValue);
  if (grant === undefined)
    problem(
      ['oauth', 'grant'],
      `oauth.grant must be "authorization_code" (a person logs in) or "client_credentials" (a machine account), got ${JSON.stringify(grantValue)}`,
    );
  const clientId = text('client_id');
  const clientSecret = text('client_secret');
  const scopes = readScopes(values, problem);
  const port = readRedirectPort(values, problem);
  if (grant === 'client_credentials' && (clientId === undefined || clientSecret === undefined)) {
    problem(
      ['oauth'],
      'oauth.grant = "client_credentials" needs oauth.client_id and oauth.client_secret (the machine account\'s credentials; put the secret in an environment variable: client_secret = "${MY_SECRET}")',
    );
  }
  if (clientSecret !== undefined && clientId === undefined)
    problem(
      ['oauth', 'client_secret'],
      'oauth.client_secret needs oauth.client_id: set both, or neither to register the gateway dynamically',
    );
  return {
    grant: grant ?? 'authorization_code',
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    scopes,
    ...(port === undefined ? {} : { redirectPort: port }),
  };
};
