/**
 * A `subscriptions/listen` stream framed as newline-delimited JSON (`Content-Type: application/json`,
 * chunked, one JSON-RPC message per line — what some 2026-07-28 servers send), re-framed as the SSE
 * stream the SDK reads. The SDK reads an `application/json` answer with `response.json()`, which never
 * settles on a stream that stays open: the acknowledgement would never arrive. Passed as the HTTP
 * transport's `fetch`; every other request and answer goes through untouched.
 */
import type { FetchLike } from '@modelcontextprotocol/client';

/** Whether the POST body is one `subscriptions/listen` request (the SDK sends a JSON string). */
const isListenRequest = (init: RequestInit | undefined): boolean => {
  const body = init?.body;
  // A cheap test first: every other request's body is left unparsed.
  if (init?.method !== 'POST' || typeof body !== 'string' || !body.includes('subscriptions/listen')) return false;
  try {
    const message = JSON.parse(body) as unknown;
    return typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'subscriptions/listen';
  } catch {
    return false;
  }
};

const isJson = (contentType: string | null): boolean => contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/**
 * JSON lines in, SSE events out: each non-blank line becomes one `data:` event. A partial line is kept
 * as the chunks that hold it and joined once its end arrives, so reading stays linear in the bytes.
 */
const jsonLinesToEvents = (): TransformStream<Uint8Array, Uint8Array> => {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial: string[] = [];
  const emit = (line: string, controller: TransformStreamDefaultController<Uint8Array>): void => {
    const trimmed = line.trim();
    // One event per line: a stray carriage return inside it would end the SSE line early.
    if (trimmed !== '') controller.enqueue(encoder.encode(`data: ${trimmed.replaceAll('\r', '')}\n\n`));
  };
  return new TransformStream({
    transform: (chunk, controller) => {
      const text = decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        partial.push(text.slice(start, end));
        emit(partial.join(''), controller);
        partial = [];
        start = end + 1;
      }
      if (start < text.length) partial.push(text.slice(start));
    },
    flush: (controller) => {
      partial.push(decoder.decode());
      emit(partial.join(''), controller);
      partial = [];
    },
  });
};

/** `inner`, with a listen request's newline-delimited JSON answer handed on as SSE. */
export const withListenFraming =
  (inner: FetchLike): FetchLike =>
  async (url, init) => {
    const response = await inner(url, init);
    if (!response.ok || response.body === null || !isJson(response.headers.get('content-type')) || !isListenRequest(init)) return response;
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    headers.delete('content-length');
    return new Response(response.body.pipeThrough(jsonLinesToEvents()), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
