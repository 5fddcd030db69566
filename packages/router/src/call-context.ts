import type { ClientPeer } from '@promptyard/mcp';

/** A request's downstream context: who asked, progress to forward, cancellation. */
export interface CallContext {
  readonly peer?: ClientPeer | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly progressToken?: string | number | undefined;
  readonly onProgress?: ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
}
