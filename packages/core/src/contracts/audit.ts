/**
 * The audit trail: one entry per decision the gateway (or a server under `[[policy]]`) takes on a
 * call — who, through which profile, on what, and what was decided — never the arguments' values,
 * only their digest.
 */

/** What was decided about one call. */
export type AuditDecision = 'allowed' | 'denied' | 'quarantined' | 'approved' | 'declined' | 'failed';

export const AUDIT_DECISIONS: readonly AuditDecision[] = ['allowed', 'denied', 'quarantined', 'approved', 'declined', 'failed'];

export interface AuditEntry {
  /** The caller's subject; absent for a stdio client (the user who started the process). */
  readonly identity?: string | undefined;
  /** The caller's OAuth client, when known. */
  readonly client?: string | undefined;
  /** The profile the call came through; `default` for the plain endpoint. */
  readonly profile: string;
  /** The backend server the item belongs to (gateway), when known. */
  readonly server?: string | undefined;
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The name (tool, prompt) or URI (resource) as the caller named it. */
  readonly name: string;
  /** SHA-256 of the RFC 8785 JSON of the arguments (`canonicalDigest`); absent without arguments. */
  readonly argumentsDigest?: string | undefined;
  readonly decision: AuditDecision;
  /** Why, in words for the operator (the rule, the changed definition, the backend's failure). */
  readonly reason?: string | undefined;
  /** From the request's arrival to the decision's outcome (the backend's answer, the refusal). */
  readonly durationMs: number;
  /** The request's trace id, when traced. */
  readonly traceId?: string | undefined;
}

/** Where entries go (`[audit] file`, or stderr); writing never throws at the caller. */
export interface AuditTrail {
  record(entry: AuditEntry): void;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}
