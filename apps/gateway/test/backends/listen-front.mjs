/**
 * How a test backend frames its 2026-07-28 `subscriptions/listen` stream, in front of the SDK's
 * handler (which answers it with SSE):
 *   sse         as the SDK does (the front stands aside);
 *   json-lines  `Content-Type: application/json`, chunked, one JSON-RPC message per line (as some
 *               servers do): the SDK's SSE events re-framed line by line as they come;
 *   none        no listen stream at all: the request is answered with JSON-RPC -32601 (method not
 *               found), as a server that does not offer it would.
 * Every other request passes on.
 */
import { jsonRpcError } from './http-fixture.mjs';

export const listenFramings = ['sse', 'json-lines', 'none'];

/** SSE in, JSON lines out: each event's `data` (priming events carry none) becomes one line. */
const eventsToJsonLines = () => {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  const flushEvents = (controller, final) => {
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = final ? '' : (events.pop() ?? '');
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data !== '') controller.enqueue(encoder.encode(`${data}\n`));
    }
  };
  return new TransformStream({
    transform: (chunk, controller) => {
      buffer += decoder.decode(chunk, { stream: true });
      flushEvents(controller, false);
    },
    flush: (controller) => {
      buffer += decoder.decode();
      flushEvents(controller, true);
    },
  });
};

/**
 * @param {string} framing one of `listenFramings`
 * @param {{ fetch(request: Request): Promise<Response> } | undefined} modern the SDK's 2026-07-28 handler
 * @param {(line: string) => void} log
 * @returns {(request: Request) => Promise<Response | undefined>} the answer to a listen request, or undefined to pass it on
 */
export const listenFront = (framing, modern, log) => {
  if (!listenFramings.includes(framing)) throw new Error(`the listen framing must be ${listenFramings.join(', ')}, not ${framing}`);
  return async (request) => {
    if (framing === 'sse' || modern === undefined || request.method !== 'POST') return undefined;
    const body = await request
      .clone()
      .json()
      .catch(() => undefined);
    if (body?.method !== 'subscriptions/listen') return undefined;
    if (framing === 'none') {
      log('subscriptions/listen refused (no listen stream)');
      return jsonRpcError(200, -32601, 'Method not found: subscriptions/listen', body.id ?? null);
    }
    const response = await modern.fetch(request);
    if (response.body === null || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    log('subscriptions/listen answered as JSON lines');
    const headers = new Headers(response.headers);
    headers.set('content-type', 'application/json');
    return new Response(response.body.pipeThrough(eventsToJsonLines()), { status: response.status, headers });
  };
};
