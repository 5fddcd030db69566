import type { Identity } from '@promptyard/core';
import type { CallerAccess, ClientPeer, MultiRoundInput, TraceContext } from '@promptyard/mcp';

/** A request's downstream context: who asked, progress to forward, cancellation. */
export interface CallContext {
  readonly peer?: ClientPeer | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  /** A 2026-07-28 client's multi-round request: a 2026-07-28 backend's `input_required` rounds pass through. */
  readonly multiRound?: MultiRoundInput | undefined;
  /** The caller's `[[policy]]`, when one governs it: the meta tools show and call only what it allows. */
  readonly access?: CallerAccess | undefined;
  /** The authenticated caller over HTTP; absent on stdio and without auth (the local user). */
  readonly identity?: Identity | undefined;
  /** With traces on: the span of the request being served, parent of the calls made for it. */
  readonly trace?: TraceContext | undefined;
}
