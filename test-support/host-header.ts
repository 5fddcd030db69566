import { request } from 'node:http';
import { networkInterfaces } from 'node:os';

/**
 * For the black-box tests of a wildcard bind (`--host 0.0.0.0`): the URLs a binary should print for
 * this machine, and a request that carries a Host header of the test's choosing (fetch sets its own).
 */

/** `http://127.0.0.1:<port><path>`, then one URL per non-internal IPv4 address of this machine. */
export const expectedUrls = (port: number, path: string): string[] => [
  `http://127.0.0.1:${port}${path}`,
  ...Object.values(networkInterfaces())
    .flatMap((infos) => infos ?? [])
    .filter((info) => !info.internal && info.family === 'IPv4')
    .map((info) => `http://${info.address}:${port}${path}`),
];

/** `GET <path>` on `url`'s address with the given Host header (and any other headers): the status and body. */
export const getWithHost = (
  url: string,
  path: string,
  host: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const req = request(target, { headers: { ...headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
