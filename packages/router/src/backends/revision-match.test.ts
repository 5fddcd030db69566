import { describe, expect, it } from 'vitest';
import { createLogger } from '@promptyard/core';
import type { LogRecord } from '@promptyard/core';
import type { ClientPeer } from '@promptyard/mcp';
import type { BackendConfig } from '../config-backend.js';
import type { UpstreamConnection, UpstreamPeer } from '../sdk/upstream-types.js';
import { LegacySession, matchesLegacySession } from './revision-match.js';

const http = { transport: 'streamable-http', protocol: 'auto' } as const;
const client2025: ClientPeer = { label: 'session', session: {}, revision: '2025-11-25' };
const client2026: ClientPeer = { label: 'request (2026-07-28)', session: {}, revision: '2026-07-28' };

describe('matchesLegacySession: the one rule', () => {
  it('sends a 2025-11-25 client to the session of a Streamable HTTP server reached at 2026-07-28 by negotiation', () => {
    expect(matchesLegacySession(http, { era: 'modern' }, client2025)).toBe(true);
  });

  it('keeps everything else on the primary connection', () => {
    expect(matchesLegacySession(http, { era: 'modern' }, client2026)).toBe(false);
    expect(matchesLegacySession(http, { era: 'modern' }, undefined)).toBe(false);
    expect(matchesLegacySession(http, { era: 'modern' }, { revision: undefined })).toBe(false);
    // A server reached at 2025-11-25 already speaks it; stdio and SSE are unchanged; a pin is the user's word.
    expect(matchesLegacySession(http, { era: 'legacy' }, client2025)).toBe(false);
    expect(matchesLegacySession({ ...http, transport: 'stdio' }, { era: 'modern' }, client2025)).toBe(false);
    expect(matchesLegacySession({ ...http, transport: 'sse' }, { era: 'modern' }, client2025)).toBe(false);
    expect(matchesLegacySession({ ...http, protocol: '2026-07-28' }, { era: 'modern' }, client2025)).toBe(false);
    // One token, one holder: a server the gateway logs in to keeps one connection.
    const oauth = { grant: 'authorization_code', scopes: [] } as const;
    expect(matchesLegacySession({ ...http, oauth }, { era: 'modern' }, client2025)).toBe(false);
  });
});

/** A connection as far as the session uses it: its era, and whether it was closed. */
const connection = (era: 'legacy' | 'modern'): UpstreamConnection & { closed: boolean } => {
  const made = {
    era,
    closed: false,
    close: async () => {
      made.closed = true;
    },
  };
  return made as unknown as UpstreamConnection & { closed: boolean };
};

/** A session whose connects are answered, in order, by `outcomes` ('ok', 'fail', or a promise to settle later). */
const sessionWith = (outcomes: ('ok' | 'fail' | Promise<UpstreamConnection>)[]) => {
  const records: LogRecord[] = [];
  const opened: (UpstreamConnection & { closed: boolean })[] = [];
  const peers: UpstreamPeer[] = [];
  let clock = 1_000;
  const heard: string[] = [];
  const logger = createLogger({ level: 'debug', write: () => {} });
  logger.subscribe((record) => records.push(record));
  const session = new LegacySession({
    id: 'everything',
    logger,
    restartInitialMs: 1000,
    restartMaxMs: 4000,
    config: () => http as unknown as BackendConfig,
    connect: async (peer) => {
      peers.push(peer);
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome === 'fail') throw new Error('initialize: 404 Not Found');
      if (outcome !== 'ok') return outcome;
      const made = connection('legacy');
      opened.push(made);
      return made;
    },
    peer: () => ({
      sampling: async () => ({}),
      elicitation: async () => ({}),
      roots: async () => ({}),
      log: (params) => heard.push(`log ${String(params.data)}`),
      resourceUpdated: (uri) => heard.push(`updated ${uri}`),
      stderr: () => {},
      warn: () => {},
      oversized: () => {},
      deviated: () => {},
    }),
    now: () => clock,
  });
  return { session, records, opened, peers, heard, advance: (ms: number) => (clock += ms) };
};

describe('LegacySession', () => {
  const primary = connection('modern');

  it('is opened on the first 2025-11-25 request and shared by the next ones; 2026-07-28 requests never open it', async () => {
    const { session, opened } = sessionWith([]);
    expect(await session.pick(primary, client2026)).toBe(primary);
    expect(opened).toHaveLength(0);
    expect(session.state()).toBeUndefined();
    const [first, second] = await Promise.all([session.pick(primary, client2025), session.pick(primary, client2025)]);
    expect(opened).toHaveLength(1);
    expect(first).toBe(opened[0]);
    expect(second).toBe(opened[0]);
    expect(await session.pick(primary, client2025)).toBe(opened[0]);
    expect(session.state()).toBe('open');
  });

  it('waits for nothing on a path that cannot: the open session, the primary, or nothing while it is still to be opened', async () => {
    const { session, opened } = sessionWith([]);
    expect(session.pickNow(primary, client2025)).toBeUndefined();
    expect(session.pickNow(primary, client2026)).toBe(primary);
    expect(session.pickNow(undefined, client2026)).toBeUndefined();
    await session.pick(primary, client2025);
    expect(session.pickNow(primary, client2025)).toBe(opened[0]);
  });

  it('falls back to the primary when it cannot be opened, says so once, and tries again after a backoff', async () => {
    const { session, records, opened, advance } = sessionWith(['fail', 'fail']);
    expect(await session.pick(primary, client2025)).toBe(primary);
    expect(session.state()).toBe('unavailable');
    // Within the backoff no attempt is made.
    expect(await session.pick(primary, client2025)).toBe(primary);
    advance(1000);
    expect(await session.pick(primary, client2025)).toBe(primary);
    const warnings = records.filter((record) => record.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/could not open a 2025-11-25 session to server "everything" \(initialize: 404 Not Found\)/);
    // The backoff doubled: 1 s is not enough now, 2 s is.
    advance(1000);
    expect(await session.pick(primary, client2025)).toBe(primary);
    advance(1000);
    expect(await session.pick(primary, client2025)).toBe(opened[0]);
    expect(session.state()).toBe('open');
    expect(records.some((record) => record.level === 'info' && /2025-11-25 clients again/.test(record.message))).toBe(true);
  });

  it('lets a closed session go: the next 2025-11-25 request opens another', async () => {
    const { session, opened, peers } = sessionWith([]);
    await session.pick(primary, client2025);
    peers[0]?.closed(new Error('stream reset'));
    expect(opened[0]?.closed).toBe(true);
    expect(session.pickNow(primary, client2025)).toBeUndefined();
    expect(await session.pick(primary, client2025)).toBe(opened[1]);
  });

  it('is closed with its server, an attempt under way included, and hears nothing of a closed generation', async () => {
    let settle: (connection: UpstreamConnection) => void = () => {};
    const late = connection('legacy');
    const { session, opened, peers, heard } = sessionWith(['ok', new Promise((resolve) => (settle = resolve))]);
    await session.pick(primary, client2025);
    peers[0]?.log({ level: 'info', data: 'during a call' });
    await session.close();
    expect(opened[0]?.closed).toBe(true);
    peers[0]?.log({ level: 'info', data: 'after the close' });
    peers[0]?.resourceUpdated('file:///late');
    expect(heard).toEqual(['log during a call']);
    // An attempt that connects after the close is closed, and its request goes over the primary.
    const picking = session.pick(primary, client2025);
    await session.close();
    settle(late);
    expect(await picking).toBe(primary);
    expect(late.closed).toBe(true);
    expect(session.state()).toBeUndefined();
  });
});
