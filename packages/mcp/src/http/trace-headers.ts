import type { IncomingMessage } from 'node:http';
import { isObject } from '../json-shapes.js';
import { headerOf } from './messages.js';

/**
 * An HTTP request's W3C `traceparent` (and `tracestate`) header, copied into the JSON-RPC request's
 * `params._meta`, where every serving path (the SDK's handlers, the relay) reads trace context. A
 * `traceparent` already in `_meta` wins: it names the MCP request, the header only the HTTP one.
 */
export const adoptTraceHeaders = (req: IncomingMessage, body: unknown): void => {
  const traceparent = headerOf(req, 'traceparent');
  if (traceparent === undefined || !isObject(body) || typeof body['method'] !== 'string' || body['id'] === undefined) return;
  const params = body['params'] ?? {};
  if (!isObject(params)) return;
  const meta = params['_meta'] ?? {};
  if (!isObject(meta) || meta['traceparent'] !== undefined) return;
  const tracestate = headerOf(req, 'tracestate');
  params['_meta'] = { ...meta, traceparent, ...(tracestate === undefined ? {} : { tracestate }) };
  body['params'] = params;
};
