import { PromptyardError, closestNames, describeError } from '@promptyard/core';
import { RpcError } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';

// Shared with the stdio relay, which answers with the same words as the full path.
export const timeoutMessage = (server: string, what: string, timeoutMs: number): string =>
  `Server "${server}" did not answer ${what} within ${timeoutMs} ms (raise "timeout"/"tool_timeout" for this server, or [timeouts] in the gateway config).`;

export const stoppedMessage = (server: string, what: string, reason: string): string =>
  `Server "${server}" stopped while handling ${what}: ${reason}. The gateway restarts it; retry shortly.`;

/**
 * A failed call to `backend` as the client sees it: the SDK's timeout → TIMEOUT, a connection that
 * closed (or was replaced) under the call → BACKEND_UNAVAILABLE, the backend's own JSON-RPC error →
 * that error naming the server, anything else → BACKEND_ERROR. `upstream` is the connection the call used.
 */
export const translateError = (backend: Backend, what: string, timeoutMs: number, error: unknown, upstream: unknown): Error => {
  if (error instanceof PromptyardError || error instanceof RpcError) return error;
  const code = (error as { code?: unknown }).code;
  const message = describeError(error);
  // The SDK's own timeout (SdkErrorCode.RequestTimeout); a backend's error that merely mentions a
  // timeout is the backend's, and keeps its code.
  if (code === 'REQUEST_TIMEOUT')
    return new PromptyardError('TIMEOUT', timeoutMessage(backend.id, what, timeoutMs), { data: { server: backend.id } });
  if (code === 'CONNECTION_CLOSED' || backend.state !== 'ready' || backend.upstreamOrUndefined() !== upstream) {
    return new PromptyardError('BACKEND_UNAVAILABLE', stoppedMessage(backend.id, what, message), { data: { server: backend.id } });
  }
  if (typeof code === 'number') return new RpcError(code, `${backend.id}: ${message}`, (error as { data?: unknown }).data);
  return new PromptyardError('BACKEND_ERROR', `Server "${backend.id}" failed ${what}: ${message}`, { data: { server: backend.id } });
};

/** An unknown tool or prompt name: the closest known names, and which servers are down (they may own it). */
export const notFound = (
  kind: 'Tool' | 'Prompt',
  name: string,
  known: Iterable<string>,
  backends: readonly Backend[],
  separator: string,
): PromptyardError => {
  const code = kind === 'Tool' ? 'TOOL_NOT_FOUND' : 'PROMPT_NOT_FOUND';
  const suggestions = closestNames(name, [...known]);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
  // A name under a server that is not serving right now: say so instead of a bare "not found".
  for (const backend of backends) {
    const prefix = backend.config.prefix;
    if (backend.state === 'ready' || prefix === false || !name.startsWith(`${prefix}${separator}`)) continue;
    return new PromptyardError(code, `${kind} "${name}" not found: ${backend.unavailableMessage()}`, {
      data: { name, server: backend.id, state: backend.state },
    });
  }
  const down = backends.filter((backend) => backend.state !== 'ready' && backend.state !== 'disabled').map((backend) => backend.id);
  const downHint = down.length > 0 ? ` (not available right now: ${down.join(', ')})` : '';
  return new PromptyardError(code, `${kind} "${name}" not found.${hint}${downHint}`, { data: { name } });
};
