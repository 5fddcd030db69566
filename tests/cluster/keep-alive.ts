/**
 * The keep-alive contract between nginx and the replicas: nginx keeps idle connections to a replica
 * in a pool (`keepalive_timeout` of `upstream promptyard` in deploy/nginx/promptyard.conf) and a
 * replica must not close one sooner. When it does, nginx can pick the connection just as the replica
 * closes it, and a POST sent on it fails with 502 (nginx never resends a POST).
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { Cluster } from '../../test-support/cluster.js';
import { nginxConfigPath } from '../../test-support/nginx.js';

/** Seconds nginx keeps an idle connection to a replica (nginx's own default, 60 s, when the file does not say). */
const nginxIdleSeconds = async (): Promise<number> => {
  const upstream = /upstream promptyard \{([^}]*)\}/.exec(await readFile(nginxConfigPath, 'utf8'))?.[1] ?? '';
  const setting = /^\s*keepalive_timeout\s+(\d+)s?;/m.exec(upstream.replace(/#.*/g, ''));
  return setting === null ? 60 : Number(setting[1]);
};

/** Node closes an idle keep-alive connection one second after its `keepAliveTimeout` (5 s by default). */
const nodeDefaultCloseMs = 6000;

/** A raw HTTP/1.1 connection, as nginx holds one in its pool: requests one after the other, answers read whole. */
const openConnection = (port: number) => {
  const socket: Socket = connect(port, '127.0.0.1');
  let buffered = '';
  let closed = false;
  let wake = (): void => {};
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.on('error', () => {});
  /** The next whole answer (Content-Length or chunked), or `undefined` when the replica closed the connection first. */
  const answer = async (): Promise<{ status: number; headers: string } | undefined> => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = buffered.slice(0, end);
        const body = buffered.slice(end + 4);
        const length = /^content-length:\s*(\d+)/im.exec(head);
        const complete = length === null ? body.includes('0\r\n\r\n') : body.length >= Number(length[1]);
        if (complete) {
          const rest = length === null ? body.slice(body.indexOf('0\r\n\r\n') + 5) : body.slice(Number(length[1]));
          buffered = rest;
          return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head };
        }
      }
      if (closed) return undefined;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return {
    get closed() {
      return closed;
    },
    request: async (path: string) => {
      if (!closed) socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      return answer();
    },
    close: () => socket.destroy(),
  };
};

/**
 * Replica `index` says it keeps an idle connection longer than nginx does (`Keep-Alive: timeout=`),
 * and does: a connection left idle past the moment Node closes one by default still serves the next
 * request.
 */
export const keepAliveOutlastsNginx = async (cluster: Cluster, index = 0): Promise<void> => {
  const node = cluster.nodes[index];
  if (node === undefined) throw new Error(`no replica ${index}`);
  const nginxSeconds = await nginxIdleSeconds();
  const connection = openConnection(node.port);
  try {
    const first = await connection.request('/health');
    expect(first?.status, 'GET /health on a fresh connection').toBe(200);
    const promised = Number(/^keep-alive:.*\btimeout=(\d+)/im.exec(first?.headers ?? '')?.[1]);
    expect
      .soft(promised, `the replica's Keep-Alive timeout against nginx's keepalive_timeout ${nginxSeconds}s`)
      .toBeGreaterThan(nginxSeconds);
    // Idle as a pooled connection is between two requests; the replica must not close it.
    await sleep(nodeDefaultCloseMs + 1000);
    expect(connection.closed, `the replica closed a connection idle for ${nodeDefaultCloseMs + 1000} ms`).toBe(false);
    const second = await connection.request('/health');
    expect(second?.status, 'GET /health on the same connection after the idle time').toBe(200);
  } finally {
    connection.close();
  }
};
