/**
 * The console's sign-ins, in memory: a random session id (the HttpOnly cookie's value) for each, with
 * who signed in, their role, the synchronizer CSRF token every state-changing request must carry, and
 * when it ends. A restart of the gateway signs everyone out.
 */
import { randomBytes } from 'node:crypto';

export type Role = 'viewer' | 'admin';

export interface ConsoleSession {
  /** 256 random bits: the cookie's value. */
  readonly id: string;
  /** 256 random bits, bound to this session: sent back in a form field or the `X-CSRF-Token` header. */
  readonly csrf: string;
  /** Who signed in (`server-token` for the static token). */
  readonly subject: string;
  readonly role: Role;
  /** Epoch milliseconds after which the session is gone. */
  readonly expiresAt: number;
  /** The identity provider's ID token of a sign-in through it (kept here only): signing out sends it back as the hint. */
  readonly idToken?: string;
}

export interface SessionStore {
  /** A new session; it ends after the store's `ttlMs`, or at `until` (epoch ms: the access token's expiry) if sooner. */
  open(subject: string, role: Role, until?: number, idToken?: string): ConsoleSession;
  /** The live session with this id; an expired one is forgotten and `undefined` returned. */
  get(id: string | undefined): ConsoleSession | undefined;
  close(id: string): void;
  readonly size: number;
}

export interface SessionStoreOptions {
  readonly ttlMs: number;
  /** Sessions kept at most; the oldest is dropped beyond it (a flood of sign-ins cannot exhaust memory). */
  readonly maxSessions?: number;
  readonly now?: () => number;
}

export const randomToken = (): string => randomBytes(32).toString('base64url');

export const createSessionStore = ({ ttlMs, maxSessions = 1000, now = Date.now }: SessionStoreOptions): SessionStore => {
  // Insertion order is opening order: the first entry is the oldest.
  const sessions = new Map<string, ConsoleSession>();
  const sweep = (): void => {
    const time = now();
    for (const [id, session] of sessions) if (session.expiresAt <= time) sessions.delete(id);
    while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value as string);
  };
  return {
    open: (subject, role, until, idToken) => {
      sweep();
      const expiresAt = Math.min(now() + ttlMs, until ?? Number.POSITIVE_INFINITY);
      const session = { id: randomToken(), csrf: randomToken(), subject, role, expiresAt, ...(idToken === undefined ? {} : { idToken }) };
      sessions.set(session.id, session);
      return session;
    },
    get: (id) => {
      if (id === undefined) return undefined;
      const session = sessions.get(id);
      if (session === undefined || session.expiresAt > now()) return session;
      sessions.delete(id);
      return undefined;
    },
    close: (id) => void sessions.delete(id),
    get size() {
      return sessions.size;
    },
  };
};
