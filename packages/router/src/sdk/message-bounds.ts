/**
 * `[limits] max_message_bytes`: what every reader of a backend's messages (stdio lines, HTTP bodies,
 * SSE events) shares — the limit and whom to tell of a message over it, the JSON-RPC error that
 * fails the request such a message answered, and a scanner that finds which request that was from
 * the message's first bytes alone.
 */
import type { Deviation } from './liberal-results.js';

/**
 * A line over the limit still without its newline at this many times the limit is taken for an
 * unbounded stream (a server writing without end): the connection is cut and the server restarted.
 */
export const UNBOUNDED_FACTOR = 4;

/** A message over the limit, dropped by the reader that met it. */
export interface OversizedMessage {
  /** Bytes read of it when it was dropped: more than the limit (the rest was never held). */
  readonly bytes: number;
  /** Where it was read: `stdout line`, `HTTP body`, `SSE event`, `JSON line`. */
  readonly where: string;
  /** The request it failed (the JSON-RPC id the error went to), if it answered one. */
  readonly failed: string | number | undefined;
  /** It did not end within `UNBOUNDED_FACTOR` times the limit: the connection was cut, the server is restarted. */
  readonly unbounded?: true;
}

/** `[limits] max_message_bytes` for one backend. */
export interface MessageLimit {
  /** The backend's id, as errors and logs name it. */
  readonly server: string;
  readonly maxBytes: number;
}

/** One backend connection's bound. */
export interface MessageBounds extends MessageLimit {
  /** Told once per dropped message: logged, counted and shown in `/health` by the backend. */
  readonly oversized: (message: OversizedMessage) => void;
  /** Told when a message that a strict reader refuses was read anyway (`liberal-results.ts`). */
  readonly deviated?: ((deviation: Deviation) => void) | undefined;
}

/** The code of the error that fails a request answered by a message over the limit (JSON-RPC's internal error). */
const OVERSIZED_ERROR_CODE = -32603;

export type JsonRpcId = string | number;

/** A JSON-RPC error response failing request `id`, for a message `bounds` dropped. */
export const oversizedResponse = (id: JsonRpcId, bounds: MessageBounds): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: OVERSIZED_ERROR_CODE,
    message: `Server "${bounds.server}" sent a message of more than ${bounds.maxBytes} bytes, over [limits] max_message_bytes (${bounds.maxBytes}); it was dropped. Raise the limit in the gateway config if this server's answers are meant to be that large.`,
    data: { server: bounds.server, maxMessageBytes: bounds.maxBytes },
  },
});

/** A JSON-RPC error response failing request `id`, in flight when the server's output was cut as unbounded. */
export const unboundedResponse = (id: JsonRpcId, bounds: MessageBounds): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: OVERSIZED_ERROR_CODE,
    message: `Server "${bounds.server}" wrote a line that did not end within ${UNBOUNDED_FACTOR * bounds.maxBytes} bytes (${UNBOUNDED_FACTOR}× [limits] max_message_bytes, ${bounds.maxBytes}); its output was cut and the server is restarted. Retry the request; if this server's answers are meant to be that large, raise the limit in the gateway config.`,
    data: { server: bounds.server, maxMessageBytes: bounds.maxBytes },
  },
});

/** How much of a message's start the scanner reads: serializers write `id` before `result`. */
const SCAN_BYTES = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/** The top-level members of a JSON-RPC message that its first bytes show. */
interface TopLevel {
  id?: JsonRpcId;
  method?: string;
  /** A `result` or `error` member started. */
  answers: boolean;
}

const parseToken = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A short JSON string or number token at `head[start, end)`, or `undefined` for anything else (a long or broken token). */
const tokenValue = (head: Uint8Array, start: number, end: number): unknown =>
  end - start > 512 ? undefined : parseToken(Buffer.from(head.buffer, head.byteOffset + start, end - start).toString('utf8'));

/** The end of the string token starting at `head[start]` (a quote): the index after its closing quote, or -1. */
const stringEnd = (head: Uint8Array, start: number): number => {
  for (let i = start + 1; i < head.length; i++) {
    if (head[i] === BACKSLASH) i++;
    else if (head[i] === QUOTE) return i + 1;
  }
  return -1;
};

/** The end of a number or literal token at `head[start]`. */
const bareEnd = (head: Uint8Array, start: number): number => {
  let i = start;
  while (i < head.length && /[0-9a-zA-Z.+-]/.test(String.fromCharCode(head[i] as number))) i++;
  return i;
};

/**
 * Reads the top-level members of the JSON object `head` begins with (the first bytes of a message),
 * in one pass that tracks strings and nesting depth: the short values of `id` and `method`, and
 * whether a `result` or `error` member began. Nested values are skipped, never parsed.
 */
const scanTopLevel = (head: Uint8Array): TopLevel => {
  const found: TopLevel = { answers: false };
  let depth = 0;
  let key: unknown;
  let expectKey = false;
  for (let i = 0; i < head.length; i++) {
    const byte = head[i] as number;
    if (byte === QUOTE) {
      const end = stringEnd(head, i);
      if (end === -1) break;
      if (depth === 1 && expectKey) key = tokenValue(head, i, end);
      else if (depth === 1 && key === 'id') found.id = tokenValue(head, i, end) as string;
      else if (depth === 1 && key === 'method') found.method = tokenValue(head, i, end) as string;
      i = end - 1;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (byte === 0x7d || byte === 0x5d) {
      if (--depth <= 0) break;
    } else if (depth === 1 && byte === COLON) {
      expectKey = false;
      if (key === 'result' || key === 'error') found.answers = true;
    } else if (depth === 1 && byte === COMMA) {
      expectKey = true;
      key = undefined;
    } else if (depth === 1 && !expectKey && key === 'id' && (byte === 0x2d || (byte >= 0x30 && byte <= 0x39))) {
      const end = bareEnd(head, i);
      const value = tokenValue(head, i, end);
      if (Number.isInteger(value)) found.id = value as number;
      i = end - 1;
    }
    if (found.answers && found.id !== undefined) break;
  }
  return found;
};

/** What a dropped message's first bytes tell of it. */
interface MessageStart {
  /** The request it answers: a response whose `id` came before its payload. */
  readonly answers: JsonRpcId | undefined;
  /** A response (`result` or `error`, no `method`) whose id, if any, is after the payload. */
  readonly response: boolean;
}

/** Reads the first bytes of a message: which request it answers, if they show it (see {@link idAtEnd} for the rest). */
export const messageStart = (head: Uint8Array): MessageStart => {
  const found = scanTopLevel(head.subarray(0, SCAN_BYTES));
  const response = found.answers && found.method === undefined;
  const id = found.id;
  return { answers: response && (typeof id === 'string' || typeof id === 'number') ? id : undefined, response };
};

/** The request a message starting with `head` answers, when its first bytes show it. */
export const answeredRequest = (head: Uint8Array): JsonRpcId | undefined => messageStart(head).answers;

/** How much of a dropped message's end is kept, for an `id` written after the payload (`{"result":…,"jsonrpc":"2.0","id":7}`). */
export const TAIL_BYTES = 256;

/**
 * The top-level `id` a message ends with: only the top-level object's closing brace can follow the
 * id's value at the very end (a nested object's would be followed by its parents' closers).
 */
export const idAtEnd = (tail: Uint8Array): JsonRpcId | undefined => {
  const text = Buffer.from(tail.buffer, tail.byteOffset, tail.length).toString('utf8');
  const match = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})\s*}\s*$/.exec(text);
  if (match?.[1] === undefined) return undefined;
  const id = parseToken(match[1]);
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as JsonRpcId) : undefined;
};

/** The `method` of the request or notification starting with `head`, if its first bytes name it. */
export const methodOf = (head: Uint8Array): string | undefined => {
  const method = scanTopLevel(head.subarray(0, SCAN_BYTES)).method;
  return typeof method === 'string' ? method : undefined;
};

/** The first `SCAN_BYTES` of `chunks`, one buffer. */
export const headOf = (chunks: readonly Uint8Array[]): Uint8Array => {
  const first = chunks[0];
  if (first !== undefined && (first.length >= SCAN_BYTES || chunks.length === 1)) return first;
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (length >= SCAN_BYTES) break;
    parts.push(chunk);
    length += chunk.length;
  }
  return Buffer.concat(parts).subarray(0, SCAN_BYTES);
};
