import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { ClientPeer, JsonObject, McpRelay, RelayChannel } from '../handlers.js';
import type { ServerSdk } from '../sdk.js';
import { isObject } from '../json-shapes.js';

export interface HttpRelayOptions {
  readonly sdk: typeof ServerSdk;
  readonly relay: McpRelay;
  /** The relay channel of the live 2025-era session `id` (its use counts as the session's), when it exists and belongs to the caller of `req`. */
  readonly sessionChannel: (id: string, req: IncomingMessage) => RelayChannel | undefined;
  readonly serverInfo: { readonly name: string; readonly version: string };
}

/** `true` when the relay answered the request (or will); `false`: take the full path. */
export type HttpRelay = (req: IncomingMessage, res: ServerResponse, body: unknown) => boolean;

/** The 2026-07-28 revision, whose envelope and result encoding the relay translates. */
const modernRevision = '2026-07-28';

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A `tools/call` the SDK's request schema would accept as is (anything unusual takes the full path). */
const plainToolCall = (body: Record<string, unknown>, params: Record<string, unknown>): boolean =>
  (typeof body['id'] === 'string' || Number.isInteger(body['id'])) &&
  typeof params['name'] === 'string' &&
  (params['arguments'] === undefined || isObject(params['arguments'])) &&
  (params['_meta'] === undefined || isObject(params['_meta'])) &&
  params['task'] === undefined;

const writeJson = (res: ServerResponse, message: JsonObject, headers: Readonly<Record<string, string>> = {}): void => {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(message);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
};

/** The one SSE event a client that accepts only `text/event-stream` gets, framed as the SDK frames it. */
const writeSse = (res: ServerResponse, message: JsonObject): void => {
  if (res.destroyed || res.headersSent) return;
  res
    .writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' })
    .end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
};

/** Whether an Accept header takes `application/json` (no header, or a wildcard, does). */
const acceptsJson = (accept: string | undefined): boolean =>
  accept === undefined ||
  accept.includes('application/json') ||
  accept.includes('*/*') ||
  accept.includes('application/*') ||
  !accept.includes('text/event-stream');

/** What the relay's steps read: made once per endpoint. */
interface Relaying extends HttpRelayOptions {
  /** The `_meta` keys of a 2026-07-28 envelope, lifted before the message is relayed. */
  readonly envelopeKeys: readonly string[];
  readonly supported: readonly string[];
}

/** A valid 2025-11-25 session request, as the SDK's session transport checks it, to the session's channel. */
const relayLegacy = (
  relaying: Relaying,
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
  params: Record<string, unknown>,
): boolean => {
  const sessionId = header(req.headers, 'mcp-session-id');
  if (sessionId === undefined) return false;
  const accept = header(req.headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = header(req.headers, 'mcp-protocol-version');
  if (version !== undefined && !relaying.supported.includes(version)) return false;
  if (body['method'] === 'tools/call' && !plainToolCall(body, params)) return false;
  const channel = relaying.sessionChannel(sessionId, req);
  if (channel === undefined) return false;
  if (body['method'] === 'notifications/cancelled') {
    if (body['id'] !== undefined || !channel.offer(body, () => {})) return false;
    res.writeHead(202).end();
    return true;
  }
  return channel.offer(body, (reply) => writeJson(res, reply, { 'mcp-session-id': sessionId }));
};

/** A 2026-07-28 result as the SDK's codec encodes it: `resultType` and the server's identity stamped. */
const encodeModern = (relaying: Relaying, reply: JsonObject): JsonObject => {
  const error = reply['error'];
  if (isObject(error)) return error['code'] === -32002 ? { ...reply, error: { ...error, code: -32602 } } : reply;
  const result = reply['result'];
  if (!isObject(result)) return reply;
  const { sdk, serverInfo } = relaying;
  const stamped: Record<string, unknown> = result['resultType'] === undefined ? { ...result, resultType: 'complete' } : { ...result };
  const meta = stamped['_meta'];
  if (meta === undefined) stamped['_meta'] = { [sdk.SERVER_INFO_META_KEY]: serverInfo };
  else if (isObject(meta) && meta[sdk.SERVER_INFO_META_KEY] === undefined)
    stamped['_meta'] = { ...meta, [sdk.SERVER_INFO_META_KEY]: serverInfo };
  return { ...reply, result: stamped };
};

/** Whether a 2026-07-28 request's envelope lets the relay take it: the standard headers present, and a client that can be asked nothing. */
const relayableModern = (relaying: Relaying, req: IncomingMessage, params: Record<string, unknown>): boolean => {
  // The standard headers the SDK's ladder requires (the classifier checked those present against the body).
  if (header(req.headers, 'mcp-protocol-version') === undefined || header(req.headers, 'mcp-method') === undefined) return false;
  if (header(req.headers, 'mcp-name')?.trim() !== params['name']) return false;
  if ('inputResponses' in params || 'requestState' in params) return false;
  const meta = params['_meta'];
  if (!isObject(meta)) return false;
  const capabilities = meta[relaying.sdk.CLIENT_CAPABILITIES_META_KEY];
  return (
    isObject(capabilities) &&
    capabilities['sampling'] === undefined &&
    capabilities['elicitation'] === undefined &&
    capabilities['roots'] === undefined
  );
};

const relayModern = (
  relaying: Relaying,
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
  params: Record<string, unknown>,
  revision: string | undefined,
): boolean => {
  // The encoding below is 2026-07-28's; a later revision takes the full path.
  if (revision !== modernRevision || !plainToolCall(body, params) || !relayableModern(relaying, req, params)) return false;
  const rest: Record<string, unknown> = { ...(params['_meta'] as Record<string, unknown>) };
  for (const key of relaying.envelopeKeys) delete rest[key];
  const { _meta: _envelope, ...bare } = params;
  const message = { ...body, params: Object.keys(rest).length === 0 ? bare : { ...bare, _meta: rest } };
  // Each 2026-07-28 request is its own connection; its client can be asked nothing.
  const client: ClientPeer = { label: 'request (2026-07-28)', session: {} };
  const channel = relaying.relay.open(client);
  const write = acceptsJson(header(req.headers, 'accept')) ? writeJson : writeSse;
  let answered = false;
  const taken = channel.offer(message, (reply) => {
    answered = true;
    write(res, encodeModern(relaying, reply));
  });
  if (!taken) return false;
  // Closing the request's stream cancels it on this revision.
  res.once('close', () => {
    if (!answered) channel.close();
  });
  return true;
};

/**
 * The HTTP front's hot path, parallel to the stdio relay: a `tools/call` that no feature of the SDK's
 * server path concerns is handed to the relay as JSON-RPC and answered with one JSON body. Only
 * requests the full path would serve exactly so are taken — a valid 2025-11-25 session request
 * (Accept, Content-Type, protocol version and session as the SDK's session transport checks them), or
 * a 2026-07-28 request whose envelope and standard headers pass the SDK's ladder and whose client
 * can answer no server→client request (those need the full path's `input_required` rounds). The
 * envelope is lifted and the result encoded as the SDK's 2026-07-28 codec does. Everything else, and
 * whatever the relay declines (unknown names, progress tokens, backends it cannot relay to), takes the
 * full path. Host, origin, token, rate and body-size checks happen before, as for every request.
 */
export const createHttpRelay = (options: HttpRelayOptions): HttpRelay => {
  const { sdk } = options;
  const relaying: Relaying = {
    ...options,
    envelopeKeys: [sdk.PROTOCOL_VERSION_META_KEY, sdk.CLIENT_INFO_META_KEY, sdk.CLIENT_CAPABILITIES_META_KEY, sdk.LOG_LEVEL_META_KEY],
    supported: sdk.SUPPORTED_PROTOCOL_VERSIONS,
  };
  return (req, res, body) => {
    if (!isObject(body) || body['jsonrpc'] !== '2.0' || 'result' in body || 'error' in body) return false;
    const method = body['method'];
    if (method !== 'tools/call' && method !== 'notifications/cancelled') return false;
    const params = body['params'];
    if (!isObject(params) || !sdk.isJsonContentType(header(req.headers, 'content-type'))) return false;
    // No envelope claim: a 2025-era message, as the SDK's classifier routes it (a header naming a
    // modern revision, which it would reject, is not a supported session version either).
    const meta = params['_meta'];
    if (!isObject(meta) || !(sdk.PROTOCOL_VERSION_META_KEY in meta)) return relayLegacy(relaying, req, res, body, params);
    if (method !== 'tools/call') return false;
    // A claim: the SDK's own classifier checks the envelope and the headers against the body.
    const outcome = sdk.classifyInboundRequest({
      httpMethod: 'POST',
      body,
      ...optional('protocolVersionHeader', header(req.headers, 'mcp-protocol-version')),
      ...optional('mcpMethodHeader', header(req.headers, 'mcp-method')),
      ...optional('mcpNameHeader', header(req.headers, 'mcp-name')),
    });
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.classification.era !== 'modern') return false;
    return relayModern(relaying, req, res, body, params, outcome.classification.revision);
  };
};

const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
