import { Writable } from 'node:stream';
import type { McpServerBlueprint } from './server.js';

export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * stdout for the protocol, with the messages written in one event-loop turn joined into one write:
 * stdout on a pipe is written synchronously, so under load this saves a system call (and a wake-up
 * of the client) per message. A lone response still leaves in the same turn's check phase.
 */
export const coalescingWriter = (target: NodeJS.WritableStream): Writable => {
  let pending: Buffer[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const batch = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending = [];
    target.write(batch);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
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

/** Serves one connection over stdin/stdout, in whichever protocol era the client opens with. */
export const serveStdio = async (blueprint: McpServerBlueprint): Promise<StdioHandle> => {
  const { serveStdio: sdkServeStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const handle = sdkServeStdio(blueprint.factory(true), {
    transport: new StdioServerTransport(process.stdin, coalescingWriter(process.stdout)),
    onerror: (error) => blueprint.logger.warn('stdio transport error', { reason: error.message }),
  });
  return { close: () => handle.close() };
};
