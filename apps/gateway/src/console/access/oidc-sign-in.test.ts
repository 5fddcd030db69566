import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthOutcome } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOidcSignIn } from './oidc-sign-in.js';
import type { OidcSignInOptions } from './oidc-sign-in.js';

/** A token endpoint on loopback answering what `answer` says, with what it was sent. */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

const tokenEndpoint = async (answer: { status: number; body: unknown }): Promise<{ url: string; seen: URLSearchParams[] }> => {
  const seen: URLSearchParams[] = [];
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push(new URLSearchParams(text));
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, seen };
};

const idToken = (nonce: string): AuthOutcome => ({
  ok: true,
  identity: { subject: 'ann', clientId: 'console', scopes: [], groups: [], claims: { nonce } },
  expiresAt: undefined,
});

const options = (token: string, overrides: Partial<OidcSignInOptions> = {}): OidcSignInOptions => ({
  issuer: 'https://id.example',
  client: { id: 'console' },
  redirectUri: () => 'http://127.0.0.1:3100/console/callback',
  postLogoutRedirectUri: () => 'http://127.0.0.1:3100/console/login',
  resource: () => 'http://127.0.0.1:3100/mcp',
  scopes: ['openid', 'profile'],
  timeoutMs: 1000,
  signIn: async (access) => (access === 'good-access' ? { ok: true, subject: 'ann', role: 'viewer' } : { ok: false, message: 'refused' }),
  verifyIdToken: async () => idToken('unused'),
  discover: async (issuer) => ({
    issuer,
    jwksUri: undefined,
    introspectionEndpoint: undefined,
    authorizationEndpoint: 'https://id.example/authorize',
    tokenEndpoint: token,
    endSessionEndpoint: undefined,
  }),
  ...overrides,
});

/** Starts a flow; the query the provider would send back with a code, and the nonce it asked for. */
const started = async (oidc: ReturnType<typeof createOidcSignIn>): Promise<{ state: string; nonce: string; challenge: string }> => {
  const start = await oidc.start();
  if (!start.ok) throw new Error(start.message);
  const url = new URL(start.location);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toBe(start.state);
  return {
    state: start.state,
    nonce: url.searchParams.get('nonce') as string,
    challenge: url.searchParams.get('code_challenge') as string,
  };
};

describe('sign-in through the identity provider', () => {
  it('exchanges the code with the PKCE verifier and signs in with the access token when the nonce holds', async () => {
    const endpoint = await tokenEndpoint({ status: 200, body: { access_token: 'good-access', id_token: 'id' } });
    let nonce = '';
    const oidc = createOidcSignIn(options(endpoint.url, { verifyIdToken: async () => idToken(nonce) }));
    const flow = await started(oidc);
    nonce = flow.nonce;
    const outcome = await oidc.finish(new URLSearchParams({ code: 'abc', state: flow.state }), flow.state);
    // The ID token comes along: signing out at the provider sends it back as the hint.
    expect(outcome).toEqual({ ok: true, subject: 'ann', role: 'viewer', idToken: 'id' });
    const sent = endpoint.seen[0] as URLSearchParams;
    expect(sent.get('code')).toBe('abc');
    expect(
      createHash('sha256')
        .update(sent.get('code_verifier') ?? '')
        .digest('base64url'),
    ).toBe(flow.challenge);
    // A flow is used once.
    expect(await oidc.finish(new URLSearchParams({ code: 'abc', state: flow.state }), flow.state)).toMatchObject({ ok: false });
  });

  it('refuses a state this browser did not start, and an ID token without the nonce', async () => {
    const endpoint = await tokenEndpoint({ status: 200, body: { access_token: 'good-access', id_token: 'id' } });
    const oidc = createOidcSignIn(options(endpoint.url, { verifyIdToken: async () => idToken('another') }));
    const flow = await started(oidc);
    expect(await oidc.finish(new URLSearchParams({ code: 'abc', state: flow.state }), 'other-cookie')).toEqual({
      ok: false,
      message: expect.stringMatching(/the state does not match/) as unknown,
    });
    const next = await started(oidc);
    expect(await oidc.finish(new URLSearchParams({ code: 'abc', state: next.state }), next.state)).toEqual({
      ok: false,
      message: expect.stringMatching(/nonce/) as unknown,
    });
  });

  it('says so when the provider cannot be reached, refuses the code, or the token is refused', async () => {
    const down = createOidcSignIn(
      options('unused', {
        discover: async () => {
          throw new Error('connect ECONNREFUSED');
        },
      }),
    );
    expect(await down.start()).toEqual({
      ok: false,
      message: expect.stringMatching(/cannot be reached \(connect ECONNREFUSED\)/) as unknown,
    });

    const refusing = await tokenEndpoint({ status: 400, body: { error: 'invalid_grant', error_description: 'code expired' } });
    const oidc = createOidcSignIn(options(refusing.url));
    const flow = await started(oidc);
    expect(await oidc.finish(new URLSearchParams({ code: 'abc', state: flow.state }), flow.state)).toEqual({
      ok: false,
      message: expect.stringMatching(/refused the sign-in code \(invalid_grant: code expired\)/) as unknown,
    });
    const denied = await started(oidc);
    const query = new URLSearchParams({ error: 'access_denied', error_description: 'no', state: denied.state });
    expect(await oidc.finish(query, denied.state)).toEqual({
      ok: false,
      message: expect.stringMatching(/did not sign you in \(access_denied/) as unknown,
    });
  });

  it('passes on the refusal of the access token', async () => {
    const endpoint = await tokenEndpoint({ status: 200, body: { access_token: 'bad-access', id_token: 'id' } });
    let nonce = '';
    const oidc = createOidcSignIn(options(endpoint.url, { verifyIdToken: async () => idToken(nonce) }));
    const flow = await started(oidc);
    nonce = flow.nonce;
    expect(await oidc.finish(new URLSearchParams({ code: 'abc', state: flow.state }), flow.state)).toEqual({
      ok: false,
      message: 'refused',
    });
  });

  it('sends a sign-out to the end_session_endpoint with the ID token as hint and the way back, or says why it cannot', async () => {
    const metadata = (endSessionEndpoint: string | undefined) => async (issuer: string) => ({
      issuer,
      jwksUri: undefined,
      introspectionEndpoint: undefined,
      authorizationEndpoint: 'https://id.example/authorize',
      tokenEndpoint: 'https://id.example/token',
      endSessionEndpoint,
    });
    const ending = createOidcSignIn(options('unused', { discover: metadata('https://id.example/session/end?ui=plain') }));
    const outcome = await ending.signOut('the-id-token');
    if (!('location' in outcome)) throw new Error(outcome.why);
    const url = new URL(outcome.location);
    expect(`${url.origin}${url.pathname}`).toBe('https://id.example/session/end');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ui: 'plain',
      id_token_hint: 'the-id-token',
      client_id: 'console',
      post_logout_redirect_uri: 'http://127.0.0.1:3100/console/login',
    });

    const without = createOidcSignIn(options('unused', { discover: metadata(undefined) }));
    expect(await without.signOut('the-id-token')).toEqual({
      why: 'the identity provider https://id.example publishes no end_session_endpoint',
    });
    const down = createOidcSignIn(
      options('unused', {
        discover: async () => {
          throw new Error('connect ECONNREFUSED');
        },
      }),
    );
    expect(await down.signOut('the-id-token')).toEqual({
      why: expect.stringMatching(/cannot be reached \(connect ECONNREFUSED\)/) as unknown,
    });
  });
});
