import type { AuthRefusal } from '@promptyard/core';

/** A refused request: its HTTP status, its RFC 6750 error code (none when no token was sent) and what went wrong. */
export const refuse = (status: AuthRefusal['status'], error: AuthRefusal['error'], description: string): AuthRefusal =>
  error === undefined ? { ok: false, status, description } : { ok: false, status, error, description };

/** The issuer could not be asked: the caller may try again. */
export const unreachable = (): AuthRefusal =>
  refuse(503, 'temporarily_unavailable', 'the authorization server cannot be reached: try again shortly');
