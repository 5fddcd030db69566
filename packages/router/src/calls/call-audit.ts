/**
 * The audit line of each call the gateway decides on (`[audit]`): begun when the call arrives, ended
 * with what was decided — allowed, failed, quarantined, approved, declined — and how long it took.
 * Never the arguments' values: their digest. Without a trail, `begin` costs nothing.
 */
import type { AuditDecision, AuditTrail } from '@promptyard/core';
import type { McpTracing } from '@promptyard/mcp';
import { argumentsDigest } from './approval.js';
import type { CallContext } from './call-context.js';

export interface CallAudit {
  end(decision: AuditDecision, reason?: string): void;
}

const silent: CallAudit = { end: () => {} };

export interface AuditedCall {
  readonly kind: 'tool' | 'prompt';
  /** As the caller named it. */
  readonly name: string;
  readonly server: string | undefined;
  readonly args: Readonly<Record<string, unknown>> | undefined;
}

/** One profile's audit: its trail (absent: no audit), its name, and the tracing that gives trace ids. */
export class Auditor {
  private readonly trail: AuditTrail | undefined;
  private readonly profile: string;
  private readonly tracing: McpTracing | undefined;

  constructor(trail: AuditTrail | undefined, profile: string, tracing: McpTracing | undefined) {
    this.trail = trail;
    this.profile = profile;
    this.tracing = tracing;
  }

  get enabled(): boolean {
    return this.trail !== undefined;
  }

  begin(call: AuditedCall, context: CallContext): CallAudit {
    const { trail } = this;
    if (trail === undefined) return silent;
    const started = performance.now();
    const { identity, trace } = context;
    const base = {
      ...(identity === undefined ? {} : { identity: identity.subject, client: identity.clientId }),
      profile: this.profile,
      server: call.server,
      kind: call.kind,
      name: call.name,
      argumentsDigest: argumentsDigest(call.args),
      ...(trace === undefined || this.tracing === undefined ? {} : { traceId: this.tracing.traceId(trace) }),
    };
    let ended = false;
    return {
      end: (decision, reason) => {
        if (ended) return;
        ended = true;
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        trail.record({ ...base, decision, ...(reason === undefined ? {} : { reason }), durationMs });
      },
    };
  }
}
