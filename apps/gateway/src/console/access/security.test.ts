import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cookie, cookiesOf, sameSecret, securityHeaders } from './security.js';

describe('the console security headers', () => {
  it("allow only the console's own files: no inline script or style, no framing", () => {
    const directives = contentSecurityPolicy.split('; ');
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(securityHeaders()).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
  });
});

describe('the session cookie', () => {
  it('is HttpOnly and SameSite=Strict, Secure over https, and cleared with Max-Age=0', () => {
    expect(cookie('c', 'v', { path: '/console', secure: false, maxAgeSeconds: 60 })).toBe(
      'c=v; Path=/console; Max-Age=60; HttpOnly; SameSite=Strict',
    );
    expect(cookie('c', 'v', { path: '/console', secure: true, maxAgeSeconds: 60 })).toMatch(/; Secure$/);
    expect(cookie('c', '', { path: '/console', secure: false, maxAgeSeconds: 0 })).toContain('Max-Age=0');
  });

  it('is read from the Cookie header, the first of a repeated name', () => {
    const cookies = cookiesOf({ headers: { cookie: 'a=1; promptyard_console=abc=; a=2; junk' } });
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('promptyard_console')).toBe('abc=');
  });
});

describe('sameSecret', () => {
  it('accepts the same value and refuses another, an empty or a missing one', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abd', 'abc')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret(undefined, 'abc')).toBe(false);
    expect(sameSecret('abc', undefined)).toBe(false);
  });
});
