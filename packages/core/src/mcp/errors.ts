import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isInvalidParams, isPromptyardError } from '../errors.js';
import type { Logger } from '../logger.js';

/** Maps any failure to the JSON-RPC error a client sees: bad requests → -32602, the rest → -32603. */
export const toProtocolError = (error: unknown, logger: Logger, method: string): ProtocolError => {
  if (error instanceof ProtocolError) return error;
  if (isPromptyardError(error)) {
    if (isInvalidParams(error.code)) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code, ...error.data });
    logger.warn(`${method} failed`, { code: error.code, reason: error.message });
    return new ProtocolError(ProtocolErrorCode.InternalError, error.message, { code: error.code, ...error.data });
  }
  const reason = error instanceof Error ? error.message : String(error);
  logger.error(`${method} failed unexpectedly`, { reason });
  return new ProtocolError(ProtocolErrorCode.InternalError, `Internal error while handling ${method}: ${reason}. See the server log for details.`);
};
