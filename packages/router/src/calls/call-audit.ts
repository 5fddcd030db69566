/**
 * The audit line of each call the gateway decides on (`[audit]`): begun when the call arrives, ended
 * with what was decided — allowed, failed, quarantined, approved, declined — and how long it took.
 * Never the arguments' values: their digest. Without a trail, `begin` costs nothing.
 */
import type { AuditDecision, AuditEntry, AuditTrail } from '@promptyard/core';
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
  private queue: (() => void)[] = [];

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
    let ended = false;
    return {
      end: (decision, reason) => {
        if (ended) return;
        ended = true;
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        this.defer(() => trail.record(this.entry(call, context, decision, reason, durationMs)));
      },
    };
  }

  /** The line's fields; the arguments' digest is taken here, after the answer went out. */
  private entry(
    call: AuditedCall,
    context: CallContext,
    decision: AuditDecision,
    reason: string | undefined,
    durationMs: number,
  ): AuditEntry {
    const { identity, trace } = context;
    return {
      ...(identity === undefined ? {} : { identity: identity.subject, client: identity.clientId }),
      profile: this.profile,
      server: call.server,
      kind: call.kind,
      name: call.name,
      argumentsDigest: argumentsDigest(call.args),
      decision,
      ...(reason === undefined ? {} : { reason }),
      durationMs,
      ...(trace === undefined || this.tracing === undefined ? {} : { traceId: this.tracing.traceId(trace) }),
    };
  }

  /**
   * Lines are made after the event loop's current turn, once the call's answer is on its way: the
   * digest and the line cost the caller no latency. (Measured: on the stdio echo bench, made in the
   * turn that answers they added ~5% to p50; see bench/README.md.)
   */
  private defer(record: () => void): void {
    this.queue.push(record);
    if (this.queue.length > 1) return;
    setImmediate(() => {
      const records = this.queue;
      this.queue = [];
      for (const each of records) each();
    });
  }
}
