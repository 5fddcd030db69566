import type { Logger } from '@promptyard/core';
import { toProtocolError } from '../errors.js';
import { serializedReply } from '../handlers.js';
import type { ClientPeer, JsonObject, McpHandlers, McpRelay, RelayChannel, RequestContext, SerializedListPage } from '../handlers.js';
import type { ServerSdk } from '../sdk.js';
import type { TraceContext } from '../telemetry/tracing-types.js';
import { isObject } from '../json-shapes.js';

const internalError = -32603;

/** An id the SDK's request schema takes: a string or an integer. */
const isRequestId = (id: unknown): boolean => typeof id === 'string' || Number.isSafeInteger(id);

/** Arguments the SDK's `prompts/get` schema accepts as they are: absent, or an object of strings. */
const plainArguments = (value: unknown): value is Readonly<Record<string, string>> | undefined => {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key) && typeof value[key] !== 'string') return false;
  return true;
};

/**
 * The params of a `prompts/get` the SDK would take as they are and whose context needs nothing but
 * cancellation: a name and string arguments, nothing else (no `_meta`, so no progress token, trace
 * context or envelope). Anything else, malformed params included, takes the full path, which
 * answers it as before.
 */
const plainGet = (
  message: JsonObject,
): { readonly name: string; readonly args: Readonly<Record<string, string>> | undefined } | undefined => {
  if (!isRequestId(message['id'])) return undefined;
  const params = message['params'];
  if (!isObject(params)) return undefined;
  const name = params['name'];
  const args = params['arguments'];
  if (typeof name !== 'string' || !plainArguments(args)) return undefined;
  for (const key in params) if (key !== 'name' && key !== 'arguments') return undefined;
  return { name, args };
};

/** The cursor of a `prompts/list` the SDK would take as it is and no caller's identity concerns; `null` when it is not one. */
const plainListCursor = (message: JsonObject): string | undefined | null => {
  if (!isRequestId(message['id'])) return null;
  const params = message['params'];
  if (params === undefined) return undefined;
  if (!isObject(params)) return null;
  for (const key in params) if (key !== 'cursor') return null;
  const cursor = params['cursor'];
  return cursor === undefined || typeof cursor === 'string' ? cursor : null;
};

/**
 * One relayed get's context. Its signal is made on first read (an AbortSignal is not free, and
 * most gets never read it); a `notifications/cancelled` aborts it, and a cancelled get is not answered.
 */
class RelayedGet implements RequestContext {
  readonly client: ClientPeer;
  readonly connection: ClientPeer | undefined;
  readonly trace: TraceContext | undefined;
  cancelled = false;
  #controller: AbortController | undefined;

  constructor(client: ClientPeer, connection: ClientPeer | undefined, trace: TraceContext | undefined) {
    this.client = client;
    this.connection = connection;
    this.trace = trace;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  cancel(reason: string): void {
    this.cancelled = true;
    this.#controller?.abort(new Error(reason));
  }
}

/**
 * `prompts/get` and `prompts/list` served beside the SDK: on a 2025-era stdio connection every message
 * passes the relay first, and a plain get (see `plainGet`) is answered here, from the same handler and
 * with the same error mapping as the SDK path, without the SDK's per-request work — the request
 * schema's parse, an AbortController, the handler context with its closures, and a chain of promises
 * (a large share of the server's own CPU per get: bench/prompts.bench.ts). A plain list is answered with the page's JSON as the handlers keep it
 * (`serializedPage`), written as is. Only for handlers whose `get` needs its context's signal alone
 * (`getNeedsSignalOnly`).
 */
export const createPromptRelay = (handlers: McpHandlers, sdk: typeof ServerSdk, logger: Logger): McpRelay => {
  const { serializedPage } = handlers.prompts;
  const errorOf = (error: unknown, method: string): JsonObject => {
    const mapped = toProtocolError(sdk, error, logger, method);
    const code = Number.isSafeInteger(mapped.code) ? mapped.code : internalError;
    return { code, message: mapped.message, ...(mapped.data === undefined ? {} : { data: mapped.data }) };
  };

  /** A list page as the SDK path answers it, its text made from the page's kept JSON; the object form only if something reads it. */
  const listReply = (id: unknown, page: SerializedListPage): JsonObject => {
    const cursor = page.nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(page.nextCursor)}`;
    return {
      jsonrpc: '2.0',
      id,
      get result() {
        return { prompts: JSON.parse(page.items) as unknown, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      },
      [serializedReply]: `{"result":{"prompts":${page.items}${cursor}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
    };
  };

  return {
    methods: serializedPage === undefined ? ['prompts/get'] : ['prompts/get', 'prompts/list'],
    open: (client) => {
      const peer: ClientPeer = client ?? { label: 'request', session: {} };
      const inFlight = new Map<unknown, RelayedGet>();
      const channel: RelayChannel = {
        offer: (message, reply, trace) => {
          const method = message['method'];
          if (method === 'prompts/list') {
            if (serializedPage === undefined) return false;
            const cursor = plainListCursor(message);
            if (cursor === null) return false;
            trace?.();
            try {
              reply(listReply(message['id'], serializedPage(cursor)));
            } catch (error) {
              reply({ jsonrpc: '2.0', id: message['id'], error: errorOf(error, 'prompts/list') });
            }
            return true;
          }
          if (method === 'notifications/cancelled') {
            const params = message['params'];
            if (!isObject(params)) return false;
            const get = inFlight.get(params['requestId']);
            if (get === undefined) return false;
            inFlight.delete(params['requestId']);
            get.cancel(typeof params['reason'] === 'string' ? params['reason'] : 'cancelled by the client');
            return true;
          }
          if (method !== 'prompts/get') return false;
          const plain = plainGet(message);
          if (plain === undefined) return false;
          const id = message['id'];
          const get = new RelayedGet(peer, client, trace?.());
          inFlight.set(id, get);
          const settle = (response: JsonObject): void => {
            if (inFlight.get(id) === get) inFlight.delete(id);
            if (!get.cancelled) reply(response);
          };
          let answer: Promise<JsonObject>;
          try {
            answer = handlers.prompts.get(plain.name, plain.args, get);
          } catch (error) {
            answer = Promise.reject(error);
          }
          answer.then(
            (result) => settle({ jsonrpc: '2.0', id, result }),
            (error: unknown) => settle({ jsonrpc: '2.0', id, error: errorOf(error, 'prompts/get') }),
          );
          return true;
        },
        close: () => {
          for (const get of inFlight.values()) get.cancel('the client disconnected');
          inFlight.clear();
        },
      };
      return channel;
    },
  };
};

/** Two relays as one: each message is offered to `first`, then to `second`. */
export const joinRelays = (first: McpRelay, second: McpRelay | undefined): McpRelay =>
  second === undefined
    ? first
    : {
        methods: [...first.methods, ...second.methods],
        open: (client) => {
          const a = first.open(client);
          const b = second.open(client);
          return {
            offer: (message, reply, trace) => a.offer(message, reply, trace) || b.offer(message, reply, trace),
            close: () => {
              a.close();
              b.close();
            },
          };
        },
      };
