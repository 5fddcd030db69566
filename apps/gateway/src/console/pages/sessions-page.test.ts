import type { ConnectedClient } from '@promptyard/mcp';
import { describe, expect, it } from 'vitest';
import { renderSessionsPage, renderSessionsTable } from './sessions-page.js';

const now = Date.parse('2026-11-27T12:00:00Z');
const session: ConnectedClient = {
  transport: 'session',
  endpoint: '/mcp',
  clientName: 'claude-code',
  clientVersion: '2.1.0',
  protocolVersion: '2025-11-25',
  subject: 'ann',
  sessionPrefix: '3f2a9c1d',
  openedAt: Date.parse('2026-11-26T09:30:00Z'),
  lastActiveAt: Date.parse('2026-11-27T11:59:58Z'),
  requests: 42,
};
const sessionless: ConnectedClient = {
  ...session,
  transport: 'sessionless',
  endpoint: '/mcp/coding',
  clientName: undefined,
  clientVersion: undefined,
  protocolVersion: '2026-07-28',
  subject: undefined,
  sessionPrefix: undefined,
  openedAt: Date.parse('2026-11-27T11:50:00Z'),
  requests: 3,
};
const viewer = { id: 's', csrf: 'c', subject: 'bob', role: 'viewer' as const, expiresAt: now + 60_000 };

describe('the Sessions page', () => {
  it('shows each client with its version, revision, identity, connection, times, requests and session prefix', () => {
    const html = String(renderSessionsTable([session, sessionless], now));
    expect(html).toContain('1 session open, 1 client without a session seen lately');
    expect(html).toContain('<th scope="row">claude-code</th><td>2.1.0</td><td>2025-11-25</td><td>ann</td><td>session</td><td>/mcp</td>');
    expect(html).toContain('<time datetime="2026-11-26T09:30:00.000Z">2026-11-26 09:30</time>');
    expect(html).toContain('<time datetime="2026-11-27T11:59:58.000Z">11:59:58</time>');
    expect(html).toContain('<td class="number">42</td><td><code>3f2a9c1d…</code></td>');
    expect(html).toContain('<th scope="row">unnamed</th><td>—</td><td>2026-07-28</td><td>—</td><td>per request</td><td>/mcp/coding</td>');
    expect(html).toContain('<caption>');
    expect(html.match(/<th scope="col">/g)).toHaveLength(10);
  });

  it('says when no client is connected, and escapes what clients name themselves', () => {
    expect(String(renderSessionsTable([], now))).toContain('No MCP client is connected.');
    const html = String(renderSessionsTable([{ ...session, clientName: '<img src=x>', clientVersion: '"><script>' }], now));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
  });

  it('is a page of the console that follows the sessions stream, for viewers too', () => {
    const page = String(renderSessionsPage({ clients: () => [session], onClientsChange: () => () => {} }, viewer));
    expect(page).toContain('sse-connect="/console/events?stream=sessions" sse-swap="sessions"');
    expect(page).toContain('<a href="/console/sessions" aria-current="page">Sessions</a>');
    expect(page).toContain('claude-code');
  });
});
