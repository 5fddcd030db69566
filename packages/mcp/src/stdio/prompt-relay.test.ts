import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { createCatalog, createLogger, createPromptService } from '@promptyard/core';
import type { PromptEntry } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogHandlers } from '../catalog/catalog-handlers.js';
import { serializedReply } from '../handlers.js';
import type { JsonObject, McpRelay, RelayChannel } from '../handlers.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';

const prompt = (name: string, render?: PromptEntry['render']): PromptEntry => ({
  name,
  description: `About ${name}`,
  arguments: [{ name: 'topic', required: true }],
  origin: { file: `/prompts/${name}.md`, line: 1 },
  render:
    render ?? (async (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `${name} on ${args['topic'] ?? ''}` } }] })),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * The same handlers behind the relay and behind the SDK's full path (a raw JSON-RPC peer on an
 * in-memory transport), so that a relayed answer can be held against the full path's, byte for byte.
 */
const setup = async (entries: readonly PromptEntry[]) => {
  // Two prompts a page: the listings below have several pages.
  const logger = createLogger({ level: 'error', write: () => {} });
  const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  catalog.owner('test').replace([...entries]);
  const prompts = createPromptService({ catalog, logger, limits: { maxArgumentChars: 100, maxResponseBytes: 1000 }, timeoutMs: 1000 });
  const blueprint = await createMcpServerBlueprint(createCatalogHandlers({ name: 'test', version: '1.0.0', logger, prompts, pageSize: 2 }));
  const server = blueprint.create({ live: true });
  const [peer, serverTransport] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  peer.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    waiting.get(id)?.(message);
    waiting.delete(id);
  };
  await server.connect(serverTransport);
  await peer.start();
  const ask = (message: JsonObject): Promise<JSONRPCMessage> =>
    new Promise((resolve) => {
      waiting.set(message['id'], resolve);
      void peer.send(message as JSONRPCMessage);
    });
  await ask({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  });
  await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  closers.push(() => server.close());
  const relay = blueprint.relay as McpRelay;
  const channel = relay.open(undefined);
  closers.push(async () => channel.close());
  return { relay, channel, fullPath: ask };
};

/** The relay's answer to `message`, or `undefined` when it declines it. */
const relayed = (channel: RelayChannel, message: JsonObject): Promise<JsonObject> | undefined => {
  let answer!: (reply: JsonObject) => void;
  const replied = new Promise<JsonObject>((resolve) => (answer = resolve));
  return channel.offer(message, answer) ? replied : undefined;
};

const get = (id: number | string, params: unknown): JsonObject => ({ jsonrpc: '2.0', id, method: 'prompts/get', params });

describe('the prompt relay', () => {
  it('serves prompts/get and prompts/list on stdio for handlers whose get needs only its signal', async () => {
    const { relay } = await setup([prompt('review')]);
    expect(relay.methods).toEqual(['prompts/get', 'prompts/list']);
  });

  it('answers a plain get exactly as the full path does: results and every kind of error', async () => {
    const { channel, fullPath } = await setup([prompt('review')]);
    const cases: unknown[] = [
      { name: 'review', arguments: { topic: 'cats' } },
      { name: 'review', arguments: { topic: 'cats', extra: 'ignored' } },
      { name: 'review' },
      { name: 'reveiw', arguments: { topic: 'cats' } },
    ];
    for (const [index, params] of cases.entries()) {
      const viaRelay = relayed(channel, get(index + 1, params));
      expect(viaRelay, JSON.stringify(params)).toBeDefined();
      expect(await viaRelay).toEqual(await fullPath(get(index + 1, params)));
    }
    expect(await relayed(channel, get('s', { name: 'review', arguments: { topic: 'dogs' } }))).toMatchObject({
      id: 's',
      result: { messages: [{ content: { text: 'review on dogs' } }] },
    });
    expect(await relayed(channel, get(9, { name: 'reveiw' }))).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('review') },
    });
  });

  it('answers a plain list with the page as the full path does, its text written as kept', async () => {
    const { channel, fullPath } = await setup(['a', 'b', 'c', 'd', 'e'].map((name) => prompt(name)));
    let cursor: string | undefined;
    let pages = 0;
    do {
      const message = { jsonrpc: '2.0', id: `page ${pages}`, method: 'prompts/list', params: cursor === undefined ? {} : { cursor } };
      const reply = (await relayed(channel, message)) as JsonObject & { readonly [serializedReply]?: string };
      const expected = await fullPath(message);
      expect(JSON.parse(reply[serializedReply] as string)).toEqual(expected);
      // The object form, for metrics, traces and anything else that reads it, is the same message.
      expect(JSON.parse(JSON.stringify(reply))).toEqual(expected);
      cursor = (expected as { result: { nextCursor?: string } }).result.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(await relayed(channel, { jsonrpc: '2.0', id: 7, method: 'prompts/list' })).toMatchObject({
      result: { prompts: [{ name: 'a' }, { name: 'b' }] },
    });
    const forged = { jsonrpc: '2.0', id: 8, method: 'prompts/list', params: { cursor: 'forged!' } };
    const refused = await relayed(channel, forged);
    expect(refused).toEqual(await fullPath(forged));
    expect(refused).toMatchObject({ error: { code: -32602 } });
  });

  it('leaves everything else to the full path: _meta, malformed params, odd ids, other methods and messages', async () => {
    const { channel } = await setup([prompt('review')]);
    const declined: JsonObject[] = [
      get(1, { name: 'review', arguments: { topic: 'cats' }, _meta: { progressToken: 1 } }),
      get(2, { name: 'review', arguments: { topic: 'cats' }, _meta: {} }),
      get(3, { name: 42 }),
      get(4, { name: 'review', arguments: ['cats'] }),
      get(5, { name: 'review', arguments: { topic: { nested: true } } }),
      get(6, { name: 'review', other: 1 }),
      get(7, undefined),
      get(1.5, { name: 'review', arguments: { topic: 'cats' } }),
      { jsonrpc: '2.0', method: 'prompts/get', params: { name: 'review' } },
      { jsonrpc: '2.0', id: 8, method: 'prompts/list', params: { _meta: {} } },
      { jsonrpc: '2.0', id: 8, method: 'prompts/list', params: { cursor: 3 } },
      { jsonrpc: '2.0', method: 'prompts/list', params: {} },
      { jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 9, result: {} },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
    ];
    for (const message of declined) expect(relayed(channel, message), JSON.stringify(message)).toBeUndefined();
  });

  it('cancels a get on notifications/cancelled and on close: its render is aborted and nothing is answered', async () => {
    const started: AbortSignal[] = [];
    const waitForAbort: PromptEntry['render'] = (_args, options) =>
      new Promise((_resolve, reject) => {
        const signal = options?.signal as AbortSignal;
        started.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    const { channel } = await setup([prompt('wait', waitForAbort)]);
    const answers: JsonObject[] = [];
    expect(channel.offer(get(1, { name: 'wait', arguments: { topic: 'x' } }), (reply) => answers.push(reply))).toBe(true);
    expect(channel.offer(get(2, { name: 'wait', arguments: { topic: 'x' } }), (reply) => answers.push(reply))).toBe(true);
    expect(
      channel.offer({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'changed my mind' } }, () => {}),
    ).toBe(true);
    expect(started[0]?.aborted).toBe(true);
    expect(started[1]?.aborted).toBe(false);
    channel.close();
    expect(started[1]?.aborted).toBe(true);
    // Both renders have failed by now; let their rejections run through.
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual([]);
  });
});
