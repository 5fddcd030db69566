/**
 * What a backend sends that a strict reader refuses but that reads one way only, read that way:
 * - a 2026-07-28 result without `resultType` is complete (the bridge the spec defines for earlier
 *   revisions), for every request the gateway sends (calls, reads, prompts, completions, lists,
 *   discovery): the SDK client refuses such a result, so it is stamped before the client reads it;
 * - an `application/json` answer to a POST holding several messages as JSON lines (notifications,
 *   then the response) is read as the batch it spells (`jsonLinesBatch`, used by `bounded-fetch.ts`).
 * Each time, `deviated` is told, so the server can be warned about once. Anything else is refused
 * (a body of lines that are not JSON objects fails its request with an error saying so).
 */
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** What a backend sent that a strict reader refuses, read anyway. */
export interface Deviation {
  /** Stable per kind of deviation: the gateway warns once per server and kind. */
  readonly kind: 'missing-resultType' | 'json-lines-body';
  /** The request whose answer showed it (when known). */
  readonly method: string | undefined;
}

/** Requests in flight remembered at most: a request never answered (cancelled, timed out) is forgotten past this. */
const rememberedRequests = 4096;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The revision a request's `_meta` envelope names; 2025-era requests carry none. */
const revisionOf = (message: JSONRPCMessage): unknown => {
  const params = (message as { params?: unknown }).params;
  const meta = isObject(params) ? params['_meta'] : undefined;
  return isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
};

/**
 * Makes `transport` read 2026-07-28 results liberally, from the version probe on. Only results of
 * requests sent with a 2026-07-28 envelope are touched: 2025-era results have no `resultType` by
 * design (and the 2025 codec ignores one).
 *
 * Whoever reads the transport (the SDK's version probe, its client, the gateway's own hooks) sets
 * and chains `onmessage`; each handler set is read through the stamp, so every reader, the first
 * included, sees the stamped result. A handler read back and set again is unwrapped first, so
 * chaining never nests stamps, and stamping is idempotent (a request's entry goes with its answer).
 */
export const readLiberally = (transport: Transport, deviated: (deviation: Deviation) => void): void => {
  type Handler = NonNullable<Transport['onmessage']>;
  const modern = new Map<string | number, string>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message && typeof revisionOf(message) === 'string') {
      modern.set(message.id, message.method);
      if (modern.size > rememberedRequests) modern.delete(modern.keys().next().value as string | number);
    }
    return send(message, options);
  };
  const stamp = (message: JSONRPCMessage): void => {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const method = modern.get(message.id);
    if (method === undefined) return;
    modern.delete(message.id);
    const result = (message as { result?: unknown }).result;
    if (!isObject(result) || result['resultType'] !== undefined) return;
    result['resultType'] = 'complete';
    deviated({ kind: 'missing-resultType', method });
  };
  const raw = new WeakMap<Handler, Handler>();
  const stamped = new WeakMap<Handler, Handler>();
  const wrap = (handler: Handler): Handler => {
    let wrapper = stamped.get(handler);
    if (wrapper === undefined) {
      wrapper = (message, extra) => {
        stamp(message);
        handler(message, extra);
      };
      stamped.set(handler, wrapper);
      raw.set(wrapper, handler);
    }
    return wrapper;
  };
  let current = transport.onmessage;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (current === undefined ? undefined : wrap(current)),
    set: (next: Handler | undefined) => {
      current = next === undefined ? undefined : (raw.get(next) ?? next);
    },
  });
};

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/**
 * A body of several JSON objects, one a line, as the JSON array (a batch) of them; `undefined` for
 * one JSON value (however laid out); `unreadable` for lines that are not each an object (nothing to
 * guess from). Only a body with a line after its first newline is parsed here: a compact body costs
 * one byte scan.
 */
export const jsonLinesBatch = (body: Uint8Array): string | 'unreadable' | undefined => {
  const newline = body.indexOf(NEWLINE);
  if (newline === -1 || decoder.decode(body.subarray(newline)).trim() === '') return undefined;
  const text = decoder.decode(body);
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // Not one value: perhaps one a line.
  }
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  try {
    return lines.every((line) => isObject(JSON.parse(line))) ? `[${lines.join(',')}]` : 'unreadable';
  } catch {
    return 'unreadable';
  }
};

/** A JSON-RPC error failing request `id`, answered with a body `jsonLinesBatch` found unreadable. */
export const unreadableResponse = (id: string | number, server: string): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32603,
    message: `Server "${server}" answered with an application/json body that is neither one JSON message nor one JSON message a line; the gateway cannot read it. Its maintainers should send one JSON-RPC message, or a text/event-stream.`,
    data: { server },
  },
});
