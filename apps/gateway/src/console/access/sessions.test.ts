import { describe, expect, it } from 'vitest';
import { createSessionStore } from './sessions.js';

describe('the console session store', () => {
  it('opens sessions with random ids and CSRF tokens, and forgets them when they expire', () => {
    let now = 1000;
    const store = createSessionStore({ ttlMs: 60_000, now: () => now });
    const first = store.open('alice', 'viewer');
    const second = store.open('alice', 'viewer');
    expect(first.id).toMatch(/^[\w-]{43}$/);
    expect(first.csrf).not.toBe(first.id);
    expect(second.id).not.toBe(first.id);
    expect(store.get(first.id)).toBe(first);
    now += 60_000;
    expect(store.get(first.id)).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it('ends a session when the access token it was opened with expires, if that is sooner', () => {
    let now = 1000;
    const store = createSessionStore({ ttlMs: 60_000, now: () => now });
    const session = store.open('bob', 'viewer', now + 5000);
    expect(session.expiresAt).toBe(6000);
    expect(store.open('bob', 'viewer', now + 600_000).expiresAt).toBe(61_000);
    now += 5000;
    expect(store.get(session.id)).toBeUndefined();
  });

  it('closes a session (sign-out) and knows no id it did not give', () => {
    const store = createSessionStore({ ttlMs: 60_000 });
    const session = store.open('server-token', 'admin');
    store.close(session.id);
    expect(store.get(session.id)).toBeUndefined();
    expect(store.get('made-up')).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
  });

  it('keeps at most maxSessions, dropping the oldest', () => {
    const store = createSessionStore({ ttlMs: 60_000, maxSessions: 2 });
    const oldest = store.open('a', 'viewer');
    store.open('b', 'viewer');
    store.open('c', 'viewer');
    expect(store.size).toBe(2);
    expect(store.get(oldest.id)).toBeUndefined();
  });
});
