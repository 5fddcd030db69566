import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { discoverIssuer, metadataUrls } from './discovery.js';

describe('metadataUrls', () => {
  it('tries RFC 8414 with the path inserted, then OpenID Connect inserted and appended', () => {
    expect(metadataUrls('https://login.example.com/realms/team')).toEqual([
      'https://login.example.com/.well-known/oauth-authorization-server/realms/team',
      'https://login.example.com/.well-known/openid-configuration/realms/team',
      'https://login.example.com/realms/team/.well-known/openid-configuration',
    ]);
    expect(metadataUrls('https://login.example.com')).toEqual([
      'https://login.example.com/.well-known/oauth-authorization-server',
      'https://login.example.com/.well-known/openid-configuration',
    ]);
  });
});

/** An issuer that answers only OpenID discovery, appended, as Keycloak does, with what `document` says. */
const fakeIssuer = async (
  document: (issuer: string) => Record<string, unknown>,
): Promise<{ issuer: string; seen: string[]; close(): Promise<void> }> => {
  const seen: string[] = [];
  let issuer = '';
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/realms/team/.well-known/openid-configuration')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(issuer)));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/team`;
  return { issuer, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

describe('discoverIssuer', () => {
  it('falls back to OpenID discovery and reads the key set, introspection and end-session endpoints', async () => {
    const fake = await fakeIssuer((issuer) => ({
      issuer,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      introspection_endpoint: `${issuer}/protocol/openid-connect/token/introspect`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
    }));
    try {
      expect(await discoverIssuer(fake.issuer, 1000)).toEqual({
        issuer: fake.issuer,
        jwksUri: `${fake.issuer}/protocol/openid-connect/certs`,
        introspectionEndpoint: `${fake.issuer}/protocol/openid-connect/token/introspect`,
        authorizationEndpoint: undefined,
        tokenEndpoint: undefined,
        endSessionEndpoint: `${fake.issuer}/protocol/openid-connect/logout`,
      });
      expect(fake.seen).toEqual([
        '/.well-known/oauth-authorization-server/realms/team',
        '/.well-known/openid-configuration/realms/team',
        '/realms/team/.well-known/openid-configuration',
      ]);
    } finally {
      await fake.close();
    }
  });

  it('refuses metadata that names another issuer, or a key set over plain http elsewhere', async () => {
    const mixUp = await fakeIssuer(() => ({ issuer: 'https://attacker.example', jwks_uri: 'https://attacker.example/jwks' }));
    const insecure = await fakeIssuer((issuer) => ({ issuer, jwks_uri: 'http://keys.example.com/jwks' }));
    try {
      await expect(discoverIssuer(mixUp.issuer, 1000)).rejects.toThrow(
        /names issuer "https:\/\/attacker.example", not .*set \[auth\] issuer to exactly/,
      );
      await expect(discoverIssuer(insecure.issuer, 1000)).rejects.toThrow(/the issuer's jwks_uri must use https/);
    } finally {
      await Promise.all([mixUp.close(), insecure.close()]);
    }
  });

  it('says where it looked when nothing answers', async () => {
    const fake = await fakeIssuer(() => ({}));
    await fake.close();
    await expect(discoverIssuer(fake.issuer, 500)).rejects.toThrow(
      /no metadata found for issuer .*oauth-authorization-server.*fetch failed/,
    );
  });
});
