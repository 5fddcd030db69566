import { resolveConfig } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { authSection, resolveAuthSettings } from './config.js';

const settingsOf = (source: Record<string, unknown>, env: Record<string, string> = {}) =>
  resolveAuthSettings(resolveConfig({ auth: authSection }, { auth: source }, { env }).auth);

describe('[auth]', () => {
  it('is off without an issuer', () => {
    expect(settingsOf({})).toBeUndefined();
  });

  it('reads the section and its PROMPTYARD_AUTH_* overrides', () => {
    const settings = settingsOf(
      { issuer: 'https://login.example.com/realms/team', required_scopes: ['mcp'], groups_claim: 'realm_access.roles' },
      {
        PROMPTYARD_AUTH_AUDIENCE: 'https://mcp.example.com/mcp',
        PROMPTYARD_AUTH_CLIENT_ID: 'promptyard',
        PROMPTYARD_AUTH_CLIENT_SECRET: 's3cret',
      },
    );
    expect(settings).toMatchObject({
      issuer: 'https://login.example.com/realms/team',
      audience: 'https://mcp.example.com/mcp',
      requiredScopes: ['mcp'],
      groupsClaim: 'realm_access.roles',
      clockSkewSeconds: 30,
      introspection: { url: undefined, clientId: 'promptyard', clientSecret: 's3cret' },
    });
    expect(settings?.algorithms).not.toContain('HS256');
  });

  it('allows an http issuer only on a loopback host', () => {
    expect(settingsOf({ issuer: 'http://127.0.0.1:8080' })?.issuer).toBe('http://127.0.0.1:8080');
    expect(settingsOf({ issuer: 'http://localhost:8080/realms/dev' })?.issuer).toBe('http://localhost:8080/realms/dev');
    expect(() => settingsOf({ issuer: 'http://login.example.com' })).toThrow(
      /\[auth\] issuer must use https \(http is allowed only on a loopback host\)/,
    );
    expect(() => settingsOf({ issuer: 'login.example.com' })).toThrow(/must be an absolute URL/);
  });

  it('refuses none and HS* algorithms, naming the ones it takes', () => {
    expect(() => settingsOf({ issuer: 'https://login.example.com', algorithms: ['RS256', 'none', 'HS256'] })).toThrow(
      /must not include none, HS256: .* only asymmetric algorithms \(RS256/,
    );
    expect(() => settingsOf({ issuer: 'https://login.example.com', algorithms: ['XS1'] })).toThrow(/unknown XS1/);
  });

  it('asks for what introspection needs, and for an issuer when other keys are set', () => {
    expect(() => settingsOf({ issuer: 'https://login.example.com', introspection_url: 'https://login.example.com/introspect' })).toThrow(
      /introspection_url needs client_id and client_secret/,
    );
    expect(() => settingsOf({ issuer: 'https://login.example.com', client_id: 'x' })).toThrow(/client_id needs client_secret/);
    expect(() => settingsOf({ audience: 'https://mcp.example.com/mcp' })).toThrow(
      /\[auth\] audience set without an issuer: set \[auth\] issuer/,
    );
  });
});
