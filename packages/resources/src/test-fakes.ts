/**
 * A loopback llms.txt host for tests and benchmarks (not built, not published), shaped like a real
 * docs site: `ETag` on every file and 304 for a matching `If-None-Match`, an llms.txt and an
 * llms-full.txt, an HTML soft 404 (200 + text/html), a file over any sensible cap, a failing path.
 *
 *   /llms.txt  /llms-full.txt   the files (ETag "v<version>"; `setVersion` changes them)
 *   /soft-404/llms.txt          200 text/html app shell
 *   /huge/llms.txt              chunked, no content-length, `hugeBytes` long
 *   /down/llms.txt              503
 *   /hang/llms.txt              never answers (cancellation)
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDocsSite {
  readonly url: string;
  readonly requests: { readonly path: string; readonly headers: IncomingHttpHeaders; readonly status: number }[];
  setVersion(version: number): void;
  close(): Promise<void>;
}

export const llmsText = (version: number): string =>
  `# Fakelib\n\n> A library that exists only in tests (v${version}).\n\n## Docs\n\n- [Quick start](https://fakelib.test/start.md): install and first steps\n\n## Optional\n\n- [Changelog](https://fakelib.test/changelog.md)\n`;

export const startFakeDocsSite = async (options: { readonly hugeBytes?: number } = {}): Promise<FakeDocsSite> => {
  const requests: FakeDocsSite['requests'] = [];
  let version = 1;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const answer = (status: number, headers: Record<string, string>, body?: string): void => {
      requests.push({ path, headers: req.headers, status });
      res.writeHead(status, headers);
      res.end(body);
    };
    if (req.method !== 'GET') return answer(405, { allow: 'GET' });
    if (path === '/llms.txt' || path === '/llms-full.txt') {
      const etag = `"v${version}${path === '/llms.txt' ? '' : '-full'}"`;
      if (req.headers['if-none-match'] === etag) return answer(304, { etag });
      const body = path === '/llms.txt' ? llmsText(version) : `${llmsText(version)}\n---\n\n# Quick start\n\nEverything, concatenated.\n`;
      return answer(200, { 'content-type': 'text/plain; charset=utf-8', etag, 'cache-control': 'max-age=0' }, body);
    }
    if (path === '/soft-404/llms.txt')
      return answer(200, { 'content-type': 'text/html; charset=utf-8' }, '<!DOCTYPE html><html><body><div id="app"></div></body></html>');
    if (path === '/down/llms.txt') return answer(503, { 'content-type': 'text/plain' }, 'Service Unavailable');
    if (path === '/hang/llms.txt') return void requests.push({ path, headers: req.headers, status: 0 });
    if (path === '/huge/llms.txt') {
      requests.push({ path, headers: req.headers, status: 200 });
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = `${'x'.repeat(1023)}\n`;
      let left = options.hugeBytes ?? 11 * 1024 * 1024;
      const pump = (): void => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (left = 0));
      return pump();
    }
    answer(404, { 'content-type': 'text/plain' }, 'Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setVersion: (next) => (version = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
