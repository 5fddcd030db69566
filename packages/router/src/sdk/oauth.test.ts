import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStore } from '../upstream-oauth/oauth-store.js';
import { createGatewayAuth } from './oauth.js';

/** A resource and its authorization server in one: metadata, and a token endpoint whose answer a test sets. */
let server: Server;
let origin = '';
let tokenAnswer: { status: number; body: Record<string, unknown> } = { status: 200, body: {} };
let tokenRequests = 0;
let folder = '';

beforeEach(async () => {
  tokenRequests = 0;
  folder = await mkdtemp(join(tmpdir(), 'gateway-auth-'));
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (path?.startsWith('/.well-known/oauth-protected-resource'))
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (path === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/auth`,
        token_endpoint: `${origin}/token`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === '/token') {
      tokenRequests++;
      req.resume();
      req.on('end', () => json(tokenAnswer.status, tokenAnswer.body));
      return;
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(folder, { recursive: true, force: true });
});

const loggedIn = (expiresIn: number, ageMs = 0): OAuthStore => {
  const store = new OAuthStore('docs', `${origin}/mcp`, folder);
  store.update((record) => ({
    ...record,
    client: { client_id: 'gw', redirect_uris: ['http://127.0.0.1:1/callback'], issuer: origin },
    tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r1', expires_in: expiresIn, issuer: origin },
    obtainedAt: Date.now() - ageMs,
  }));
  return store;
};

const unauthorized = (): Parameters<NonNullable<ReturnType<typeof createGatewayAuth>['onUnauthorized']>>[0] =>
  ({ response: new Response(null, { status: 401 }), serverUrl: new URL(`${origin}/mcp`), fetchFn: fetch }) as never;

describe('createGatewayAuth', () => {
  it('refreshes once for many 401s at a time: a rotated refresh token is never used twice', async () => {
    const store = loggedIn(3600);
    tokenAnswer = { status: 200, body: { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 } };
    const gatewayAuth = createGatewayAuth(
      { server: 'docs', settings: { grant: 'authorization_code', scopes: [] }, store },
      `${origin}/mcp`,
      { needsLogin: () => {}, warn: () => {} },
    );
    try {
      expect(await gatewayAuth.token()).toBe('old');
      await Promise.all([
        gatewayAuth.onUnauthorized?.(unauthorized()),
        gatewayAuth.onUnauthorized?.(unauthorized()),
        gatewayAuth.onUnauthorized?.(unauthorized()),
      ]);
      expect(tokenRequests).toBe(1);
      expect(await gatewayAuth.token()).toBe('new');
      expect(store.read().tokens?.['refresh_token']).toBe('r2');
    } finally {
      gatewayAuth.close();
    }
  });

  it('does not hammer an authorization server that is down, keeps the token it has and asks no login', async () => {
    // About to expire (a quarter of its lifetime left).
    const store = loggedIn(1, 900);
    tokenAnswer = { status: 502, body: {} };
    const reports: string[] = [];
    const gatewayAuth = createGatewayAuth(
      { server: 'docs', settings: { grant: 'authorization_code', scopes: [] }, store },
      `${origin}/mcp`,
      { needsLogin: (error) => reports.push(error.message), warn: () => {} },
    );
    try {
      // About to expire: the first use tries to refresh; later uses within the back-off do not.
      expect(await gatewayAuth.token()).toBe('old');
      const tried = tokenRequests;
      expect(tried).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 5; i++) expect(await gatewayAuth.token()).toBe('old');
      expect(tokenRequests).toBe(tried);
      await expect(gatewayAuth.onUnauthorized?.(unauthorized())).rejects.toThrow(/could not refresh the OAuth token \(HTTP 502/);
      expect(reports).toEqual([]);
      expect(store.read().tokens?.['refresh_token']).toBe('r1');
    } finally {
      gatewayAuth.close();
    }
  });

  it('turns a refused refresh into one needs-login report and forgets the dead tokens', async () => {
    const store = loggedIn(3600);
    tokenAnswer = { status: 400, body: { error: 'invalid_grant', error_description: 'grant revoked' } };
    const reports: string[] = [];
    const gatewayAuth = createGatewayAuth(
      { server: 'docs', settings: { grant: 'authorization_code', scopes: [] }, store },
      `${origin}/mcp`,
      { needsLogin: (error) => reports.push(error.message), warn: () => {} },
    );
    try {
      await expect(gatewayAuth.onUnauthorized?.(unauthorized())).rejects.toThrow(
        'server "docs" needs a login: run promptyard-gateway login docs',
      );
      await expect(gatewayAuth.onUnauthorized?.(unauthorized())).rejects.toThrow(/needs a login/);
      expect(reports).toHaveLength(1);
      expect(store.read().tokens).toBeUndefined();
    } finally {
      gatewayAuth.close();
    }
  });
});
