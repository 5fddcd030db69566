import { createLogger } from '@promptyard/core';
import type { AuthOutcome, LogRecord } from '@promptyard/core';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { createAuthenticator } from './authenticator.js';
import type { AuthenticatorOptions } from './authenticator.js';
import { authSection, resolveAuthSettings } from './config.js';
import { resolveConfig } from '@promptyard/core';

const resource = 'http://127.0.0.1:9/mcp';
let issuer: TestIssuer;
let other: TestIssuer;
const logs: LogRecord[] = [];
const logger = createLogger({ level: 'debug', write: () => {} });
logger.subscribe((record) => logs.push(record));

const authenticator = (section: Record<string, unknown> = {}, options: Partial<AuthenticatorOptions> = {}) => {
  const settings = resolveAuthSettings(
    resolveConfig({ auth: authSection }, { auth: { issuer: issuer.issuer, required_scopes: ['mcp'], ...section } }, {}).auth,
  );
  if (settings === undefined) throw new Error('no settings');
  return createAuthenticator(settings, { logger, jwksCooldownMs: 0, retryAfterMs: 0, ...options });
};

const refusal = (outcome: AuthOutcome) =>
  outcome.ok ? { ok: true } : { status: outcome.status, error: outcome.error, description: outcome.description };
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => [resource], groups: ['design'] });
  other = await startTestIssuer({ resources: () => [resource] });
});
afterAll(async () => {
  await issuer.close();
  await other.close();
});

describe('createAuthenticator against a real OpenID provider', () => {
  it("accepts the provider's JWT access token for this resource and names the caller", async () => {
    const outcome = await authenticator().authenticate(`Bearer ${await issuer.token()}`, resource);
    expect(outcome).toMatchObject({ ok: true, identity: { subject: 'machine', clientId: 'machine', scopes: ['mcp'], groups: ['design'] } });
    expect(outcome.ok && outcome.expiresAt).toBeGreaterThan(now());
  });

  it('asks for a token when none is sent, and refuses malformed headers', async () => {
    const auth = authenticator();
    expect(refusal(await auth.authenticate(undefined, resource))).toEqual({
      status: 401,
      error: undefined,
      description: expect.stringMatching(/Authorization: Bearer/),
    });
    for (const header of ['Basic bWU6cHc=', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearer tökén', 'Bearer\ttoken', 'Token abc']) {
      expect(refusal(await auth.authenticate(header, resource)), header).toMatchObject({ status: 401, error: 'invalid_request' });
    }
  });

  it('refuses an oversized token unread, at once', async () => {
    const started = performance.now();
    const outcome = await authenticator().authenticate(`Bearer ${'a'.repeat(1024 * 1024)}`, resource);
    expect(refusal(outcome)).toMatchObject({ status: 401, error: 'invalid_token', description: 'the token is longer than 8192 bytes' });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('refuses tokens for another audience, expired, badly signed, unsigned, HS256 or from another issuer', async () => {
    const auth = authenticator();
    const good = await issuer.token();
    const [head, body, signature] = good.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    const hs256 = await new SignJWT({ sub: 'mallory', scope: 'mcp', iss: issuer.issuer, aud: resource, exp: now() + 300 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const cases: [string, string, RegExp][] = [
      ['another audience', await issuer.token({ resource: 'https://elsewhere.example/mcp' }), /"aud" claim/],
      ['expired', await issuer.sign({ sub: 'ada', scope: 'mcp', iss: issuer.issuer, aud: resource, exp: now() - 120 }), /expired/],
      ['bad signature', flipped, /signature is not valid/],
      ['alg none', unsigned, /algorithm that is not accepted|not a valid signed JWT/],
      ['HS256', hs256, /algorithm that is not accepted/],
      ['another issuer (its key)', await other.token(), /key the issuer does not publish/],
      [
        'another issuer (iss)',
        await issuer.sign({ sub: 'ada', scope: 'mcp', iss: other.issuer, aud: resource, exp: now() + 300 }),
        /"iss" claim/,
      ],
      ['no exp', await issuer.sign({ sub: 'ada', scope: 'mcp', iss: issuer.issuer, aud: resource }), /"exp" claim/],
    ];
    for (const [what, token, description] of cases) {
      const outcome = refusal(await auth.authenticate(`Bearer ${token}`, resource));
      expect(outcome, what).toMatchObject({ status: 401, error: 'invalid_token' });
      expect((outcome as { description: string }).description, what).toMatch(description);
    }
    // Within the allowed skew, a just-expired token still passes.
    const late = await issuer.sign({ sub: 'ada', scope: 'mcp', iss: issuer.issuer, aud: resource, exp: now() - 5 });
    expect((await auth.authenticate(`Bearer ${late}`, resource)).ok).toBe(true);
  });

  it('answers 403 insufficient_scope when a scope is missing', async () => {
    const token = await issuer.token({ clientId: issuer.narrowClientId, scope: 'profile' });
    expect(refusal(await authenticator().authenticate(`Bearer ${token}`, resource))).toEqual({
      status: 403,
      error: 'insufficient_scope',
      description: 'the token lacks the scope mcp',
    });
  });

  it('picks up a rotated signing key without a restart', async () => {
    const auth = authenticator();
    expect((await auth.authenticate(`Bearer ${await issuer.token()}`, resource)).ok).toBe(true);
    await issuer.rotateKeys();
    const outcome = await auth.authenticate(`Bearer ${await issuer.token()}`, resource);
    expect(outcome).toMatchObject({ ok: true, identity: { subject: 'machine' } });
  });

  it('introspects opaque tokens (RFC 7662) with its client credentials', async () => {
    const auth = authenticator({ client_id: issuer.clientId, client_secret: issuer.clientSecret });
    const opaque = await issuer.token({ format: 'opaque' });
    expect(opaque.split('.')).toHaveLength(1);
    expect(await auth.authenticate(`Bearer ${opaque}`, resource)).toMatchObject({
      ok: true,
      identity: { subject: 'machine', scopes: ['mcp'] },
    });
    expect(refusal(await auth.authenticate('Bearer not-a-real-token', resource))).toMatchObject({
      status: 401,
      description: 'the token is not active',
    });
    expect(refusal(await authenticator().authenticate(`Bearer ${opaque}`, resource))).toMatchObject({
      status: 401,
      description: expect.stringMatching(/not a JWT/),
    });
  });

  it('fails closed and fast while the key set is down or slow, and recovers', async () => {
    for (const mode of ['down', 'slow'] as const) {
      const auth = authenticator({ timeout_ms: 300 });
      issuer.setJwks(mode);
      const started = performance.now();
      expect(refusal(await auth.authenticate(`Bearer ${await issuer.token()}`, resource)), mode).toMatchObject({
        status: 503,
        error: 'temporarily_unavailable',
      });
      expect(performance.now() - started, mode).toBeLessThan(1500);
      issuer.setJwks('ok');
      expect((await auth.authenticate(`Bearer ${await issuer.token()}`, resource)).ok, mode).toBe(true);
    }
  });

  it('logs the subject and client of refused tokens, never a token', async () => {
    const token = await issuer.sign({
      sub: 'ada',
      client_id: 'cursor',
      scope: 'mcp',
      iss: issuer.issuer,
      aud: 'https://elsewhere.example',
      exp: now() + 300,
    });
    await authenticator().authenticate(`Bearer ${token}`, resource);
    const refused = logs.filter((record) => record.message === 'token refused').at(-1);
    expect(refused?.fields).toMatchObject({ subject: 'ada', client: 'cursor' });
    const everything = JSON.stringify(logs);
    expect(everything).not.toContain(token.split('.')[2]);
    expect(everything).not.toContain(token.split('.')[1]);
  });
});
