import type { ApprovalRule, Identity } from '@promptyard/core';
import type { ClientPeer } from '@promptyard/mcp';

/** One call put to a person before it is forwarded. */
export interface ApprovalRequest {
  readonly rule: ApprovalRule;
  readonly identity?: Identity | undefined;
  readonly profile: string;
  readonly server: string;
  /** As the caller named it. */
  readonly tool: string;
  readonly args: Record<string, unknown> | undefined;
  readonly peer: ClientPeer | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs: number;
}

/**
 * `[[policy]] approve = true`: which calls need a person's approval, and asking for it (elicitation on
 * 2025-11-25, an `input_required` round on 2026-07-28). `obtain` resolves once approved and throws a
 * `NOT_APPROVED` error saying why otherwise.
 */
export interface ApprovalGate {
  required(identity: Identity | undefined, tool: string, server: string | undefined): ApprovalRule | undefined;
  obtain(request: ApprovalRequest): Promise<{ readonly decision: 'approved'; readonly cached: boolean }>;
}
