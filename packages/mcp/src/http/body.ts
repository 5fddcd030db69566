import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf, sendJsonError } from './messages.js';

/** A body the front already answered (over the limit, or not JSON): the request goes no further. */
export const refusedBody: unique symbol = Symbol('refused body');

/** Only a JSON POST has a body the front reads: anything else goes to the SDK as it came. */
export const hasJsonBody = (req: IncomingMessage): boolean =>
  req.method === 'POST' && (headerOf(req, 'content-type') ?? '').includes('json');

/** The request body; `undefined` once it passes `limit` bytes (the rest is not kept), `null` if the client went away first. */
export const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('close', () => resolve(null));
    req.once('error', reject);
  });

/** The body parsed once, for the relay and the SDK alike; `refusedBody` once the refusal is written. */
export const parseBody = (res: ServerResponse, text: string | undefined, maxBodyBytes: number): unknown => {
  if (text === undefined) {
    sendJsonError(res, 413, -32600, `Request body is over the ${maxBodyBytes}-byte limit ([transport] max_body_bytes).`);
    return refusedBody;
  }
  try {
    return JSON.parse(text);
  } catch {
    sendJsonError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    return refusedBody;
  }
};
