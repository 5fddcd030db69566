/**
 * `--loose`: a test backend answers 2026-07-28 requests the way some servers in the field do, with
 * what a strict reader refuses but that reads one way only, in front of the SDK's handler:
 * - `tools/call` results without `resultType` (the SDK's handler writes `"complete"`; it is taken
 *   out), but for the multi-round tools (`test_input_required_result_*`), whose results keep it;
 * - `test_streaming_elicitation` answered with `Content-Type: application/json` holding two JSON
 *   lines, a progress notification (for a token nobody sent, `value` in place of `progress`) and then
 *   the result (without `resultType`);
 * - `server/discover` without `resources.subscribe`, while 2025-era sessions offer subscriptions.
 * 2025-era requests and `subscriptions/listen` pass on untouched.
 */

const encoder = new TextEncoder();

/** A JSON-RPC response with a complete result, without its `resultType`. */
const withoutResultType = (message) => {
  if (message?.result?.resultType !== 'complete') return message;
  const { resultType: _dropped, ...result } = message.result;
  return { ...message, result };
};

/** `response`'s messages passed through `edit`, framed as they came (one JSON body, or SSE events). */
const edited = async (response, edit) => {
  const type = response.headers.get('content-type') ?? '';
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const text = await response.text();
  if (type.startsWith('application/json') && text !== '')
    return new Response(JSON.stringify(edit(JSON.parse(text))), { status: response.status, headers });
  if (!type.startsWith('text/event-stream')) return new Response(text, { status: response.status, headers });
  const events = text.replace(/^data: (.*)$/gm, (_line, data) => {
    try {
      return `data: ${JSON.stringify(edit(JSON.parse(data)))}`;
    } catch {
      return `data: ${data}`;
    }
  });
  return new Response(events, { status: response.status, headers });
};

/** The answer of `test_streaming_elicitation`: JSON lines in an `application/json` body, written one by one. */
const jsonLines = (id) => {
  const lines = [
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'token-abc', total: 100, value: 50 } },
    { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'Streaming complete' }] } },
  ];
  const body = new ReadableStream({
    start: (controller) => {
      controller.enqueue(encoder.encode(`${JSON.stringify(lines[0])}\n`));
      controller.enqueue(encoder.encode(JSON.stringify(lines[1])));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
};

/**
 * @param {boolean} loose whether the backend answers loosely
 * @param {{ fetch(request: Request): Promise<Response> } | undefined} modern the SDK's 2026-07-28 handler
 * @returns {(request: Request) => Promise<Response | undefined>} the loose answer, or undefined to pass the request on
 */
export const looseFront = (loose, modern) => async (request) => {
  if (!loose || modern === undefined || request.method !== 'POST' || request.headers.get('mcp-protocol-version') !== '2026-07-28')
    return undefined;
  const body = await request
    .clone()
    .json()
    .catch(() => undefined);
  if (body?.method === 'tools/call' && body.params?.name === 'test_streaming_elicitation') return jsonLines(body.id ?? null);
  if (body?.method === 'tools/call' && !String(body.params?.name).startsWith('test_input_required_result'))
    return edited(await modern.fetch(request), withoutResultType);
  if (body?.method === 'server/discover')
    return edited(await modern.fetch(request), (message) => {
      if (message?.result?.capabilities?.resources !== undefined) delete message.result.capabilities.resources.subscribe;
      return message;
    });
  return undefined;
};
