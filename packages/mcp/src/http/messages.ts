import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request header's first value. */
export const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A JSON-RPC error written straight to Node's response, for the checks made before any `Request` exists. */
export const sendJsonError = (
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
};

export const methodNotAllowed = (res: ServerResponse): void => {
  res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
};
