import type { ClientPeer, TraceContext } from '@promptyard/mcp';
import { toolTimeoutMs } from '../config-backend.js';
import type { DefaultTimeouts } from '../config-backend.js';
import { BackendCall, openSpan } from './backend-call.js';
import type { PeerRequests } from './peer-requests.js';
import { routedArguments } from '../routes/route-table.js';
import type { RouteTable } from '../routes/route-table.js';
import type { Approvals } from './approval.js';
import type { Auditor } from './call-audit.js';
import { rewriteToolResult, uriMapFor } from '../routes/uri-rewrite.js';

/** `error.type` of a backend's JSON-RPC response: its error's code, or `tool_error` for an `isError` result. */
const responseErrorType = (response: Readonly<Record<string, unknown>>): string | undefined => {
  const error = response['error'] as { code?: unknown } | undefined;
  if (error !== undefined) return String(error.code ?? 'error');
  const result = response['result'] as { isError?: unknown } | undefined;
  return result?.isError === true ? 'tool_error' : undefined;
};

export interface RelayRequest {
  readonly id: unknown;
  readonly params: Readonly<Record<string, unknown>>;
}

/** What a relayed call needs of the router: where names go, the timeouts, and the tracking of calls in flight. */
export interface RelayRouting {
  readonly tools: RouteTable['tools'];
  readonly timeouts: DefaultTimeouts;
  readonly peers: PeerRequests;
  /** The surface's audit: each relayed call's decision and outcome. */
  readonly auditor: Auditor;
  /** A call that needs a person's approval takes the full path, which asks. */
  readonly approvals: Approvals | undefined;
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
  trace?: () => TraceContext,
): { cancel(reason: string): void } | undefined => {
  const { id, params } = request;
  const name = params['name'];
  if (typeof name !== 'string') return undefined;
  const route = routing.tools.get(name);
  const meta = params['_meta'] as Record<string, unknown> | undefined;
  if (route === undefined || (meta !== undefined && meta['progressToken'] !== undefined)) return undefined;
  const { backend, original } = route;
  const relay = backend.state === 'ready' ? backend.upstreamOrUndefined()?.relay : undefined;
  if (relay === undefined || routing.approvals?.required(undefined, name, backend.id) !== undefined) return undefined;
  const args = params['arguments'] as Record<string, unknown> | undefined;
  const audit = routing.auditor.begin(
    { kind: 'tool', name, server: backend.id, args },
    routing.auditor.enabled && trace !== undefined ? { trace: trace() } : {},
  );
  const sent =
    route.inject === undefined ? { ...params, name: original } : { ...params, name: original, arguments: routedArguments(route, args) };
  const target = { method: 'tools/call', target: original };
  const failure = (text: string): Record<string, unknown> => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text }], isError: true },
  });
  // With traces on, the call is a CLIENT span (child of the relayed request's), its context sent in `_meta`.
  const tracing = routing.peers.tracing;
  const span = tracing === undefined ? undefined : openSpan(tracing, trace?.(), backend, target);
  const pending = new BackendCall(routing.peers, backend, target, toolTimeoutMs(backend.config, routing.timeouts), peer, span);
  let finished = false;
  const finish = (error?: string, failed?: string): void => {
    finished = true;
    clearTimeout(timer);
    pending.end(error);
    if (failed === undefined) audit.end('allowed');
    else audit.end('failed', failed);
  };
  const call = relay.call(span === undefined ? sent : { ...sent, _meta: span.meta(meta) }, (response) => {
    if (finished) return;
    if (response === undefined) {
      const text = pending.stopped('connection closed');
      finish('connection_closed', text);
      reply(failure(text));
      return;
    }
    const error = response['error'] as { message?: unknown } | undefined;
    finish(responseErrorType(response), error === undefined ? undefined : String(error.message ?? 'error'));
    if (error !== undefined) reply({ ...response, id, error: { ...error, message: `${backend.id}: ${String(error.message ?? 'error')}` } });
    else if (response['result'] === undefined) reply({ ...response, id });
    else reply({ ...response, id, result: rewriteToolResult(response['result'], uriMapFor(backend.config.prefix)) });
  });
  const timer = setTimeout(() => {
    if (finished) return;
    const text = pending.timedOut();
    finish('timeout', text);
    call.cancel(`timed out after ${pending.timeoutMs} ms`);
    reply(failure(text));
  }, pending.timeoutMs);
  return {
    cancel: (reason) => {
      if (finished) return;
      finish('cancelled', `cancelled: ${reason}`);
      call.cancel(reason);
    },
  };
};
