/**
 * What every console answer carries and checks: the strict Content-Security-Policy and framing
 * headers, the session cookie (HttpOnly, SameSite=Strict, Secure over https), and constant-time
 * comparison of the CSRF token a state-changing request sends back.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Only the console's own files: no inline script or style, no frames, forms posting only here. */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** Headers of every console answer; pages and events are never cached (they show live state to one session). */
export const securityHeaders = (cacheable = false): Record<string, string> => ({
  'content-security-policy': contentSecurityPolicy,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts, which the Origin check refuses.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': cacheable ? 'public, max-age=3600' : 'no-store',
});

export const sessionCookieName = 'promptyard_console';
export const loginCookieName = 'promptyard_console_login';
export const flowCookieName = 'promptyard_console_flow';

export interface CookieOptions {
  readonly path: string;
  /** Served over https (`[transport] public_url` is https): the cookie is `Secure`. */
  readonly secure: boolean;
  /** Seconds; 0 clears the cookie. */
  readonly maxAgeSeconds: number;
  /** `Lax` only for the sign-in flow's cookie, which must come back with the identity provider's cross-site redirect. */
  readonly sameSite?: 'Strict' | 'Lax';
}

/** A `Set-Cookie` value no script can read and no other site's request carries. */
export const cookie = (name: string, value: string, { path, secure, maxAgeSeconds, sameSite = 'Strict' }: CookieOptions): string =>
  `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`;

/** The request's cookies by name (the first of a repeated name). */
export const cookiesOf = (req: Pick<IncomingMessage, 'headers'>): ReadonlyMap<string, string> => {
  const found = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    if (!found.has(name)) found.set(name, part.slice(equals + 1).trim());
  }
  return found;
};

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Whether `given` is `expected`, in time that does not depend on where they differ; an empty or missing value never is. */
export const sameSecret = (given: string | undefined, expected: string | undefined): boolean =>
  given !== undefined && expected !== undefined && given !== '' && expected !== '' && timingSafeEqual(digest(given), digest(expected));
