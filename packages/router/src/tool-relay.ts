import type { ClientPeer } from '@promptyard/mcp';
import { toolTimeoutMs } from './config-backend.js';
import type { DefaultTimeouts } from './config-backend.js';
import { stoppedMessage, timeoutMessage } from './errors.js';
import type { PeerRequests } from './peer-requests.js';
import type { RouteTable } from './route-table.js';
import { rewriteToolResult, uriMapFor } from './uri-rewrite.js';

export interface RelayRequest {
  readonly id: unknown;
  readonly params: Readonly<Record<string, unknown>>;
}

/** What a relayed call needs of the router: where names go, the timeouts, and the tracking of calls in flight. */
export interface RelayRouting {
  readonly tools: RouteTable['tools'];
  readonly timeouts: DefaultTimeouts;
  readonly peers: PeerRequests;
}

/**
 * The hot path: a `tools/call` from a 2025-era stdio client to a 2025-era stdio backend, relayed as
 * JSON-RPC (name and id rewritten, resource URIs in the result namespaced) instead of through the SDK's server
 * and client. Timeouts, cancellation, crash handling, errors naming the server and the attribution
 * of the backend's own requests work as on the full path. `undefined`: take the full path (unknown
 * name, server not ready or not relayable, or a progress token to forward).
 */
export const relayToolCall = (
  routing: RelayRouting,
  request: RelayRequest,
  peer: ClientPeer | undefined,
  reply: (message: Readonly<Record<string, unknown>>) => void,
): { cancel(reason: string): void } | undefined => {
  const { id, params } = request;
  const name = params['name'];
  if (typeof name !== 'string') return undefined;
  const route = routing.tools.get(name);
  const meta = params['_meta'] as Record<string, unknown> | undefined;
  if (route === undefined || (meta !== undefined && meta['progressToken'] !== undefined)) return undefined;
  const { backend, original } = route;
  const relay = backend.state === 'ready' ? backend.upstreamOrUndefined()?.relay : undefined;
  if (relay === undefined) return undefined;
  const timeoutMs = toolTimeoutMs(backend.config, routing.timeouts);
  const what = `tools/call "${original}"`;
  const failure = (text: string): Record<string, unknown> => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });
  const release = routing.peers.track(backend, peer);
  let finished = false;
  const finish = (): void => {
    finished = true;
    clearTimeout(timer);
    release();
  };
  const call = relay.call({ ...params, name: original }, (response) => {
    if (finished) return;
    finish();
    if (response === undefined) {
      reply(failure(stoppedMessage(backend.id, what, 'connection closed')));
      return;
    }
    const error = response['error'] as { message?: unknown } | undefined;
    if (error !== undefined) reply({ ...response, id, error: { ...error, message: `${backend.id}: ${String(error.message ?? 'error')}` } });
    else if (response['result'] === undefined) reply({ ...response, id });
    else reply({ ...response, id, result: rewriteToolResult(response['result'], uriMapFor(backend.config.prefix)) });
  });
  const timer = setTimeout(() => {
    if (finished) return;
    finish();
    call.cancel(`timed out after ${timeoutMs} ms`);
    reply(failure(timeoutMessage(backend.id, what, timeoutMs)));
  }, timeoutMs);
  return {
    cancel: (reason) => {
      if (finished) return;
      finish();
      call.cancel(reason);
    },
  };
};
