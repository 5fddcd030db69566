import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';

const isEventStream = (value: unknown): boolean =>
  Array.isArray(value) ? value.some(isEventStream) : String(value ?? '').startsWith('text/event-stream');

/** The content type among `writeHead`'s arguments: a header object (any case) or a flat or paired array. */
const contentTypeOf = (headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): unknown => {
  if (headers === undefined) return undefined;
  if (!Array.isArray(headers)) return Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const pairs = headers.every(Array.isArray)
    ? (headers as unknown as [string, unknown][])
    : headers.flatMap((item, index) => (index % 2 === 0 ? [[String(item), headers[index + 1]] as [string, unknown]] : []));
  return pairs.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
};

/**
 * The endpoint's open SSE streams (2025-11-25 GET streams, streamed answers, 2026-07-28 listens). The
 * SDK's Node adapter passes its headers to `writeHead` at once, where `getHeader` cannot see them, so
 * a tracked response's head is read as it is written. Only with metrics: without, nothing is wrapped.
 */
export const createStreamCounter = (): { track(res: ServerResponse): void; readonly size: number } => {
  const open = new Set<ServerResponse>();
  return {
    track: (res) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        const headers = (typeof args[1] === 'string' ? args[2] : args[1]) as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined;
        if (isEventStream(contentTypeOf(headers) ?? res.getHeader('content-type'))) {
          open.add(res);
          res.once('close', () => open.delete(res));
        }
        return (writeHead as (...parameters: unknown[]) => ServerResponse).apply(this, args);
      } as ServerResponse['writeHead'];
    },
    get size() {
      return open.size;
    },
  };
};
