/**
 * Serves a built static site (the documentation's docs/.vitepress/dist) on 127.0.0.1 the way a static
 * host with clean URLs does: `/guide/x` is `guide/x.html`, `/gateway/` is `gateway/index.html`, anything
 * else is a file or the site's own 404 page with status 404.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticSite {
  readonly url: string;
  close(): Promise<void>;
}

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isFile() ?? false;

/** The file a URL path names in `root`, or undefined (also for a path that would leave `root`). */
const resolveFile = async (root: string, pathname: string): Promise<string | undefined> => {
  const decoded = decodeURIComponent(pathname);
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  if (relative.split(sep).includes('..')) return undefined;
  const base = join(root, relative);
  const candidates = decoded.endsWith('/') ? [join(base, 'index.html')] : [base, `${base}.html`, join(base, 'index.html')];
  for (const candidate of candidates) if (await isFile(candidate)) return candidate;
  return undefined;
};

export const serveStaticSite = async (root: string): Promise<StaticSite> => {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://site');
    void resolveFile(root, pathname).then(async (file) => {
      const found = file ?? join(root, '404.html');
      const status = file === undefined ? 404 : 200;
      if (file === undefined && !(await isFile(found))) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(status, { 'content-type': types[extname(found)] ?? 'application/octet-stream' });
      createReadStream(found).pipe(response);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
