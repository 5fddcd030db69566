import { PromptyardError } from '@promptyard/core';
import type { ConfigOf, SectionSpec } from '@promptyard/core';

/** Signature algorithms accepted by default: asymmetric only, so the issuer's public keys can check them. */
export const defaultAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/**
 * `[auth]` of every serving binary: the server as an OAuth 2.1 resource server. Each key is also read
 * from `PROMPTYARD_AUTH_<KEY>` (the client secret belongs there, not in a file).
 */
export const authSection = {
  issuer: {
    type: 'string',
    doc: 'OAuth 2.1 / OpenID issuer whose access tokens are accepted over HTTP (https; http only on a loopback host). Unset: no OAuth.',
  },
  audience: { type: 'string', doc: 'The audience tokens must carry (default: [transport] public_url, else the URL served).' },
  required_scopes: {
    type: 'string[]',
    separator: 'comma',
    default: [],
    doc: 'Scopes every token needs; a token without them gets 403 insufficient_scope.',
  },
  groups_claim: {
    type: 'string',
    default: 'groups',
    doc: 'The claim group names are read from; dots reach into objects (realm_access.roles).',
  },
  algorithms: {
    type: 'string[]',
    separator: 'comma',
    default: [...defaultAlgorithms],
    doc: 'Accepted signature algorithms (never none, never HS*).',
  },
  clock_skew_s: { type: 'integer', min: 0, max: 300, default: 30, doc: 'Seconds of clock difference allowed on exp and nbf.' },
  introspection_url: {
    type: 'string',
    doc: "RFC 7662 endpoint for opaque (non-JWT) tokens (default: the issuer's, when client_id is set).",
  },
  client_id: { type: 'string', doc: "This server's client id at the issuer, for introspection." },
  client_secret: { type: 'string', doc: 'Its secret (prefer PROMPTYARD_AUTH_CLIENT_SECRET).' },
  timeout_ms: {
    type: 'integer',
    min: 100,
    max: 60_000,
    default: 3000,
    doc: 'Longest a discovery, key set or introspection request may take; past it requests get 503.',
  },
  max_token_bytes: { type: 'integer', min: 256, max: 16_384, default: 8192, doc: 'Longer bearer tokens are refused unread.' },
} as const satisfies SectionSpec;

export type AuthSectionValues = ConfigOf<{ auth: typeof authSection }>['auth'];

export interface AuthSettings {
  readonly issuer: string;
  /** Absent: the resource's own URL. */
  readonly audience: string | undefined;
  readonly requiredScopes: readonly string[];
  readonly groupsClaim: string;
  readonly algorithms: readonly string[];
  readonly clockSkewSeconds: number;
  readonly introspection: { readonly url: string | undefined; readonly clientId: string; readonly clientSecret: string } | undefined;
  readonly timeoutMs: number;
  readonly maxTokenBytes: number;
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const isLoopback = (hostname: string): boolean => loopbackNames.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** An https URL, or http on a loopback host (a provider on this machine, tests); else why not. */
export const checkSecureUrl = (value: string, what: string): string | undefined => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} must be an absolute URL, got ${JSON.stringify(value)}`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  if (url.protocol === 'http:') return `${what} must use https (http is allowed only on a loopback host), got ${JSON.stringify(value)}`;
  return `${what} must be an https URL, got ${JSON.stringify(value)}`;
};

/**
 * `[auth]` checked as a whole: the settings (`undefined` when no issuer is set: no OAuth), or every
 * mistake at once, each naming the key to change.
 */
export const checkAuthSection = (
  values: AuthSectionValues,
): { readonly settings: AuthSettings | undefined; readonly problems: readonly string[] } => {
  const problems: string[] = [];
  if (values.issuer === undefined || values.issuer.trim() === '') {
    const stray = (['audience', 'introspection_url', 'client_id', 'client_secret'] as const).filter((key) => values[key] !== undefined);
    return {
      settings: undefined,
      problems:
        stray.length > 0
          ? [`[auth] ${stray.join(', ')} set without an issuer: set [auth] issuer (PROMPTYARD_AUTH_ISSUER) or remove them`]
          : [],
    };
  }
  const issuer = values.issuer.trim();
  const issuerProblem = checkSecureUrl(issuer, '[auth] issuer');
  if (issuerProblem !== undefined) problems.push(issuerProblem);
  else if (new URL(issuer).search !== '' || new URL(issuer).hash !== '')
    problems.push(`[auth] issuer must have no query or fragment, got ${JSON.stringify(issuer)}`);
  const refused = values.algorithms.filter((name) => name.toLowerCase() === 'none' || /^HS\d+$/i.test(name));
  if (refused.length > 0)
    problems.push(
      `[auth] algorithms must not include ${refused.join(', ')}: tokens are checked with the issuer's public keys, so only asymmetric algorithms (${defaultAlgorithms.join(', ')}) can be accepted`,
    );
  const unknown = values.algorithms.filter((name) => !refused.includes(name) && !(defaultAlgorithms as readonly string[]).includes(name));
  if (unknown.length > 0) problems.push(`[auth] algorithms: unknown ${unknown.join(', ')}; allowed: ${defaultAlgorithms.join(', ')}`);
  if (values.algorithms.length === 0) problems.push(`[auth] algorithms must name at least one of ${defaultAlgorithms.join(', ')}`);
  if (values.audience !== undefined && values.audience.trim() === '')
    problems.push('[auth] audience must not be empty: remove it to use the URL served');
  if (values.introspection_url !== undefined) {
    const problem = checkSecureUrl(values.introspection_url, '[auth] introspection_url');
    if (problem !== undefined) problems.push(problem);
  }
  const hasId = values.client_id !== undefined && values.client_id !== '';
  const hasSecret = values.client_secret !== undefined && values.client_secret !== '';
  if (values.introspection_url !== undefined && !(hasId && hasSecret))
    problems.push(
      '[auth] introspection_url needs client_id and client_secret (PROMPTYARD_AUTH_CLIENT_SECRET): the issuer only answers its clients',
    );
  else if (hasId !== hasSecret)
    problems.push(`[auth] ${hasId ? 'client_id needs client_secret (PROMPTYARD_AUTH_CLIENT_SECRET)' : 'client_secret needs client_id'}`);
  if (values.groups_claim.trim() === '') problems.push('[auth] groups_claim must name a claim, such as "groups"');
  if (problems.length > 0) return { settings: undefined, problems };
  const settings: AuthSettings = {
    issuer,
    audience: values.audience?.trim(),
    requiredScopes: values.required_scopes,
    groupsClaim: values.groups_claim.trim(),
    algorithms: values.algorithms,
    clockSkewSeconds: values.clock_skew_s,
    introspection:
      hasId && hasSecret
        ? { url: values.introspection_url, clientId: values.client_id as string, clientSecret: values.client_secret as string }
        : undefined,
    timeoutMs: values.timeout_ms,
    maxTokenBytes: values.max_token_bytes,
  };
  return { settings, problems };
};

/** {@link checkAuthSection}, throwing `CONFIG_INVALID` with every problem. */
export const resolveAuthSettings = (values: AuthSectionValues): AuthSettings | undefined => {
  const { settings, problems } = checkAuthSection(values);
  if (problems.length > 0) throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${problems.join('\n  ')}`);
  return settings;
};
