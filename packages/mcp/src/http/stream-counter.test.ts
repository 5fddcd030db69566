import { once } from 'node:events';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createStreamCounter } from './stream-counter.js';

describe('createStreamCounter', () => {
  it('counts responses whose head says text/event-stream, however it is written, until they close', async () => {
    const streams = createStreamCounter();
    const closed: Promise<unknown>[] = [];
    const server = createServer((req, res: ServerResponse) => {
      streams.track(res);
      closed.push(once(res, 'close'));
      if (req.url === '/object') res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      else if (req.url === '/array') res.writeHead(200, ['Content-Type', 'text/event-stream']).write(': open\n\n');
      else if (req.url === '/set') {
        res.setHeader('Content-Type', 'text/event-stream');
        res.writeHead(200).write(': open\n\n');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const controller = new AbortController();
    try {
      await (await fetch(`${base}/json`)).text();
      const opened = await Promise.all(['/object', '/array', '/set'].map((path) => fetch(`${base}${path}`, { signal: controller.signal })));
      expect(opened.map((response) => response.headers.get('content-type'))).toEqual([
        'text/event-stream',
        'text/event-stream',
        'text/event-stream',
      ]);
      expect(streams.size).toBe(3);
      controller.abort();
      await Promise.all(closed);
      expect(streams.size).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
