import { AsyncLocalStorage } from 'node:async_hooks';
import { PromptyardError } from '@promptyard/core';
import type { Metrics } from '@promptyard/core';
import type { BackendCallSpan, ClientPeer, McpTracing } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';
import type { CallContext } from './call-context.js';
import { translateError } from './call-errors.js';
import type { UpstreamRequestOptions } from '../sdk/upstream.js';

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
export class PeerRequests {
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

  /** Counts a call in flight on `backend` and remembers its client, for the backend's own requests; returns the release. */
  track(backend: Backend, peer: ClientPeer | undefined): () => void {
    const release = this.hold(backend, peer);
    if (this.metrics === undefined) return release;
    const done = this.metrics.backendCall(backend.id);
    return () => {
      done();
      release();
    };
  }

  private hold(backend: Backend, peer: ClientPeer | undefined): () => void {
    backend.inFlight++;
    if (peer === undefined) return () => void backend.inFlight--;
    this.lastPeer = peer;
    const peers = this.inFlightPeers.get(backend) ?? [];
    peers.push(peer);
    this.inFlightPeers.set(backend, peers);
    return () => {
      backend.inFlight--;
      const index = peers.lastIndexOf(peer);
      if (index >= 0) peers.splice(index, 1);
      // A backend replaced on reload leaves no entry behind.
      if (peers.length === 0 && this.inFlightPeers.get(backend) === peers) this.inFlightPeers.delete(backend);
    };
  }

  /** Runs `call` against `backend` inside the caller's context, tracked, with failures translated for the client. */
  forward<T>(
    backend: Backend,
    what: string,
    timeoutMs: number,
    context: CallContext,
    call: (options: UpstreamRequestOptions) => Promise<T>,
  ): Promise<T> {
    // Not async itself: without traces a call takes no extra turn for this check.
    if (this.tracing !== undefined && context.trace !== undefined)
      return this.forwardTraced(this.tracing, backend, what, timeoutMs, context, call);
    return this.forwardAs(backend, what, timeoutMs, context, call, undefined);
  }

  /** A call in a CLIENT span, child of the request's: `what` is `method "target"` (a tool, prompt or resource). */
  private async forwardTraced<T>(
    tracing: McpTracing,
    backend: Backend,
    what: string,
    timeoutMs: number,
    context: CallContext,
    call: (options: UpstreamRequestOptions) => Promise<T>,
  ): Promise<T> {
    const space = what.indexOf(' ');
    const method = space === -1 ? what : what.slice(0, space);
    const target = space === -1 ? undefined : what.slice(space + 2, -1);
    const params = target === undefined ? undefined : method === 'resources/read' ? { uri: target } : { name: target };
    const span = tracing.backendCall(context.trace, { method, params, backend: backend.id });
    try {
      const result = await this.forwardAs(backend, what, timeoutMs, context, call, span);
      span.end((result as { isError?: unknown } | undefined)?.isError === true ? 'tool_error' : undefined);
      return result;
    } catch (error) {
      span.end(errorTypeOf(error));
      throw error;
    }
  }

  private async forwardAs<T>(
    backend: Backend,
    what: string,
    timeoutMs: number,
    context: CallContext,
    call: (options: UpstreamRequestOptions) => Promise<T>,
    span: BackendCallSpan | undefined,
  ): Promise<T> {
    const upstream = backend.upstream;
    const release = this.track(backend, context.peer);
    try {
      // Only a 2026-07-28 backend asks its client from inside the call's own async flow (input_required
      // rounds), where the context names the caller exactly; a 2025-era backend's requests arrive from
      // its transport, outside any call. AsyncLocalStorage turns on promise hooks for the whole
      // process (≈3% of the gateway's CPU at full load on Node 20), so it is entered only when it helps.
      if (backend.era !== 'modern') return await call(traced(requestOptions(timeoutMs, context), span));
      if (context.multiRound !== undefined) return await call(traced(passThroughOptions(timeoutMs, context), span));
      return await this.context.run(context, () => call(traced(requestOptions(timeoutMs, context), span)));
    } catch (error) {
      throw translateError(backend, what, timeoutMs, error, upstream);
    } finally {
      release();
    }
  }
}
