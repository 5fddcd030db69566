import type { Metrics } from '@promptyard/core';
import type { BackendCallSpan, ClientPeer, McpTracing, TraceContext } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';
import { stoppedMessage, timeoutMessage, translateError } from './call-errors.js';
import type { CallTarget } from './call-errors.js';

/** Who keeps count of the calls in flight on each backend and of their clients (the backend's own requests go to them). */
export interface CallTracker {
  /** Where each call's duration goes, by backend. */
  readonly metrics: Metrics | undefined;
  /** Counts a call in flight on `backend`; returns what `release` needs to forget its client. */
  hold(backend: Backend, peer: ClientPeer | undefined): ClientPeer[] | undefined;
  release(backend: Backend, peer: ClientPeer | undefined, held: ClientPeer[] | undefined): void;
}

/** The call's CLIENT span, child of the request being served (with traces on). */
export const openSpan = (
  tracing: McpTracing,
  parent: TraceContext | undefined,
  backend: Backend,
  { method, target }: CallTarget,
): BackendCallSpan =>
  tracing.backendCall(parent, {
    method,
    params: target === undefined ? undefined : method === 'resources/read' ? { uri: target } : { name: target },
    backend: backend.id,
  });

/**
 * One call to a backend in flight, on either route a `tools/call` takes (the SDK's, or the relay's
 * JSON-RPC): counted on its backend with its client remembered, timed, in its span, with its
 * deadline, and failing in the same words on both.
 */
export class BackendCall {
  readonly backend: Backend;
  private readonly target: CallTarget;
  readonly timeoutMs: number;
  readonly span: BackendCallSpan | undefined;
  private readonly tracker: CallTracker;
  private readonly peer: ClientPeer | undefined;
  private readonly held: ClientPeer[] | undefined;
  private readonly timed: (() => void) | undefined;
  private readonly started: number;

  constructor(
    tracker: CallTracker,
    backend: Backend,
    target: CallTarget,
    timeoutMs: number,
    peer: ClientPeer | undefined,
    span: BackendCallSpan | undefined,
  ) {
    this.tracker = tracker;
    this.backend = backend;
    this.target = target;
    this.timeoutMs = timeoutMs;
    this.peer = peer;
    this.span = span;
    this.held = tracker.hold(backend, peer);
    this.timed = tracker.metrics?.backendCall(backend.id);
    this.started = backend.calls.start();
  }

  /**
   * The call is over: no longer in flight, its duration and outcome recorded (the metrics, the backend's
   * window of recent calls), its span ended. `errorType`: how it failed (`tool_error`: an `isError`
   * result, `cancelled`: by the client).
   */
  end(errorType?: string): void {
    this.timed?.();
    this.backend.calls.end(this.started, errorType);
    this.tracker.release(this.backend, this.peer, this.held);
    this.span?.end(errorType);
  }

  /** The text of a call that ran past its deadline. */
  timedOut(): string {
    return timeoutMessage(this.backend.id, this.target, this.timeoutMs);
  }

  /** The text of a call whose connection closed under it. */
  stopped(reason: string): string {
    return stoppedMessage(this.backend.id, this.target, reason);
  }

  /** A failure as the client sees it; `upstream` is the connection the call used. */
  failure(error: unknown, upstream: unknown): Error {
    return translateError(this.backend, this.target, this.timeoutMs, error, upstream);
  }
}
