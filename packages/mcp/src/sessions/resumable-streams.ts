/**
 * What makes a 2025-11-25 session's SSE streams resumable beyond the SDK's transport: a GET stream
 * primed like a POST one (an id and empty data, then `retry`), and a stream whose client went away
 * let go — at once when the server hears of it, else when the client resumes it with `Last-Event-ID`
 * (a connection that died silently is not heard of for minutes), so that the resume never finds
 * its stream still in use.
 */
import { standaloneStreamId } from '@promptyard/core';
import { parseEventId } from './memory-event-store.js';
import type { MemoryEventStore } from './memory-event-store.js';

/** A session's streams kept by this node: their events, and how to let go of each stream being written now (by stream id). */
export interface ResumableStreams {
  readonly events: MemoryEventStore;
  readonly live: Map<string, () => void>;
}

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

/** The stream a POST's SSE body belongs to, from the id of its first event (`<streamId>|<seq>`: the priming event, on 2025-11-25). */
const firstEventStream = (chunk: Uint8Array): string | undefined => {
  const id = /^(?:event: message\n)?id: ([^\n]+)\n/.exec(new TextDecoder().decode(chunk))?.[1];
  return id === undefined ? undefined : parseEventId(id)?.streamId;
};

/** Where a followed stream is listed while it is written: `streamId` when known before its first bytes. */
export interface StreamListing {
  readonly live: Map<string, () => void>;
  readonly streamId?: string | undefined;
}

/**
 * `response` with `prefix` first, its body let go (cancelled, which frees the transport's stream) as
 * soon as the request's client disconnects — not at the next event or keep-alive, up to 15 s later —
 * and, with `listing`, listed under its stream while it is written, for a resume to let it go.
 */
export const followClient = (request: Request, response: Response, prefix?: string, listing?: StreamListing): Response => {
  if (!isEventStream(response)) return response;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const letGo = (): void => void reader.cancel().catch(() => {});
  let streamId = listing?.streamId;
  let first = true;
  const unlist = (): void => {
    if (streamId !== undefined && listing?.live.get(streamId) === letGo) listing.live.delete(streamId);
  };
  if (streamId !== undefined) listing?.live.set(streamId, letGo);
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      if (prefix !== undefined) controller.enqueue(new TextEncoder().encode(prefix));
    },
    pull: async (controller) => {
      const { value, done } = await reader.read();
      if (done) {
        unlist();
        controller.close();
        return;
      }
      if (first && listing !== undefined && streamId === undefined) {
        streamId = firstEventStream(value);
        if (streamId !== undefined) listing.live.set(streamId, letGo);
      }
      first = false;
      controller.enqueue(value);
    },
    cancel: (reason) => {
      unlist();
      return reader.cancel(reason);
    },
  });
  if (request.signal.aborted) letGo();
  else request.signal.addEventListener('abort', letGo, { once: true });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

/**
 * A request to a session's transport (`handle`), its SSE response resumable as above; `streams`: the
 * session's, when this node keeps them. A GET first lets go of the connection its stream still has,
 * which its client left (the transport would refuse a second one).
 */
export const serveResumable = async (
  streams: ResumableStreams | undefined,
  request: Request,
  handle: () => Promise<Response>,
): Promise<Response> => {
  const prefix = await getStreamPrefix(streams?.events, request);
  if (streams === undefined) return followClient(request, await handle(), prefix);
  let streamId: string | undefined;
  if (request.method === 'GET') {
    const lastEventId = request.headers.get('last-event-id');
    streamId = lastEventId === null ? standaloneStreamId : await streams.events.getStreamIdForEventId(lastEventId);
    if (streamId !== undefined) streams.live.get(streamId)?.();
  }
  return followClient(request, await handle(), prefix, { live: streams.live, streamId });
};
