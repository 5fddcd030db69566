import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLogger } from '@promptyard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpHandlers } from '../handlers.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';
import { createClientRoster } from './client-roster.js';
import type { ConnectedClient } from './client-roster.js';
import type { HttpHandle } from './options.js';
import { serveHttp } from './serve-http.js';

/** A 2026-07-28 request as a client sends it: its revision and name in `_meta`. */
const modern = (name: string, version = '1.0.0', method = 'tools/list'): unknown => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: {
    _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name, version } },
  },
});

const summary = (clients: readonly ConnectedClient[]): string[] =>
  clients.map(
    (client) =>
      `${client.transport} ${client.subject ?? '-'} ${client.clientName ?? '-'}@${client.clientVersion ?? '-'} ×${client.requests}`,
  );

afterEach(() => void vi.useRealTimers());

describe('the roster of sessionless clients', () => {
  it('counts 2026-07-28 requests by endpoint, identity, client name and version, and ignores other bodies', () => {
    const roster = createClientRoster();
    roster.note('/mcp', 'ann', modern('claude-code'));
    roster.note('/mcp', 'ann', modern('claude-code'));
    roster.note('/mcp', 'bob', modern('claude-code'));
    roster.note('/mcp', 'ann', modern('claude-code', '2.0.0'));
    roster.note('/mcp', 'ann', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    roster.note('/mcp', 'ann', [modern('batch')]);
    roster.note('/mcp', 'ann', { jsonrpc: '2.0', method: 'initialize', params: { clientInfo: { name: 'old', version: '1' } } });
    expect(summary(roster.clients()).sort()).toEqual([
      'sessionless ann claude-code@1.0.0 ×2',
      'sessionless ann claude-code@2.0.0 ×1',
      'sessionless bob claude-code@1.0.0 ×1',
    ]);
    expect(roster.clients()[0]?.protocolVersion).toBe('2026-07-28');
    roster.close();
  });

  it('keeps at most `max`, the least recently seen out first, and bounds what a client names', () => {
    vi.useFakeTimers();
    const roster = createClientRoster({ max: 2 });
    for (const name of ['a', 'b', 'a', 'x'.repeat(10_000)]) {
      roster.note('/mcp', undefined, modern(name));
      vi.advanceTimersByTime(10);
    }
    const names = roster.clients().map((client) => client.clientName);
    expect(names).toHaveLength(2);
    expect(names).toContain('a');
    expect(names.find((name) => name !== 'a')).toHaveLength(128);
    roster.close();
  });

  it('forgets a client idle for `idleMs`, and tells its listeners once per burst', async () => {
    vi.useFakeTimers();
    const roster = createClientRoster({ idleMs: 60_000, notifyMs: 1000 });
    let told = 0;
    roster.onClientsChange(() => void (told += 1));
    roster.note('/mcp', 'ann', modern('old'));
    vi.advanceTimersByTime(30_000);
    roster.note('/mcp', 'ann', modern('recent'));
    roster.note('/mcp', 'ann', modern('recent'));
    expect(told).toBe(1);
    vi.advanceTimersByTime(40_000);
    expect(roster.clients().map((client) => client.clientName)).toEqual(['recent']);
    vi.advanceTimersByTime(60_000);
    expect(roster.clients()).toEqual([]);
    // The first note, the burst of two, and each forgetting.
    expect(told).toBe(4);
    roster.close();
  });
});

const handlers: McpHandlers = {
  name: 'roster-test',
  version: '1.0.0',
  logger: createLogger({ level: 'error', write: () => {} }),
  prompts: { list: () => ({ items: [] }), get: async () => ({ messages: [] }) },
  tools: { list: () => ({ items: [] }), call: async () => ({ content: [] }) },
  complete: async () => ({ completion: { values: [] } }),
  logs: { subscribe: () => () => {} },
  onListChanged: () => () => {},
};

describe("the HTTP endpoint's clients", () => {
  const handles: HttpHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close()));
  });

  const connect = async (url: string, name: string, era: 'legacy' | 'modern') => {
    const client = new Client({ name, version: '3.1.4' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: 'Bearer secret-token' } },
    });
    await client.connect(transport);
    return { client, transport };
  };

  it('lists a 2025-11-25 session while it is open and a 2026-07-28 client once it has made a request, never a session id or token whole', async () => {
    const handle = await serveHttp(await createMcpServerBlueprint(handlers), {
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 100_000,
      authToken: 'secret-token',
    });
    handles.push(handle);
    let changes = 0;
    handle.onClientsChange(() => void (changes += 1));
    const legacy = await connect(handle.url, 'legacy-app', 'legacy');
    await legacy.client.listTools();
    const modernClient = await connect(handle.url, 'modern-app', 'modern');
    await modernClient.client.listTools();

    const listed = handle.clients();
    const session = listed.find((client) => client.transport === 'session');
    expect(session).toMatchObject({
      endpoint: '/mcp',
      clientName: 'legacy-app',
      clientVersion: '3.1.4',
      protocolVersion: '2025-11-25',
      subject: 'server-token',
    });
    expect(session?.requests).toBeGreaterThanOrEqual(3);
    expect(session?.sessionPrefix).toBe(legacy.transport.sessionId?.slice(0, 8));
    expect(listed.find((client) => client.transport === 'sessionless')).toMatchObject({
      clientName: 'modern-app',
      protocolVersion: '2026-07-28',
      subject: 'server-token',
    });
    const text = JSON.stringify(listed);
    expect(text).not.toContain(legacy.transport.sessionId);
    expect(text).not.toContain('secret-token');
    // Notices are sent at most once a second: the first may take that long, more on a loaded machine.
    await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 5000 });

    await legacy.transport.terminateSession();
    expect(handle.clients().filter((client) => client.transport === 'session')).toEqual([]);
    await legacy.client.close();
    await modernClient.client.close();
  });
});
