/**
 * The console's browser sign-in through the `[auth]` identity provider: the authorization code flow
 * with PKCE (S256), a `state` bound to the browser by a short-lived cookie and a `nonce` bound to the
 * ID token. The provider's endpoints come from the issuer's metadata (`discoverIssuer`); the tokens
 * it answers are checked by `@promptyard/auth` (the access token as the endpoint checks a bearer
 * token, the ID token against the issuer's keys with the console's client id as audience). Every
 * failure is a sentence for the sign-in page, never an exception. Signing out ends the session at the
 * provider too when its metadata has an `end_session_endpoint` (OpenID RP-initiated logout: the ID
 * token as the hint, back to the console's sign-in page afterwards).
 */
import { createHash } from 'node:crypto';
import type { AuthOutcome } from '@promptyard/core';
import { discoverIssuer } from '@promptyard/auth';
import type { IssuerMetadata } from '@promptyard/auth';
import { randomToken } from './sessions.js';
import type { SignInOutcome } from './sign-in.js';

export interface OidcSignInOptions {
  readonly issuer: string;
  readonly client: { readonly id: string; readonly secret?: string | undefined };
  /** `<public_url origin>/console/callback`, known once the endpoint is bound. */
  readonly redirectUri: () => string;
  /** `<public_url origin>/console/login`: where the provider sends the browser after signing it out. */
  readonly postLogoutRedirectUri: () => string;
  /** The resource (RFC 8707) the access token is asked for: the endpoint's audience. */
  readonly resource: () => string;
  readonly scopes: readonly string[];
  readonly timeoutMs: number;
  /** The access token checked as the endpoint checks a bearer token; the role decided. */
  readonly signIn: (accessToken: string) => Promise<SignInOutcome>;
  /** The ID token checked against the issuer's keys, with the console's client id as audience. */
  readonly verifyIdToken: (idToken: string) => Promise<AuthOutcome>;
  /** Finds the provider's endpoints (tests replace it). */
  readonly discover?: (issuer: string, timeoutMs: number) => Promise<IssuerMetadata>;
  readonly now?: () => number;
}

type OidcStart =
  { readonly ok: true; readonly location: string; readonly state: string } | { readonly ok: false; readonly message: string };

export interface OidcSignIn {
  /** Where to send the browser, and the `state` its flow cookie must hold when it comes back. */
  start(): Promise<OidcStart>;
  /** The callback's query checked and the code exchanged; `flowState`: the browser's flow cookie. */
  finish(query: URLSearchParams, flowState: string | undefined): Promise<SignInOutcome>;
  /** Where to send the browser to sign out at the provider as well (`idToken`: the one its sign-in got), or why it cannot. */
  signOut(idToken: string): Promise<{ readonly location: string } | { readonly why: string }>;
}

interface Flow {
  readonly verifier: string;
  readonly nonce: string;
  readonly startedAt: number;
}

/** A person has this long at the provider before the flow is forgotten. */
const flowMs = 10 * 60_000;
const maxFlows = 1000;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const failure = (message: string): { readonly ok: false; readonly message: string } => ({ ok: false, message });

/** The code and the PKCE verifier for the tokens, at the token endpoint (client_secret_basic when the client has a secret). */
const exchangeCode = async (
  options: OidcSignInOptions,
  token: string,
  code: string,
  verifier: string,
): Promise<{ access: string; id: string } | { error: string }> => {
  const { client, timeoutMs } = options;
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: options.redirectUri(),
    code_verifier: verifier,
    resource: options.resource(),
    // A public client names itself in the body; a confidential one authenticates in the header only.
    ...(client.secret === undefined ? { client_id: client.id } : {}),
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (client.secret !== undefined)
    headers['authorization'] =
      `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`;
  let answer: Record<string, unknown>;
  try {
    const response = await fetch(token, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const why = [answer['error'], answer['error_description']].filter((part) => typeof part === 'string').join(': ');
      return { error: `The identity provider refused the sign-in code (${why || `HTTP ${response.status}`}): sign in again.` };
    }
  } catch (error) {
    return { error: `The identity provider's token endpoint cannot be reached (${describe(error)}): try again later.` };
  }
  const { access_token: access, id_token: id } = answer;
  if (typeof access !== 'string' || typeof id !== 'string')
    return {
      error: 'The identity provider answered without an access token and an ID token: is "openid" among the scopes it allows the console?',
    };
  return { access, id };
};

/** Where the browser goes: the provider's authorization endpoint with this flow's state, nonce and S256 challenge. */
const authorizationUrl = (options: OidcSignInOptions, endpoint: string, state: string, flow: Flow): string => {
  const url = new URL(endpoint);
  const params = {
    response_type: 'code',
    client_id: options.client.id,
    redirect_uri: options.redirectUri(),
    scope: options.scopes.join(' '),
    state,
    nonce: flow.nonce,
    code_challenge: createHash('sha256').update(flow.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: options.resource(),
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
};

export const createOidcSignIn = (options: OidcSignInOptions): OidcSignIn => {
  const { issuer, timeoutMs, now = Date.now } = options;
  const discover = options.discover ?? discoverIssuer;
  const flows = new Map<string, Flow>();
  let metadata: Promise<IssuerMetadata> | undefined;

  const issuerMetadata = async (): Promise<IssuerMetadata> => {
    try {
      return await (metadata ??= discover(issuer, timeoutMs));
    } catch (error) {
      metadata = undefined;
      throw error;
    }
  };

  const endpoints = async (): Promise<{ authorization: string; token: string } | { error: string }> => {
    try {
      const found = await issuerMetadata();
      if (found.authorizationEndpoint === undefined || found.tokenEndpoint === undefined)
        return {
          error: `The identity provider ${issuer} publishes no authorization_endpoint or token_endpoint: it cannot sign browsers in.`,
        };
      return { authorization: found.authorizationEndpoint, token: found.tokenEndpoint };
    } catch (error) {
      return { error: `The identity provider ${issuer} cannot be reached (${describe(error)}): try again later, or sign in with a token.` };
    }
  };

  const remember = (state: string, flow: Flow): void => {
    for (const [key, each] of flows) if (now() - each.startedAt > flowMs) flows.delete(key);
    while (flows.size >= maxFlows) flows.delete(flows.keys().next().value as string);
    flows.set(state, flow);
  };

  const start: OidcSignIn['start'] = async () => {
    const found = await endpoints();
    if ('error' in found) return failure(found.error);
    const state = randomToken();
    const flow = { verifier: randomToken(), nonce: randomToken(), startedAt: now() };
    remember(state, flow);
    return { ok: true, location: authorizationUrl(options, found.authorization, state, flow), state };
  };

  const finish: OidcSignIn['finish'] = async (query, flowState) => {
    const state = query.get('state') ?? '';
    const flow = flows.get(state);
    flows.delete(state);
    if (flow === undefined || flowState !== state || now() - flow.startedAt > flowMs)
      return failure('This sign-in did not start here, or took longer than 10 minutes (the state does not match): sign in again.');
    const refused = query.get('error');
    if (refused !== null)
      return failure(
        `The identity provider did not sign you in (${[refused, query.get('error_description')].filter(Boolean).join(': ')}).`,
      );
    const code = query.get('code');
    if (code === null || code === '') return failure('The identity provider sent no sign-in code back: sign in again.');
    const found = await endpoints();
    if ('error' in found) return failure(found.error);
    const tokens = await exchangeCode(options, found.token, code, flow.verifier);
    if ('error' in tokens) return failure(tokens.error);
    const idToken = await options.verifyIdToken(tokens.id);
    if (!idToken.ok) return failure(`The ID token was refused: ${idToken.description ?? 'it is not valid here'}.`);
    if (idToken.identity.claims['nonce'] !== flow.nonce) return failure("The ID token does not carry this sign-in's nonce: sign in again.");
    // Who signs in, and as what, is read from the access token, as for any caller of the endpoint.
    const outcome = await options.signIn(tokens.access);
    return outcome.ok ? { ...outcome, idToken: tokens.id } : outcome;
  };

  const signOut: OidcSignIn['signOut'] = async (idToken) => {
    let endSession: string | undefined;
    try {
      endSession = (await issuerMetadata()).endSessionEndpoint;
    } catch (error) {
      return { why: `the identity provider ${issuer} cannot be reached (${describe(error)})` };
    }
    if (endSession === undefined) return { why: `the identity provider ${issuer} publishes no end_session_endpoint` };
    const url = new URL(endSession);
    url.searchParams.set('id_token_hint', idToken);
    url.searchParams.set('client_id', options.client.id);
    url.searchParams.set('post_logout_redirect_uri', options.postLogoutRedirectUri());
    return { location: url.href };
  };

  return { start, finish, signOut };
};
