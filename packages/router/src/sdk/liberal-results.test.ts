import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch.js';
import { jsonLinesBatch, readLiberally } from './liberal-results.js';
import type { Deviation } from './liberal-results.js';

type Answer = (request: { id: string | number; method: string; params?: Record<string, unknown> }) => Record<string, unknown>;

/**
 * The wire to a server that answers each request with `answer`'s result as written (what the
 * server sends, `resultType` or not): the SDK client reads it through its real codecs.
 */
class ScriptedWire implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  private readonly answer: Answer;

  constructor(answer: Answer) {
    this.answer = answer;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    if (!('method' in message) || !('id' in message)) return;
    const result = this.answer(message as never);
    // Fresh objects, as parsed off the wire.
    queueMicrotask(() => this.onmessage?.(JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })) as JSONRPCMessage));
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

const serverInfo = { name: 'scripted', version: '1.0.0' };
const capabilities = { tools: {}, prompts: {}, resources: {}, completions: {} };

/** A 2026-07-28 server that leaves `resultType` out of every result but those `stamped` names. */
const modernServer =
  (stamped: readonly string[] = []): Answer =>
  ({ method }) => {
    const results: Record<string, Record<string, unknown>> = {
      'server/discover': { supportedVersions: ['2026-07-28'], capabilities, _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } },
      'tools/call': { content: [{ type: 'text', text: 'called' }] },
      'tools/list': { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' },
      'prompts/get': { messages: [{ role: 'user', content: { type: 'text', text: 'prompted' } }] },
      'resources/read': { contents: [{ uri: 'test://a', text: 'read' }], ttlMs: 0, cacheScope: 'private' },
      'completion/complete': { completion: { values: ['paris'] } },
    };
    const result = results[method] ?? {};
    return stamped.includes(method) ? { ...result, resultType: 'complete' } : result;
  };

/** A 2025-11-25 server: results never carry `resultType`. */
const legacyServer: Answer = ({ method }) =>
  method === 'initialize'
    ? { protocolVersion: '2025-11-25', capabilities, serverInfo }
    : method === 'tools/call'
      ? { content: [{ type: 'text', text: 'called' }] }
      : {};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An SDK client on `wire` (pinned to 2026-07-28, or the 2025 handshake), read liberally unless `strict`. */
const connect = async (wire: ScriptedWire, era: 'modern' | 'legacy', strict = false): Promise<Deviation[]> => {
  const deviations: Deviation[] = [];
  if (!strict) readLiberally(wire, (deviation) => deviations.push(deviation));
  const client = new Client(
    { name: 'gateway', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs: 2000 } } } : {},
  );
  clients.push(client);
  await client.connect(wire);
  expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  return deviations;
};

const requests = (client: Client) => ({
  'tools/call': () => client.callTool({ name: 'echo', arguments: {} }),
  'tools/list': () => client.listTools(),
  'prompts/get': () => client.getPrompt({ name: 'p' }),
  'resources/read': () => client.readResource({ uri: 'test://a' }),
  'completion/complete': () => client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'p' } }),
});

describe('readLiberally: 2026-07-28 results without resultType', () => {
  it('the SDK client alone refuses them (what the gateway must not do)', async () => {
    const wire = new ScriptedWire(modernServer(['server/discover']));
    await connect(wire, 'modern', true);
    await expect(requests(clients[0] as Client)['tools/call']()).rejects.toThrow(/missing required resultType/);
  });

  it('reads every kind of result as complete, the discovery too, and reports each time', async () => {
    const wire = new ScriptedWire(modernServer());
    const deviations = await connect(wire, 'modern');
    const client = clients[0] as Client;
    const answers = requests(client);
    expect(await answers['tools/call']()).toMatchObject({ content: [{ type: 'text', text: 'called' }] });
    expect((await answers['tools/list']()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await answers['prompts/get']()).toMatchObject({ messages: [{ content: { text: 'prompted' } }] });
    expect(await answers['resources/read']()).toMatchObject({ contents: [{ text: 'read' }] });
    expect(await answers['completion/complete']()).toMatchObject({ completion: { values: ['paris'] } });
    expect(client.getServerVersion()).toMatchObject(serverInfo);
    expect(deviations.map((deviation) => deviation.method)).toEqual([
      'server/discover',
      'tools/call',
      'tools/list',
      'prompts/get',
      'resources/read',
      'completion/complete',
    ]);
    expect(new Set(deviations.map((deviation) => deviation.kind))).toEqual(new Set(['missing-resultType']));
  });

  it('leaves results that carry resultType alone and reports nothing', async () => {
    const wire = new ScriptedWire(modernServer(['server/discover', 'tools/call']));
    const deviations = await connect(wire, 'modern');
    expect(await requests(clients[0] as Client)['tools/call']()).toMatchObject({ content: [{ text: 'called' }] });
    expect(deviations).toEqual([]);
  });

  it('leaves 2025-era results alone: they have no resultType by design', async () => {
    const wire = new ScriptedWire(legacyServer);
    const deviations = await connect(wire, 'legacy');
    expect(await requests(clients[0] as Client)['tools/call']()).toMatchObject({ content: [{ text: 'called' }] });
    expect(deviations).toEqual([]);
  });
});

describe('jsonLinesBatch: an application/json body of JSON lines', () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
  const response = { jsonrpc: '2.0', id: 1, result: { content: [] } };

  it('reads one object a line as the batch of them, blank lines and CRLF aside', () => {
    const body = `${JSON.stringify(progress)}\r\n\n${JSON.stringify(response)}\n`;
    expect(JSON.parse(jsonLinesBatch(bytes(body)) as string)).toEqual([progress, response]);
  });

  it('leaves one JSON value alone, compact or laid out over lines', () => {
    expect(jsonLinesBatch(bytes(`${JSON.stringify(response)}\n`))).toBeUndefined();
    expect(jsonLinesBatch(bytes(JSON.stringify(response, null, 2)))).toBeUndefined();
  });

  it('refuses to guess: lines that are not each a JSON object are unreadable', () => {
    expect(jsonLinesBatch(bytes(`${JSON.stringify(response)}\nnot json`))).toBe('unreadable');
    expect(jsonLinesBatch(bytes(`${JSON.stringify(response)}\n[1, 2]`))).toBe('unreadable');
  });
});

describe('boundedFetch with a body of JSON lines', () => {
  it('hands the SDK transport each message, the notification first, and reports the deviation once per body', async () => {
    const lines = [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'done' }] } },
    ];
    const deviations: Deviation[] = [];
    const fetch = boundedFetch(
      { server: 'test', maxBytes: 1 << 20, oversized: () => {}, deviated: (deviation) => deviations.push(deviation) },
      async () => new Response(lines.map((line) => JSON.stringify(line)).join('\n'), { headers: { 'content-type': 'application/json' } }),
    );
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } });
    expect(received).toEqual(lines);
    expect(deviations).toEqual([{ kind: 'json-lines-body', method: 'tools/call' }]);
    await transport.close();
  });

  it('fails the request with an error naming the server when the lines are not JSON messages', async () => {
    const fetch = boundedFetch(
      { server: 'test', maxBytes: 1 << 20, oversized: () => {} },
      async () => new Response('{"jsonrpc":"2.0","id":7,"result":{}}\nnot json', { headers: { 'content-type': 'application/json' } }),
    );
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } });
    expect(received).toEqual([
      expect.objectContaining({
        id: 7,
        error: expect.objectContaining({
          message: expect.stringMatching(
            /^Server "test" answered with an application\/json body that is neither one JSON message nor one JSON message a line/,
          ),
        }),
      }),
    ]);
    await transport.close();
  });
});
