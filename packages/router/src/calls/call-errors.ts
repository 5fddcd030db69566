import { PromptyardError, describeError } from '@promptyard/core';
import { RpcError } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';

/** A call to a backend as its span and its error texts name it: the method and, for a tool, prompt or resource, what it names. */
export interface CallTarget {
  readonly method: string;
  /** The tool's or prompt's name, or the resource's URI, as the backend knows it. */
  readonly target?: string | undefined;
}

/** `tools/call "echo"`, `completion/complete`: the call as the texts name it. */
const describeCall = ({ method, target }: CallTarget): string => (target === undefined ? method : `${method} "${target}"`);

// Shared with the stdio relay, which answers with the same words as the full path.
export const timeoutMessage = (server: string, call: CallTarget, timeoutMs: number): string =>
  `Server "${server}" did not answer ${describeCall(call)} within ${timeoutMs} ms (raise "timeout"/"tool_timeout" for this server, or [timeouts] in the gateway config).`;

export const stoppedMessage = (server: string, call: CallTarget, reason: string): string =>
  `Server "${server}" stopped while handling ${describeCall(call)}: ${reason}. The gateway restarts it; retry shortly.`;

/**
 * A failed call to `backend` as the client sees it: the SDK's timeout → TIMEOUT, a connection that
 * closed (or was replaced) under the call → BACKEND_UNAVAILABLE, the backend's own JSON-RPC error →
 * that error naming the server, anything else → BACKEND_ERROR. `upstream` is the connection the call used.
 */
export const translateError = (backend: Backend, call: CallTarget, timeoutMs: number, error: unknown, upstream: unknown): Error => {
  if (error instanceof PromptyardError || error instanceof RpcError) return error;
  const code = (error as { code?: unknown }).code;
  const message = describeError(error);
  // The SDK's own timeout (SdkErrorCode.RequestTimeout); a backend's error that merely mentions a
  // timeout is the backend's, and keeps its code.
  if (code === 'REQUEST_TIMEOUT')
    return new PromptyardError('TIMEOUT', timeoutMessage(backend.id, call, timeoutMs), { data: { server: backend.id } });
  if (code === 'CONNECTION_CLOSED' || backend.state !== 'ready' || backend.upstreamOrUndefined() !== upstream) {
    return new PromptyardError('BACKEND_UNAVAILABLE', stoppedMessage(backend.id, call, message), { data: { server: backend.id } });
  }
  if (typeof code === 'number') return new RpcError(code, `${backend.id}: ${message}`, (error as { data?: unknown }).data);
  return new PromptyardError('BACKEND_ERROR', `Server "${backend.id}" failed ${describeCall(call)}: ${message}`, {
    data: { server: backend.id },
  });
};
