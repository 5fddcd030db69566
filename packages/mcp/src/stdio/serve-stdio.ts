/**
 * Serving over stdio: `serveStdio` for either protocol era, the coalescing stdout writer, the transport
 * that offers a 2025-era connection's messages to the relay first, and the prompt relay, the fast path
 * of `prompts/get` and `prompts/list` beside the SDK.
 */
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { serializedReply } from '../handlers.js';
import type { JsonObject, RelayChannel } from '../handlers.js';
import { loadServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';

export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * stdout for the protocol. A message written when nothing was written this turn of the event loop
 * goes out at once; the messages that follow it in the same turn are joined into one write at the
 * turn's end: stdout on a pipe is written synchronously, so a burst costs one system call (and one
 * wake-up of the client), while a lone response waits for nothing (deferring every message to the
 * check phase delayed a lone request/response: bench/prompts.bench.ts). The SDK writes strings, and
 * they stay strings (`decodeStrings: false`): a socket writes a string straight from the heap, while
 * turning a large list page into a Buffer first was a large share of a `prompts/list`.
 */
export const coalescingWriter = (target: NodeJS.WritableStream): Writable => {
  let pending: (string | Buffer)[] = [];
  let busy = false;
  /** Whether `target` took the last write without asking the writer to wait for `drain`. */
  let flowing = true;
  const flush = (): void => {
    if (pending.length === 0) {
      busy = false;
      return;
    }
    const batch = pending;
    pending = [];
    if (batch.length === 1) flowing = target.write(batch[0] as string | Buffer);
    else if (batch.every((chunk) => typeof chunk === 'string')) flowing = target.write(batch.join(''));
    else flowing = target.write(Buffer.concat(batch.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))));
    setImmediate(flush);
  };
  // What the SDK's stdio transport uses of a stream: write, and the error and drain events (the
  // target's). Not a Writable, whose machinery adds a callback and a tick to every message, which a
  // stdio prompts/get pays for (bench/prompts.bench.ts).
  const writer = new EventEmitter();
  target.on('drain', () => writer.emit('drain'));
  target.on('error', (error: unknown) => writer.emit('error', error));
  return Object.assign(writer, {
    writable: true,
    write(chunk: string | Uint8Array): boolean {
      const data = typeof chunk === 'string' ? chunk : Buffer.from(chunk);
      if (busy) pending.push(data);
      else {
        busy = true;
        flowing = target.write(data);
        setImmediate(flush);
      }
      return flowing;
    },
    end(): void {
      flush();
    },
  }) as unknown as Writable;
};

/**
 * A transport in front of the SDK's stdio transport that offers each message to a relay channel first
 * — only on a 2025-era connection (opened with `initialize`), whose requests carry no per-request
 * envelope a relay would have to translate. `open` starts the channel for the connection's client.
 */
export const relayingTransport = (inner: Transport, open: () => RelayChannel, writeLine: (line: string) => void): Transport => {
  let legacy = false;
  let closed = false;
  let channel: RelayChannel | undefined;
  // Replies go straight to the writer, in order with the SDK's own messages (its send writes to the
  // same writer synchronously), without the send's promise and error listeners per message: the
  // transport hears the writer's errors itself. One that carries its own serialization goes as it is.
  const reply = (message: JsonObject): void => {
    if (closed) return;
    const line = (message as { readonly [serializedReply]?: unknown })[serializedReply];
    let text: string;
    try {
      text = typeof line === 'string' ? line : JSON.stringify(message);
    } catch (error) {
      // A result JSON cannot carry (a cycle, a BigInt): the request still gets its answer.
      const reason = error instanceof Error ? error.message : String(error);
      text = JSON.stringify({
        jsonrpc: '2.0',
        id: message['id'],
        error: { code: -32603, message: `Internal error: the result could not be sent as JSON (${reason}).` },
      });
    }
    writeLine(`${text}\n`);
  };
  const outer: Transport = {
    start: () => {
      inner.onmessage = (message, extra) => {
        const record = message as unknown as Record<string, unknown>;
        if (record['method'] === 'initialize') legacy = true;
        // Opened on the first message after the handshake, once the connection's instance exists.
        else if (legacy && (channel ??= open()).offer(record, reply)) return;
        outer.onmessage?.(message, extra);
      };
      inner.onclose = () => {
        closed = true;
        channel?.close();
        outer.onclose?.();
      };
      inner.onerror = (error) => outer.onerror?.(error);
      return inner.start();
    },
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  return outer;
};

/**
 * A transport over an already started `inner` that hands its owner the messages `inner` received
 * before the owner existed (`early`, filled until the owner starts), then everything else.
 */
const replayingTransport = (inner: Transport, early: JSONRPCMessage[]): Transport => {
  const outer: Transport = {
    start: async () => {
      inner.onclose = () => outer.onclose?.();
      inner.onerror = (error) => outer.onerror?.(error);
      queueMicrotask(() => {
        for (const message of early.splice(0)) outer.onmessage?.(message);
        inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
      });
    },
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  return outer;
};

/**
 * A 2025-era opening: `initialize` with no protocol-version claim in its `_meta` (the rule the SDK's
 * `serveStdio` applies first). Such a connection stays 2025-era for its lifetime.
 */
const isLegacyHandshake = (message: JSONRPCMessage, versionKey: string): boolean => {
  const record = message as { method?: unknown; id?: unknown; params?: { _meta?: unknown } };
  if (record.method !== 'initialize' || record.id === undefined) return false;
  const meta = record.params?._meta;
  return typeof meta !== 'object' || meta === null || !(versionKey in meta);
};

/**
 * Serves one connection over stdin/stdout, in whichever protocol era the client opens with.
 *
 * A 2025-era client (most today) gets its instance connected straight to the stdio transport, as the
 * SDK's classic `server.connect(transport)` does: the SDK's era-negotiating `serveStdio` queues each
 * message through async steps and schema-checks every outbound result (a zod parse of the whole
 * rendered prompt), a cost every `prompts/get` would pay (bench/prompts.bench.ts). Every
 * other opening (2026-07-28 envelopes, `server/discover`) goes through `serveStdio`, which owns
 * those rules. On a 2025-era connection each message is offered to the blueprint's relay first.
 */
export const serveStdio = async (
  blueprint: McpServerBlueprint,
  streams: { readonly stdin: Readable; readonly stdout: NodeJS.WritableStream } = { stdin: process.stdin, stdout: process.stdout },
): Promise<StdioHandle> => {
  const [{ serveStdio: sdkServeStdio, StdioServerTransport }, { PROTOCOL_VERSION_META_KEY }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    loadServerSdk(),
  ]);
  const writer = coalescingWriter(streams.stdout);
  const stdio = new StdioServerTransport(streams.stdin, writer);
  const { relay, logger } = blueprint;
  let server: Server | undefined;
  const factory = (): Server => (server = blueprint.create({ live: true }));
  const onerror = (error: Error): void => logger.warn('stdio transport error', { reason: error.message });
  const relayed = (transport: Transport): Transport =>
    relay === undefined
      ? transport
      : relayingTransport(
          transport,
          () => relay.open(server === undefined ? undefined : blueprint.clientOf(server)),
          (line) => void writer.write(line),
        );

  let close: () => Promise<void> = () => stdio.close();
  stdio.onerror = onerror;
  const early: JSONRPCMessage[] = [];
  stdio.onmessage = (first) => {
    // Held until the instance (or the SDK's entry) starts on the transport.
    stdio.onmessage = (message) => void early.push(message);
    early.push(first);
    if (isLegacyHandshake(first, PROTOCOL_VERSION_META_KEY)) {
      const instance = factory();
      instance.onerror = onerror;
      close = () => instance.close();
      instance.connect(relayed(replayingTransport(stdio, early))).catch(onerror);
    } else {
      const handle = sdkServeStdio(factory, { transport: relayed(replayingTransport(stdio, early)), onerror });
      close = () => handle.close();
    }
  };
  await stdio.start();
  return { close: () => close() };
};
