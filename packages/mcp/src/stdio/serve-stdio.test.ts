import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { createCatalog, createLogger, createPromptService } from '@promptyard/core';
import type { PromptEntry } from '@promptyard/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createCatalogHandlers } from '../catalog/catalog-handlers.js';
import { serializedReply } from '../handlers.js';
import type { JsonObject, McpRelay, RelayChannel } from '../handlers.js';
import { createMcpServerBlueprint } from '../server/blueprint.js';
import { coalescingWriter, relayingTransport, serveStdio } from './serve-stdio.js';

/** A target that records each write; `slow` holds back its callbacks until `release`, like a full pipe. */
const recordingTarget = (highWaterMark: number, slow: boolean) => {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const target = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      if (slow) held.push(() => callback());
      else callback();
    },
  });
  return { target, writes, release: () => held.splice(0).forEach((done) => done()) };
};

describe('coalescingWriter', () => {
  it('writes a lone message at once and joins those that follow in the same turn', async () => {
    const { target, writes } = recordingTarget(1 << 20, false);
    const writer = coalescingWriter(target);
    expect(writer.write('a\n')).toBe(true);
    expect(writes).toEqual(['a\n']);
    writer.write('b\n');
    writer.write('c\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\n', 'b\nc\n']);
  });

  it('says when the target is full, and passes its drain on', async () => {
    const { target, release } = recordingTarget(4, true);
    const writer = coalescingWriter(target);
    expect(writer.write('a long message\n')).toBe(false);
    const drained = once(writer, 'drain');
    release();
    await drained;
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.write('x\n')).toBe(true);
    release();
  });

  it('passes the target’s errors on', async () => {
    const { target } = recordingTarget(16, false);
    const writer = coalescingWriter(target);
    const failed = once(writer, 'error');
    target.emit('error', new Error('EPIPE'));
    expect(((await failed)[0] as Error).message).toBe('EPIPE');
  });
});

describe('relayingTransport', () => {
  /** A transport the test drives: `receive` delivers a message as the SDK's stdio transport would. */
  const fakeInner = () => {
    const sent: unknown[] = [];
    const inner: Transport = {
      start: async () => {},
      send: async (message) => void sent.push(message),
      close: async () => inner.onclose?.(),
    };
    return { inner, sent, receive: (message: object) => inner.onmessage?.(message as JSONRPCMessage) };
  };

  /** A relay channel that takes `take` requests and answers each with what `answer` makes of it. */
  const channelOf = (answer: (message: JsonObject) => JsonObject) => {
    const offered: unknown[] = [];
    const channel: RelayChannel = {
      offer: (message, reply) => {
        offered.push(message['method']);
        if (message['method'] !== 'take') return false;
        reply(answer(message));
        return true;
      },
      close: () => {},
    };
    return { channel, offered };
  };

  it('offers messages only after a 2025-era initialize, and writes replies as lines, a kept serialization as it is', async () => {
    const { inner, receive } = fakeInner();
    const lines: string[] = [];
    let calls = 0;
    const { channel, offered } = channelOf((message) =>
      calls++ === 0
        ? { jsonrpc: '2.0', id: message['id'], result: { n: 1 } }
        : { jsonrpc: '2.0', id: message['id'], result: {}, [serializedReply]: '{"kept":true}' },
    );
    const outer = relayingTransport(
      inner,
      () => channel,
      (line) => lines.push(line),
    );
    const passed: unknown[] = [];
    outer.onmessage = (message) => passed.push((message as { method?: string }).method);
    await outer.start();
    receive({ jsonrpc: '2.0', id: 0, method: 'take' });
    receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    receive({ jsonrpc: '2.0', id: 2, method: 'take' });
    receive({ jsonrpc: '2.0', id: 3, method: 'ping' });
    receive({ jsonrpc: '2.0', id: 4, method: 'take' });
    expect(offered).toEqual(['take', 'ping', 'take']);
    expect(passed).toEqual(['take', 'initialize', 'ping']);
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":2,"result":{"n":1}}\n', '{"kept":true}\n']);
  });

  it('answers a result JSON cannot carry with an internal error, and writes nothing once closed', async () => {
    const { inner, receive } = fakeInner();
    const lines: string[] = [];
    const { channel } = channelOf((message) => ({ jsonrpc: '2.0', id: message['id'], result: { big: 1n } }));
    const outer = relayingTransport(
      inner,
      () => channel,
      (line) => lines.push(line),
    );
    await outer.start();
    receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    receive({ jsonrpc: '2.0', id: 2, method: 'take' });
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      id: 2,
      error: { code: -32603, message: expect.stringContaining('could not be sent as JSON') },
    });
    await outer.close();
    receive({ jsonrpc: '2.0', id: 3, method: 'take' });
    expect(lines).toHaveLength(1);
  });
});

describe('serveStdio', () => {
  /** promptyard-server's handlers with a relay beside them that takes `tools/call` and records every offer. */
  const serve = async () => {
    const logger = createLogger({ level: 'error', write: () => {} });
    const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
    const prompts = createPromptService({ catalog, logger, limits: { maxArgumentChars: 100, maxResponseBytes: 1000 }, timeoutMs: 1000 });
    const offered: unknown[] = [];
    const relay: McpRelay = {
      methods: ['tools/call'],
      open: () => ({
        offer: (message, reply) => {
          offered.push(message['method']);
          if (message['method'] !== 'tools/call') return false;
          reply({ jsonrpc: '2.0', id: message['id'], result: { content: [], relayed: true } });
          return true;
        },
        close: () => {},
      }),
    };
    const blueprint = await createMcpServerBlueprint({
      ...createCatalogHandlers({ name: 'test', version: '1.0.0', logger, prompts }),
      relay,
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = await serveStdio(blueprint, { stdin, stdout });
    const answers = new Map<unknown, (message: Record<string, unknown>) => void>();
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
        buffered = buffered.slice(end + 1);
        answers.get(message['id'])?.(message);
      }
    });
    const ask = (message: JsonObject): Promise<Record<string, unknown>> =>
      new Promise((resolve) => {
        answers.set(message['id'], resolve);
        stdin.write(`${JSON.stringify(message)}\n`);
      });
    return { ask, offered, close: () => handle.close() };
  };

  it('offers a 2025-era connection’s messages to the relay (its own and the prompt relay’s), and the SDK the rest', async () => {
    const { ask, offered, close } = await serve();
    await ask({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(await ask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } })).toMatchObject({ result: { relayed: true } });
    expect(await ask({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'missing' } })).toMatchObject({
      error: { code: -32602 },
    });
    expect(await ask({ jsonrpc: '2.0', id: 4, method: 'prompts/list', params: {} })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { prompts: [] },
    });
    expect(await ask({ jsonrpc: '2.0', id: 5, method: 'ping' })).toMatchObject({ id: 5, result: {} });
    // The prompt relay takes prompts/get and prompts/list before the handlers' own relay sees them.
    expect(offered).toEqual(['tools/call', 'ping']);
    await close();
  });
});
