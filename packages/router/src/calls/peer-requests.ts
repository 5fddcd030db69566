import { AsyncLocalStorage } from 'node:async_hooks';
import { PromptyardError } from '@promptyard/core';
import type { Metrics } from '@promptyard/core';
import type { BackendCallSpan, ClientPeer, McpTracing } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';
import type { CallContext } from './call-context.js';
import { BackendCall, openSpan } from './backend-call.js';
import type { CallTracker } from './backend-call.js';
import type { CallTarget } from './call-errors.js';
import type { UpstreamConnection, UpstreamRequestOptions } from '../sdk/upstream-types.js';

const requestOptions = (timeoutMs: number, context: CallContext): UpstreamRequestOptions => ({
  timeoutMs,
  signal: context.signal,
  onProgress: context.onProgress,
});
/** A 2026-07-28 client's rounds with a 2026-07-28 backend pass through as they are (the backend's `input_required`, the client's answers). */
const passThroughOptions = (timeoutMs: number, context: CallContext): UpstreamRequestOptions => ({
  ...requestOptions(timeoutMs, context),
  multiRound: context.multiRound,
});

/** Options that carry the call's trace context to the backend, with traces on. */
const traced = (options: UpstreamRequestOptions, span: BackendCallSpan | undefined): UpstreamRequestOptions =>
  span === undefined ? options : { ...options, meta: (meta) => span.meta(meta) };

/** `error.type` of a failed call: its JSON-RPC code, else the error's name. */
const errorTypeOf = (error: unknown): string => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'number' || typeof code === 'string') return String(code);
  return error instanceof Error ? error.name : 'Error';
};

/**
 * Which downstream client answers a backend's own requests (sampling, elicitation, roots): calls are
 * forwarded and tracked here, so each backend's calls in flight, their clients and the client seen
 * last are known when the backend asks.
 */
export class PeerRequests implements CallTracker {
  private readonly context = new AsyncLocalStorage<CallContext>();
  private readonly inFlightPeers = new Map<Backend, ClientPeer[]>();
  private lastPeer: ClientPeer | undefined;
  /** Where each call's duration goes, by backend. */
  metrics: Metrics | undefined;
  /** With traces on: each call made for a traced request gets a CLIENT span, its context sent in `_meta`. */
  tracing: McpTracing | undefined;

  /** Which downstream client answers a backend's request: the caller, else the latest caller, else the latest client. */
  async ask(
    backend: Backend,
    what: string,
    ask: (peer: ClientPeer) => Promise<Record<string, unknown>> | undefined,
  ): Promise<Record<string, unknown>> {
    // The caller whose request is in progress answers (even if it cannot: then the backend is told so);
    // a request outside any call goes to the client seen most recently.
    let caller = this.context.getStore()?.peer;
    if (caller === undefined) {
      // A 2025-era request carries nothing that names the call it belongs to. One client with calls in
      // flight on this server: it is theirs. Several: refuse rather than show one client's request
      // (a sampling prompt, an elicitation form) to another.
      const inFlight = this.inFlightPeers.get(backend) ?? [];
      const sessions = new Set(inFlight.map((peer) => peer.session));
      if (sessions.size > 1) {
        throw new PromptyardError(
          'INVALID_REQUEST',
          `Server "${backend.id}" asked for ${what} while ${sessions.size} clients had calls in flight on it; the 2025-11-25 protocol does not say which call it belongs to, so the gateway does not guess. Retry when the other calls have finished.`,
        );
      }
      caller = inFlight.at(-1);
    }
    const peer = caller ?? this.lastPeer;
    const answer = peer === undefined ? undefined : ask(peer);
    if (answer !== undefined) return answer;
    throw new PromptyardError(
      'INVALID_REQUEST',
      `Server "${backend.id}" asked for ${what}, but no connected client can answer it: the client must declare the ${what} capability (a 2026-07-28 client answers as input_required rounds of its call; outside any call, only a client with a session can be asked).`,
    );
  }

  /** Remembers the client most recently seen, for backend requests outside any call. */
  note(peer: ClientPeer): void {
    this.lastPeer = peer;
  }

  forget(peer: ClientPeer): void {
    if (this.lastPeer === peer) this.lastPeer = undefined;
  }

  /** Counts a call in flight on `backend` and remembers its client, for the backend's own requests. */
  hold(backend: Backend, peer: ClientPeer | undefined): ClientPeer[] | undefined {
    backend.inFlight++;
    if (peer === undefined) return undefined;
    this.lastPeer = peer;
    const peers = this.inFlightPeers.get(backend) ?? [];
    peers.push(peer);
    this.inFlightPeers.set(backend, peers);
    return peers;
  }

  release(backend: Backend, peer: ClientPeer | undefined, held: ClientPeer[] | undefined): void {
    backend.inFlight--;
    if (peer === undefined || held === undefined) return;
    const index = held.lastIndexOf(peer);
    if (index >= 0) held.splice(index, 1);
    // A backend replaced on reload leaves no entry behind.
    if (held.length === 0 && this.inFlightPeers.get(backend) === held) this.inFlightPeers.delete(backend);
  }

  /**
   * Runs `call` against `backend` inside the caller's context: tracked, in a CLIENT span when the
   * request is traced, with failures translated for the client.
   */
  async forward<T>(
    backend: Backend,
    target: CallTarget,
    timeoutMs: number,
    context: CallContext,
    call: (options: UpstreamRequestOptions) => Promise<T>,
  ): Promise<T> {
    const tracing = this.tracing;
    const span = tracing === undefined || context.trace === undefined ? undefined : openSpan(tracing, context.trace, backend, target);
    let upstream: UpstreamConnection;
    try {
      upstream = backend.upstream;
    } catch (error) {
      span?.end(errorTypeOf(error));
      throw error;
    }
    const pending = new BackendCall(this, backend, target, timeoutMs, context.peer, span);
    let result: T;
    try {
      result = await this.run(pending, context, call);
    } catch (error) {
      const failure = pending.failure(error, upstream);
      pending.end(context.signal?.aborted === true ? 'cancelled' : errorTypeOf(failure));
      throw failure;
    }
    pending.end((result as { isError?: unknown } | undefined)?.isError === true ? 'tool_error' : undefined);
    return result;
  }

  private run<T>(pending: BackendCall, context: CallContext, call: (options: UpstreamRequestOptions) => Promise<T>): Promise<T> {
    const { timeoutMs, span } = pending;
    // Only a 2026-07-28 backend asks its client from inside the call's own async flow (input_required
    // rounds), where the context names the caller exactly; a 2025-era backend's requests arrive from
    // its transport, outside any call. AsyncLocalStorage turns on promise hooks for the whole
    // process, so it is entered only when it helps.
    if (pending.backend.era !== 'modern') return call(traced(requestOptions(timeoutMs, context), span));
    if (context.multiRound !== undefined) return call(traced(passThroughOptions(timeoutMs, context), span));
    return this.context.run(context, () => call(traced(requestOptions(timeoutMs, context), span)));
  }
}
