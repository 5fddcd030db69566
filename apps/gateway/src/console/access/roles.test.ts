import type { Authenticator, AuthOutcome, Identity } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { roleOf } from './roles.js';
import { createSignIn } from './sign-in.js';

const caller = (fields: Partial<Identity>): Identity => ({
  subject: 'someone',
  clientId: undefined,
  scopes: [],
  groups: [],
  claims: {},
  ...fields,
});

describe('roleOf', () => {
  it('makes the static token an admin, and every other caller a viewer without admin rules', () => {
    expect(roleOf(caller({ subject: 'server-token' }), true, [])).toBe('admin');
    expect(roleOf(caller({}), false, [])).toBe('viewer');
  });

  it('makes a caller an admin when a named [[policy]] rule applies to it, every condition holding', () => {
    const admins = [{ groups: ['ops*'], scopes: ['admin'] }, { subjects: ['alice@example.com'] }];
    expect(roleOf(caller({ groups: ['ops-eu'], scopes: ['admin'] }), false, admins)).toBe('admin');
    expect(roleOf(caller({ groups: ['ops-eu'] }), false, admins)).toBe('viewer');
    expect(roleOf(caller({ subject: 'alice@example.com' }), false, admins)).toBe('admin');
    expect(roleOf(caller({ clientId: 'ci' }), false, [{ clients: ['ci'] }])).toBe('admin');
  });
});

describe('createSignIn', () => {
  const authenticator: Authenticator = {
    authorizationServers: ['https://idp.example'],
    requiredScopes: [],
    audience: undefined,
    authenticate: async (authorization): Promise<AuthOutcome> =>
      authorization === 'Bearer good'
        ? { ok: true, identity: caller({ subject: 'bob', groups: ['ops'] }), expiresAt: 2_000_000_000 }
        : { ok: false, status: 401, description: 'the token has expired' },
  };

  it('signs the static token in as an admin, and refuses any other token without [auth]', async () => {
    const signIn = createSignIn({ authToken: 'secret', authenticator: undefined, resource: () => '', admins: [] });
    expect(await signIn(' secret ')).toEqual({ ok: true, subject: 'server-token', role: 'admin' });
    expect(await signIn('guess')).toMatchObject({ ok: false, message: expect.stringContaining('[transport] auth_token') });
    expect(await signIn('')).toEqual({ ok: false, message: 'Enter a token.' });
  });

  it('checks any other token as the endpoint does with [auth], the role from the admin rules', async () => {
    const signIn = createSignIn({ authToken: 'secret', authenticator, resource: () => 'http://gw/mcp', admins: [{ groups: ['ops'] }] });
    expect(await signIn('good')).toEqual({ ok: true, subject: 'bob', role: 'admin', expiresAt: 2_000_000_000_000 });
    expect(await signIn('stale')).toEqual({ ok: false, message: 'The token was refused: the token has expired.' });
    const viewers = createSignIn({ authToken: undefined, authenticator, resource: () => 'http://gw/mcp', admins: [] });
    expect(await viewers('good')).toMatchObject({ role: 'viewer' });
  });
});
