/**
 * The console's files, inside the gateway: htmx, its SSE extension and the stylesheet are read at
 * build time (the bundler inlines `?raw` imports as text), so nothing is fetched from elsewhere at run
 * time and the bundle needs no node_modules. Each is served with a content hash as its ETag.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import htmx from 'htmx.org/dist/htmx.min.js?raw';
import sse from 'htmx-ext-sse/dist/sse.min.js?raw';
import css from './assets/console.css?raw';
import { securityHeaders } from './access/security.js';

interface Asset {
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
}

const asset = (type: string, text: string): Asset => {
  const body = Buffer.from(text, 'utf8');
  return { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
};

const javascript = 'text/javascript; charset=utf-8';

/** A plain mark for the browser tab (without one, every page load asks for /favicon.ico). */
const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M5 12V4h4a2.5 2.5 0 0 1 0 5H5" fill="none" stroke="#fff" stroke-width="2"/></svg>';

/** By file name under `/console/assets/`. */
const consoleAssets: ReadonlyMap<string, Asset> = new Map([
  ['htmx.min.js', asset(javascript, htmx)],
  ['sse.min.js', asset(javascript, sse)],
  ['console.css', asset('text/css; charset=utf-8', css)],
  ['icon.svg', asset('image/svg+xml', icon)],
]);

/** Answers `GET /console/assets/<name>`; false when there is no such file. */
export const serveAsset = (name: string, req: IncomingMessage, res: ServerResponse): boolean => {
  const found = consoleAssets.get(name);
  if (found === undefined) return false;
  const headers = { ...securityHeaders(true), etag: found.etag };
  if (req.headers['if-none-match'] === found.etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  res.writeHead(200, { ...headers, 'content-type': found.type, 'content-length': String(found.body.length) }).end(found.body);
  return true;
};
