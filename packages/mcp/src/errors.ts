import type { ProtocolError } from '@modelcontextprotocol/server';
import { describeError, isInvalidParams, isPromptyardError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import type { JsonObject } from './handlers.js';
import type { ServerSdk } from './sdk.js';

const invalidParams = -32602;
const internalError = -32603;

const rpcBrand = Symbol.for('promptyard.rpc-error');

/**
 * An error that already is a JSON-RPC error (a backend's answer, relayed by the gateway): its code and
 * data reach the client unchanged. Recognised by brand, like `PromptyardError`.
 */
export class RpcError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { readonly [rpcBrand]?: unknown })[rpcBrand] === true;
  }

  override readonly name = 'RpcError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
    Object.defineProperty(this, rpcBrand, { value: true });
  }
}

/**
 * Failures of a tool call a model should read and may act on: `isError` results, not protocol errors.
 * A call the person asked did not approve, or one to a quarantined definition, is one: the model learns it was not made, and why.
 */
const toolResultCodes: ReadonlySet<string> = new Set([
  'BACKEND_UNAVAILABLE',
  'BACKEND_ERROR',
  'TIMEOUT',
  'APPROVAL_DECLINED',
  'QUARANTINED',
]);

/** The `isError` result a failed `tools/call` becomes, or `undefined` when it stays a protocol error. */
export const toolErrorResult = (error: unknown): JsonObject | undefined =>
  isPromptyardError(error) && toolResultCodes.has(error.code)
    ? { content: [{ type: 'text', text: error.message }], isError: true }
    : undefined;

/**
 * The one mapping of failures to JSON-RPC errors: bad requests (unknown names, missing arguments,
 * bad cursors) → -32602 with the error's code and data; other Promptyard failures → -32603, logged as
 * warnings; an `RpcError` keeps its code; anything unexpected → -32603, logged as an error.
 */
export const toProtocolError = (sdk: typeof ServerSdk, error: unknown, logger: Logger, method: string): ProtocolError => {
  const { ProtocolError } = sdk;
  if (error instanceof ProtocolError) return error;
  if (error instanceof RpcError) return new ProtocolError(error.code, error.message, error.data);
  if (isPromptyardError(error)) {
    const data = { code: error.code, ...error.data };
    if (isInvalidParams(error.code)) return new ProtocolError(invalidParams, error.message, data);
    logger.warn(`${method} failed`, { code: error.code, reason: error.message });
    return new ProtocolError(internalError, error.message, data);
  }
  const reason = describeError(error);
  logger.error(`${method} failed unexpectedly`, { reason });
  return new ProtocolError(internalError, `Internal error while handling ${method}: ${reason}. See the server log for details.`);
};
