/**
 * An MCP server over Streamable HTTP (2025-11-25, stateless, written by hand so every byte is the
 * test's) whose `flood` tool never ends its answer: an SSE stream of bytes without a line break
 * (`sse-line`), an SSE event of lines without the blank line that would end it (`sse-event`), or a
 * JSON body that never closes (`json`). It runs in the test's process, so the test knows when the
 * answer passed the gateway's limit (`crossed`) and when the gateway hung up (`hungUp`).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Flood = 'sse-line' | 'sse-event' | 'json';

export interface HostileHttp {
  readonly url: string;
  /** When the flood had written `limit` bytes (`Date.now()`). */
  readonly crossed: Promise<number>;
  /** Resolves when the gateway closed the flood's connection. */
  readonly hungUp: Promise<void>;
  stop(): Promise<void>;
}

const json = (res: ServerResponse, body: unknown): void => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
};

/** The flood's start and what it repeats, for answering request `id`. */
const floodParts = (kind: Flood, id: unknown): { type: string; start: string; repeat: string } => {
  const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  if (kind === 'json') return { type: 'application/json', start: answer, repeat: 'x'.repeat(16 * 1024) };
  if (kind === 'sse-line') return { type: 'text/event-stream', start: `event: message\ndata: ${answer}`, repeat: 'x'.repeat(16 * 1024) };
  return { type: 'text/event-stream', start: 'event: message\n', repeat: `data: ${'x'.repeat(1000)}\n`.repeat(16) };
};

export const startHostileHttp = async (kind: Flood, limit: number): Promise<HostileHttp> => {
  let crossedAt: (at: number) => void = () => {};
  let closed: () => void = () => {};
  const crossed = new Promise<number>((resolve) => (crossedAt = resolve));
  const hungUp = new Promise<void>((resolve) => (closed = resolve));

  const flood = (res: ServerResponse, id: unknown): void => {
    const { type, start, repeat } = floodParts(kind, id);
    res.writeHead(200, { 'content-type': type });
    let written = 0;
    let open = true;
    res.on('close', () => {
      open = false;
      closed();
    });
    const pump = (): void => {
      while (open) {
        const ok = res.write(written === 0 ? start : repeat);
        written += written === 0 ? start.length : repeat.length;
        if (written >= limit) crossedAt(Date.now());
        if (!ok) return void res.once('drain', pump);
      }
    };
    pump();
  };

  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    void readBody(req).then((message) => {
      const { id, method } = message;
      if (id === undefined) return void res.writeHead(202).end();
      if (method === 'initialize')
        return json(res, {
          jsonrpc: '2.0',
          id,
          result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile-http', version: '1.0.0' } },
        });
      if (method === 'tools/list')
        return json(res, {
          jsonrpc: '2.0',
          id,
          result: { tools: [{ name: 'flood', description: 'Never ends its answer.', inputSchema: { type: 'object', properties: {} } }] },
        });
      if (method === 'tools/call') return flood(res, id);
      return json(res, { jsonrpc: '2.0', id, result: {} });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    crossed,
    hungUp,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
