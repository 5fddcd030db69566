/**
 * What makes a 2025-11-25 session's SSE streams resumable beyond the SDK's transport: a GET stream
 * primed like a POST one (an id and empty data, then `retry`), and a stream whose client went away
 * let go at once, so that the client's `Last-Event-ID` resume finds it free rather than in use.
 */
import { standaloneStreamId } from '@promptyard/core';
import type { MemoryEventStore } from './memory-event-store.js';

/** The `retry` (ms) of every resumable stream: how long a client whose stream dropped waits before it resumes. */
export const sseRetryMs = 1000;

/**
 * Revisions whose streams resume with `Last-Event-ID`: 2025-11-25 (the SDK primes no older client,
 * whose parser cannot take empty data) until 2026-07-28, which dropped resumption.
 */
const resumableRevision = (version: string | null): boolean => version !== null && version >= '2025-11-25' && version < '2026-07-28';

const isEventStream = (response: Response): boolean =>
  response.status === 200 && response.body !== null && (response.headers.get('content-type') ?? '').includes('text/event-stream');

/**
 * What a GET stream starts with: on a fresh one, a priming event at the current end of the session's
 * standalone stream (kept only where this node keeps the events); on a resumed one, the `retry`.
 */
const getStreamPrefix = async (events: MemoryEventStore | undefined, request: Request): Promise<string | undefined> => {
  if (request.method !== 'GET' || !resumableRevision(request.headers.get('mcp-protocol-version'))) return undefined;
  if (request.headers.get('last-event-id') !== null) return `retry: ${sseRetryMs}\n\n`;
  if (events === undefined) return undefined;
  // Taken before the stream opens: whatever is sent from now on replays after this id.
  const id = await events.storeEvent(standaloneStreamId, {});
  return `id: ${id}\nretry: ${sseRetryMs}\ndata: \n\n`;
};

/**
 * `response` with `prefix` first, its body let go (cancelled, which frees the transport's stream) as
 * soon as the request's client disconnects — not at the next event or keep-alive, up to 15 s later.
 */
export const followClient = (request: Request, response: Response, prefix?: string): Response => {
  if (!isEventStream(response)) return response;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      if (prefix !== undefined) controller.enqueue(new TextEncoder().encode(prefix));
    },
    pull: async (controller) => {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const letGo = (): void => void reader.cancel().catch(() => {});
  if (request.signal.aborted) letGo();
  else request.signal.addEventListener('abort', letGo, { once: true });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** A request to a session's transport (`handle`), its SSE response resumable as above; `events`: the session's, when this node keeps them. */
export const serveResumable = async (
  events: MemoryEventStore | undefined,
  request: Request,
  handle: () => Promise<Response>,
): Promise<Response> => {
  const prefix = await getStreamPrefix(events, request);
  return followClient(request, await handle(), prefix);
};
