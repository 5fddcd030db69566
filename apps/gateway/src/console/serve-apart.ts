/**
 * `[console] bind`: the console on an address of its own rather than at /console on the gateway's
 * HTTP endpoint — an operator port kept off the clients' one, or a console beside a stdio gateway.
 * It answers only the console's paths (`/` leads there). On a loopback bind the Host header must name
 * a loopback host or `public_url`'s, as the endpoint checks it, so a page that rebinds a name of its
 * own to 127.0.0.1 reaches nothing; long-lived event streams are cut when it closes.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PromptyardError, describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { HttpMount } from '@promptyard/mcp';
import { isLoopbackHost } from '@promptyard/mcp';
import type { ConsoleBind } from '../config/console.js';
import { securityHeaders } from './access/security.js';

export interface ConsoleApart {
  /** Its origin as bound (`http://127.0.0.1:9090`). */
  readonly url: string;
  close(): Promise<void>;
}

/** The hostname a Host header names, brackets and port taken off; `undefined` when there is none. */
const hostnameOf = (host: string | undefined): string | undefined => {
  if (host === undefined || host === '') return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
};

/** On a loopback bind: loopback names and the public URL's host; on any other bind every name (the session cookie is SameSite=Strict). */
const hostAccepted = (bind: ConsoleBind, publicUrl: string | undefined, host: string | undefined): boolean => {
  if (!isLoopbackHost(bind.host)) return true;
  const name = hostnameOf(host);
  if (name === undefined) return false;
  return isLoopbackHost(name) || (publicUrl !== undefined && name === new URL(publicUrl).hostname);
};

const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { ...securityHeaders(), 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
};

const listenError = (error: unknown, bind: ConsoleBind): PromptyardError => {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${bind.host.includes(':') ? `[${bind.host}]` : bind.host}:${bind.port}`;
  const why =
    code === 'EADDRINUSE'
      ? 'the address is in use: pick another port'
      : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
        ? 'this machine has no such address: bind to one of its own (127.0.0.1 for this machine only)'
        : code === 'EACCES'
          ? 'not allowed: ports below 1024 need privileges, pick a higher one'
          : describeError(error);
  return new PromptyardError(
    'CONFIG_INVALID',
    `[console] bind ${where}: ${why}, or remove bind to serve the console at /console on the HTTP endpoint`,
  );
};

export const serveConsoleApart = async (
  mount: HttpMount,
  options: { readonly bind: ConsoleBind; readonly publicUrl?: string | undefined; readonly logger: Logger },
): Promise<ConsoleApart> => {
  const { bind, publicUrl, logger } = options;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hostAccepted(bind, publicUrl, req.headers.host)) {
      answer(res, 403, 'Invalid Host: open the console by a loopback name, or set [console] public_url to the name browsers use.');
      return;
    }
    const pathname = (req.url ?? '/').split('?')[0] as string;
    if (pathname === '/') return void res.writeHead(303, { ...securityHeaders(), location: `${mount.prefix}/` }).end();
    if (pathname !== mount.prefix && !pathname.startsWith(`${mount.prefix}/`)) {
      answer(res, 404, `Not found: the console is at ${mount.prefix}.`);
      return;
    }
    mount.handle(req, res).catch((error: unknown) => {
      logger.error('console request failed', { path: pathname, error: describeError(error) });
      if (!res.headersSent) answer(res, 500, 'The console failed to answer: the gateway log says why.');
      else res.destroy();
    });
  };
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, bind)));
    server.listen(bind.port, bind.host, () => resolve());
  });
  server.on('error', (error) => logger.error('console listener failed', { error: describeError(error) }));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The pages' event streams never end by themselves.
        server.closeAllConnections();
      }),
  };
};
