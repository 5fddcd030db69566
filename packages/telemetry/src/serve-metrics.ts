import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError, PromptyardError } from '@promptyard/core';
import type { Logger, Metrics } from '@promptyard/core';

export interface MetricsListener {
  /** Where Prometheus scrapes: `http://host:port/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** `[telemetry] metrics_bind`: `host:port`, `[v6]:port`; port 0 picks a free one. */
export const parseMetricsBind = (bind: string): { readonly host: string; readonly port: number } => {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(bind.trim());
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || port > 65535) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `[telemetry] metrics_bind must be host:port (for example 127.0.0.1:9464), got ${JSON.stringify(bind)}`,
    );
  }
  return { host: (match[1] ?? match[2]) as string, port };
};

/** Serves `metrics` at `GET /metrics` on a listener of its own, without auth: bind it where only the scraper reaches. */
export const serveMetrics = async (
  metrics: Metrics,
  options: { readonly bind: string; readonly logger: Logger },
): Promise<MetricsListener> => {
  const { host, port } = parseMetricsBind(options.bind);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are served at /metrics');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        options.logger.error('metrics scrape failed', { reason: describeError(error) });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed; see the server log.');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EADDRNOTAVAIL'
          ? new PromptyardError(
              'CONFIG_INVALID',
              `[telemetry] metrics_bind ${options.bind} cannot be bound (${error.code}): choose another address or port`,
              { cause: error },
            )
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  server.on('error', (error) => options.logger.error('metrics listener error', { reason: error.message }));
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
