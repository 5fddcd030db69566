import { Writable } from 'node:stream';
import type { Server, Transport } from '@modelcontextprotocol/server';
import type { RelayChannel } from './handlers.js';
import type { McpServerBlueprint } from './server.js';

export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * stdout for the protocol, with the messages written in one event-loop turn joined into one write:
 * stdout on a pipe is written synchronously, so under load this saves a system call (and a wake-up
 * of the client) per message. A lone response still leaves in the same turn's check phase.
 * The SDK writes strings, and they stay strings (`decodeStrings: false`): a socket writes a string
 * straight from the heap, while turning a 200 KB list page into a Buffer first took 38% of a
 * `prompts/list` in the CPU profile (bench/prompts.bench.ts: full list 3× the naive server's).
 */
const coalescingWriter = (target: NodeJS.WritableStream): Writable => {
  let pending: (string | Buffer)[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 1) target.write(batch[0] as string | Buffer);
    else if (batch.every((chunk) => typeof chunk === 'string')) target.write(batch.join(''));
    else target.write(Buffer.concat(batch.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))));
  };
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      callback();
    },
    final(callback) {
      if (pending.length > 0) flush();
      callback();
    },
  });
};

/**
 * A transport in front of the SDK's stdio transport that offers each message to a relay channel first
 * — only on a 2025-era connection (opened with `initialize`), whose requests carry no per-request
 * envelope a relay would have to translate. `open` starts the channel for the connection's client.
 */
const relayingTransport = (inner: Transport, open: () => RelayChannel): Transport => {
  let legacy = false;
  let channel: RelayChannel | undefined;
  const outer: Transport = {
    start: () => {
      inner.onmessage = (message, extra) => {
        const record = message as unknown as Record<string, unknown>;
        if (record['method'] === 'initialize') legacy = true;
        // Opened on the first message after the handshake, once the connection's instance exists.
        else if (legacy && (channel ??= open()).offer(record, (reply) => void inner.send(reply as never).catch(() => {}))) return;
        outer.onmessage?.(message, extra);
      };
      inner.onclose = () => {
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

/** Serves one connection over stdin/stdout, in whichever protocol era the client opens with. */
export const serveStdio = async (blueprint: McpServerBlueprint): Promise<StdioHandle> => {
  const { serveStdio: sdkServeStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const stdio = new StdioServerTransport(process.stdin, coalescingWriter(process.stdout));
  const { relay } = blueprint;
  let server: Server | undefined;
  const factory = (): Server => (server = blueprint.create({ live: true }));
  const handle = sdkServeStdio(factory, {
    transport: relay === undefined ? stdio : relayingTransport(stdio, () => relay.open(server === undefined ? undefined : blueprint.clientOf(server))),
    onerror: (error) => blueprint.logger.warn('stdio transport error', { reason: error.message }),
  });
  return { close: () => handle.close() };
};
