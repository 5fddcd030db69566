import { canonicalDigest, describeError, PromptyardError } from '@promptyard/core';
import type { AccessPolicy, ApprovalRule, Identity, Logger } from '@promptyard/core';
import type { ClientPeer, JsonObject } from '@promptyard/mcp';
import { WaitingApprovals } from './waiting-approvals.js';

/**
 * Approval (`[[policy]] approve = true`): a person answers, through the client's elicitation, whether
 * a tool call may go ahead. An approval holds for `approve_ttl` for the same caller, profile, tool and
 * arguments (by their canonical digest) under the same rules; without a ttl every call is asked.
 * While a person is asked, the call is listed in `waiting` (for the console).
 */

/** The digest of a call's arguments, as the audit trail and the approvals' cache name them. */
export const argumentsDigest = (args: Readonly<Record<string, unknown>> | undefined): string => canonicalDigest(args ?? {});

export interface ApprovalsOptions {
  readonly logger: Logger;
  /** The clock approvals expire by (ms); `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /** How many approvals are kept at most; the oldest go first. */
  readonly maxCached?: number | undefined;
}

export interface ApprovalRequest {
  readonly rule: ApprovalRule;
  readonly identity?: Identity | undefined;
  readonly profile: string;
  readonly server: string;
  /** The tool as the caller named it. */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>> | undefined;
  /** The client to ask; absent, or without elicitation: nobody can be asked. */
  readonly peer: ClientPeer | undefined;
  readonly signal?: AbortSignal | undefined;
  /** How long the person has to answer. */
  readonly timeoutMs: number;
}

export interface ApprovalOutcome {
  readonly decision: 'approved';
  /** Approved earlier, within the rule's ttl: nobody was asked this time. */
  readonly cached: boolean;
}

const defaultMaxCached = 10_000;
const summaryKeys = 10;
const summaryValueLength = 80;

/** A short JSON of `value`, cut with an ellipsis past `summaryValueLength` characters. */
const shortJson = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > summaryValueLength ? `${text.slice(0, summaryValueLength - 1)}…` : text;
};

/** The arguments as the person reads them: one `key: value` line each, at most `summaryKeys`. */
export const summarizeArguments = (args: Readonly<Record<string, unknown>> | undefined): string => {
  const entries = Object.entries(args ?? {});
  if (entries.length === 0) return '(no arguments)';
  const lines = entries.slice(0, summaryKeys).map(([key, value]) => `  ${key}: ${shortJson(value)}`);
  if (entries.length > summaryKeys) lines.push(`  and ${entries.length - summaryKeys} more`);
  return lines.join('\n');
};

const question = (request: ApprovalRequest): JsonObject => ({
  mode: 'form',
  message: `Approve the call of tool "${request.tool}" on server "${request.server}"? ${request.rule.label} asks a person to approve it first.\nArguments:\n${summarizeArguments(request.args)}`,
  requestedSchema: {
    type: 'object',
    properties: {
      approve: {
        type: 'boolean',
        title: 'Approve this call',
        description: `Yes: the gateway calls "${request.tool}" on "${request.server}" with these arguments. No: the call is refused.`,
      },
    },
    required: ['approve'],
  },
});

const refused = (request: ApprovalRequest, why: string): PromptyardError =>
  new PromptyardError(
    'APPROVAL_DECLINED',
    `The call of tool "${request.tool}" was not made: it needs approval (${request.rule.label}) and was ${why}.`,
    {
      data: { tool: request.tool },
    },
  );

const unaskable = (request: ApprovalRequest): PromptyardError =>
  new PromptyardError(
    'APPROVAL_DECLINED',
    `The call of tool "${request.tool}" needs a person's approval (${request.rule.label}), but this client cannot be asked: use a client that supports elicitation (form mode) — or, for 2026-07-28 clients, one that answers input_required rounds with elicitation — or remove approve from that [[policy]] rule.`,
    { data: { tool: request.tool } },
  );

/** The client's answer to `asking`, unless `timeoutMs` passes or `signal` aborts first. */
const answerWithin = (request: ApprovalRequest, asking: Promise<JsonObject>): Promise<JsonObject> => {
  const { signal, timeoutMs } = request;
  return new Promise<JsonObject>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancelled);
    };
    const cancelled = (): void => {
      done();
      reject(refused(request, 'cancelled before the person answered'));
    };
    const timer = setTimeout(() => {
      done();
      reject(refused(request, `not answered within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    if (signal?.aborted === true) {
      cancelled();
      return;
    }
    signal?.addEventListener('abort', cancelled, { once: true });
    asking.then(
      (answer) => {
        done();
        resolve(answer);
      },
      (error: unknown) => {
        done();
        reject(refused(request, `not asked: the client failed the question (${describeError(error)})`));
      },
    );
  });
};

/** Only an explicit yes approves: `accept` with `approve: true`; decline, cancel or anything else refuses. */
const approves = (answer: JsonObject): boolean => {
  const content = answer['content'];
  return answer['action'] === 'accept' && typeof content === 'object' && content !== null && (content as JsonObject)['approve'] === true;
};

/** Asks for, and remembers, the approvals `[[policy]]` requires of tool calls. */
export class Approvals {
  private readonly policy: AccessPolicy | undefined;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly maxCached: number;
  /** Approvals given with a ttl: key → when they expire; in the order they were given. */
  private readonly granted = new Map<string, number>();
  /** The calls whose person is being asked now. */
  readonly waiting: WaitingApprovals;

  constructor(policy: AccessPolicy | undefined, options: ApprovalsOptions) {
    this.policy = policy;
    this.logger = options.logger;
    this.waiting = new WaitingApprovals(options.logger);
    this.now = options.now ?? Date.now;
    this.maxCached = options.maxCached ?? defaultMaxCached;
  }

  /** The rule that asks for approval of `tool` for this caller; `undefined` (at once without a policy): none. */
  required(identity: Identity | undefined, tool: string, server: string | undefined): ApprovalRule | undefined {
    return this.policy?.approval(identity, 'tool', tool, server);
  }

  /** Resolves when the call is approved (now, or within the rule's ttl); throws `APPROVAL_DECLINED` saying why otherwise. */
  async obtain(request: ApprovalRequest): Promise<ApprovalOutcome> {
    const key = request.rule.ttlMs > 0 ? this.keyOf(request) : undefined;
    if (key !== undefined && this.holds(key)) return { decision: 'approved', cached: true };
    const elicitation = request.peer?.elicitation;
    if (elicitation === undefined) throw unaskable(request);
    const { identity, profile, server, tool, rule } = request;
    const done = this.waiting.add({
      ...(identity === undefined ? {} : { identity: identity.subject }),
      profile,
      server,
      tool,
      rule: rule.label,
    });
    let answer: JsonObject;
    try {
      answer = await answerWithin(request, elicitation(question(request)));
    } finally {
      done();
    }
    if (!approves(answer)) {
      this.logger.debug('approval refused', { tool: request.tool, action: String(answer['action']) });
      throw refused(request, 'declined by the person asked');
    }
    if (key !== undefined) this.grant(key, request.rule.ttlMs);
    return { decision: 'approved', cached: false };
  }

  /** The caller (`null`: stdio), profile, server, tool, arguments and rules an approval binds to. */
  private keyOf(request: ApprovalRequest): string {
    return JSON.stringify([
      request.identity?.subject ?? null,
      request.profile,
      request.server,
      request.tool,
      argumentsDigest(request.args),
      this.policy?.version ?? '',
    ]);
  }

  private holds(key: string): boolean {
    const expires = this.granted.get(key);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.granted.delete(key);
    return false;
  }

  private grant(key: string, ttlMs: number): void {
    this.granted.delete(key);
    this.granted.set(key, this.now() + ttlMs);
    for (const oldest of this.granted.keys()) {
      if (this.granted.size <= this.maxCached) break;
      this.granted.delete(oldest);
    }
  }
}
