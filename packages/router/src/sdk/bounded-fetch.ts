/**
 * The `fetch` the HTTP transports (Streamable HTTP, legacy SSE) read backends with, bounded by
 * `[limits] max_message_bytes` while the body is read:
 * - an `application/json` body answering a POST is held up to the limit and handed on whole (several
 *   messages written one a line, as the batch they spell: `liberal-results.ts`); over the limit, the
 *   body is cancelled and the SDK reads instead the error that fails the POSTed request(s);
 * - a `subscriptions/listen` answered with newline-delimited JSON (`Content-Type: application/json`,
 *   chunked, one message per line, as some 2026-07-28 servers send it) is bounded line by line and
 *   handed on as the SSE stream the SDK reads: the SDK reads an `application/json` answer with
 *   `response.json()`, which never settles on a stream that stays open;
 * - a `text/event-stream` body goes on event by event (`bounded-sse.ts`);
 * - any other body (an error page, a redirect, OAuth metadata) fails its read past the limit.
 */
import { BoundedLines } from './bounded-lines.js';
import { jsonLinesBatch, unreadableResponse } from './liberal-results.js';
import { boundedEvents } from './bounded-sse.js';
import { methodOf, oversizedResponse } from './message-bounds.js';
import type { JsonRpcId, MessageBounds } from './message-bounds.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

const encoder = new TextEncoder();

/** The ids of the requests a POST carried (a message or a batch), read only when one must be failed. */
const requestIds = (init: RequestInit | undefined): JsonRpcId[] => {
  if (init?.method?.toUpperCase() !== 'POST' || typeof init.body !== 'string') return [];
  try {
    const sent: unknown = JSON.parse(init.body);
    return (Array.isArray(sent) ? sent : [sent])
      .filter((message): message is { id: JsonRpcId } => typeof message === 'object' && message !== null && 'method' in message)
      .map((message) => message.id)
      .filter((id) => typeof id === 'string' || typeof id === 'number');
  } catch {
    return [];
  }
};

const mediaType = (response: Response): string => (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** A JSON body answering `method`, held until it ends; over the limit, the error failing `ids` in its place. */
const boundedJson = (
  bounds: MessageBounds,
  ids: () => readonly JsonRpcId[],
  method: string | undefined,
): TransformStream<Uint8Array, Uint8Array> => {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      if (heldBytes + chunk.length <= bounds.maxBytes) {
        held.push(chunk);
        heldBytes += chunk.length;
        return;
      }
      const failed = ids();
      held = [];
      bounds.oversized({ bytes: heldBytes + chunk.length, where: 'HTTP body', failed: failed[0] });
      if (failed.length === 0)
        return controller.error(new Error(`the body is over [limits] max_message_bytes (${bounds.maxBytes}); it was dropped`));
      const errors = failed.map((id) => oversizedResponse(id, bounds));
      controller.enqueue(encoder.encode(JSON.stringify(errors.length === 1 ? errors[0] : errors)));
      controller.terminate();
    },
    flush(controller) {
      const body = held.length === 1 ? (held[0] as Uint8Array) : Buffer.concat(held);
      held = [];
      const batch = jsonLinesBatch(body);
      const failed = batch === 'unreadable' ? ids() : [];
      if (batch === undefined || (batch === 'unreadable' && failed.length === 0)) return controller.enqueue(body);
      if (batch === 'unreadable') {
        const errors = failed.map((id) => unreadableResponse(id, bounds.server));
        return controller.enqueue(encoder.encode(JSON.stringify(errors.length === 1 ? errors[0] : errors)));
      }
      bounds.deviated?.({ kind: 'json-lines-body', method });
      controller.enqueue(encoder.encode(batch));
    },
  });
};

/**
 * Newline-delimited JSON (a listen stream) in, SSE out: each non-blank line within the limit goes on
 * as one `data:` event as soon as it ends; one over the limit ends the stream.
 */
const boundedJsonLines = (bounds: MessageBounds): TransformStream<Uint8Array, Uint8Array> => {
  let over = false;
  let lines: BoundedLines | undefined;
  return new TransformStream({
    start(controller) {
      lines = new BoundedLines(bounds.maxBytes, {
        line: (text) => {
          const message = text.trim();
          // One event per line: a stray carriage return inside it would end the SSE line early.
          if (message !== '') controller.enqueue(encoder.encode(`data: ${message.replaceAll('\r', '')}\n\n`));
        },
        oversized: (_head, bytes) => {
          over = true;
          bounds.oversized({ bytes, where: 'JSON line', failed: undefined });
        },
      });
    },
    transform(chunk, controller) {
      lines?.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
      if (over) controller.terminate();
    },
    flush() {
      // The last message may end without a newline (a single JSON-RPC error, say).
      lines?.end();
    },
  });
};

/** Any other body: passed on as it comes, failing its read once it passes the limit. */
const boundedBytes = (bounds: MessageBounds): TransformStream<Uint8Array, Uint8Array> => {
  let bytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      bytes += chunk.length;
      if (bytes <= bounds.maxBytes) return controller.enqueue(chunk);
      bounds.oversized({ bytes, where: 'HTTP body', failed: undefined });
      controller.error(new Error(`the body is over [limits] max_message_bytes (${bounds.maxBytes}); it was dropped`));
    },
  });
};

/** How a response's body is read: through `transform`, handed on as `mediaType` when that changes. */
interface Bound {
  readonly transform: TransformStream<Uint8Array, Uint8Array>;
  readonly mediaType?: string;
}

/** The same response with its body read through `bound`. */
const rebody = (response: Response, body: ReadableStream<Uint8Array>, bound: Bound): Response => {
  const headers = new Headers(response.headers);
  if (bound.mediaType !== undefined) {
    headers.set('content-type', bound.mediaType);
    headers.delete('content-length');
  }
  const bounded = new Response(body.pipeThrough(bound.transform), { status: response.status, statusText: response.statusText, headers });
  // Redirect handling reads where the response came from.
  Object.defineProperty(bounded, 'url', { value: response.url });
  return bounded;
};

/** The transform that bounds a response to `init` by its media type. */
const boundFor = (response: Response, init: RequestInit | undefined, bounds: MessageBounds): Bound => {
  const ids = (): JsonRpcId[] => requestIds(init);
  const type = mediaType(response);
  if (type === 'text/event-stream') return { transform: boundedEvents(bounds, ids) };
  if (type !== 'application/json' || !response.ok || init?.method?.toUpperCase() !== 'POST' || typeof init.body !== 'string')
    return { transform: boundedBytes(bounds) };
  const method = methodOf(encoder.encode(init.body.slice(0, 1024)));
  if (method === 'subscriptions/listen') return { transform: boundedJsonLines(bounds), mediaType: 'text/event-stream' };
  return { transform: boundedJson(bounds, ids, method) };
};

/** `inner` (the global fetch by default), every response body read within `bounds`. */
export const boundedFetch =
  (bounds: MessageBounds, inner: Fetch = fetch): Fetch =>
  async (url, init) => {
    const response = await inner(url, init);
    const body = response.body;
    // 101, 204, 205 and 304 have no body to bound (and a Response with one cannot be made).
    if (body === null || [101, 204, 205, 304].includes(response.status)) return response;
    return rebody(response, body, boundFor(response, init, bounds));
  };
