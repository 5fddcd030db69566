import type { ProtocolError } from '@modelcontextprotocol/server';
import { isInvalidParams, isPromptyardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ServerSdk } from './sdk.js';

const invalidParams = -32602;
const internalError = -32603;

/** Maps any failure to the JSON-RPC error a client sees: bad requests → -32602, the rest → -32603. */
export const toProtocolError = (sdk: typeof ServerSdk, error: unknown, logger: Logger, method: string): ProtocolError => {
  const { ProtocolError } = sdk;
  if (error instanceof ProtocolError) return error;
  if (isPromptyardError(error)) {
    if (isInvalidParams(error.code)) return new ProtocolError(invalidParams, error.message, { code: error.code, ...error.data });
    logger.warn(`${method} failed`, { code: error.code, reason: error.message });
    return new ProtocolError(internalError, error.message, { code: error.code, ...error.data });
  }
  const reason = error instanceof Error ? error.message : String(error);
  logger.error(`${method} failed unexpectedly`, { reason });
  return new ProtocolError(internalError, `Internal error while handling ${method}: ${reason}. See the server log for details.`);
};
