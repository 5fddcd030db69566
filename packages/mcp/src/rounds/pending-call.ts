import { PromptyardError } from '@promptyard/core';
import type { JsonObject, Progress } from '../handlers.js';
import { isObject } from '../json-shapes.js';

/** A request to the client that waits for a round: its embedded form, and who waits for the answer. */
interface Ask {
  readonly method: string;
  readonly params: JsonObject;
  readonly resolve: (answer: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

/** What a round of a call ends with: the call's outcome, or requests for the client. */
export type RoundOutcome =
  | { readonly kind: 'result'; readonly result: JsonObject }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'input'; readonly inputRequests: Readonly<Record<string, { readonly method: string; readonly params: JsonObject }>> };

const keyPrefix: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * One 2026-07-28 call whose handler asked the client something (a backend's sampling, elicitation or
 * roots request): the handler keeps running across the client's retries. The requests it makes are
 * collected into rounds (several made at once → one round with several keys); each retry's answers
 * settle them, and the next round ends with the call's outcome or its next requests. A call the
 * client abandons is cancelled after `timeoutMs` without a retry.
 */
export class PendingCall {
  /** Cancels the handler's work (the upstream call) when the client abandons or cancels it. */
  readonly controller = new AbortController();
  /** Unanswered requests by round key; answered ones leave, missing answers are asked again. */
  private readonly asks = new Map<string, Ask>();
  private outcome: { readonly result: JsonObject } | { readonly error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private wakeScheduled = false;
  private expiry: NodeJS.Timeout | undefined;
  private count = 0;
  private ended = false;
  /** Called when the call is over (finished, cancelled or expired): the registry forgets it. */
  onEnd: (() => void) | undefined;
  /** Reports the handler's progress to the request of the round in progress; nothing between rounds. */
  reporter: ((progress: Progress) => void) | undefined;

  /** What the call is (`tools/call "name"`): a retry must name the same. */
  readonly request: string;
  private readonly timeoutMs: number;

  constructor(request: string, timeoutMs: number) {
    this.request = request;
    this.timeoutMs = timeoutMs;
  }

  /** Starts following the handler's work; its outcome ends the current (or next) round. */
  follow(work: Promise<JsonObject>): void {
    work.then(
      (result) => this.settle({ result }),
      (error: unknown) => this.settle({ error }),
    );
  }

  /** A request for the client, answered when a retry brings its answer. */
  ask(method: string, params: JsonObject): Promise<JsonObject> {
    if (this.outcome !== undefined || this.ended) {
      return Promise.reject(
        new PromptyardError(
          'INVALID_REQUEST',
          `A ${method} request arrived after the 2026-07-28 call it belongs to had ended; such a client can only be asked while its call runs.`,
        ),
      );
    }
    return new Promise<JsonObject>((resolve, reject) => {
      this.asks.set(`${keyPrefix[method] ?? 'input'}-${++this.count}`, { method, params, resolve, reject });
      this.schedule();
    });
  }

  /** Settles the requests the client answered; the others stay to be asked again. Unknown keys are ignored. */
  answer(responses: Readonly<Record<string, unknown>> | undefined): void {
    if (responses === undefined) return;
    for (const [key, ask] of [...this.asks]) {
      const response = responses[key];
      if (!isObject(response)) continue;
      this.asks.delete(key);
      ask.resolve(response);
    }
  }

  /**
   * Waits for the end of a round: the call's outcome, or its open requests. `signal` is the round's
   * request: cancelling it cancels the call.
   */
  async round(signal: AbortSignal, reporter: ((progress: Progress) => void) | undefined): Promise<RoundOutcome> {
    clearTimeout(this.expiry);
    this.reporter = reporter;
    const cancel = (): void => this.end('the client cancelled the request');
    signal.addEventListener('abort', cancel, { once: true });
    try {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.schedule();
      });
    } finally {
      signal.removeEventListener('abort', cancel);
      this.wake = undefined;
      this.reporter = undefined;
    }
    const outcome = this.outcome;
    if (outcome !== undefined) {
      this.end(undefined);
      return 'result' in outcome ? { kind: 'result', result: outcome.result } : { kind: 'error', error: outcome.error };
    }
    this.expiry = setTimeout(() => this.end(`no retry with the answers within ${Math.round(this.timeoutMs / 1000)} s`), this.timeoutMs);
    this.expiry.unref();
    return {
      kind: 'input',
      inputRequests: Object.fromEntries([...this.asks].map(([key, ask]) => [key, { method: ask.method, params: ask.params }])),
    };
  }

  private settle(outcome: { readonly result: JsonObject } | { readonly error: unknown }): void {
    if (this.ended) return;
    this.outcome = outcome;
    this.wake?.();
    // Nobody waits between rounds: the expiry timer forgets the outcome if the client never returns.
  }

  /** Ends the round in progress: at once for an outcome; after the current turn for requests, so several made together share one round. */
  private schedule(): void {
    if (this.wake === undefined) return;
    if (this.outcome !== undefined || this.ended) {
      this.wake();
      return;
    }
    if (this.asks.size === 0 || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wake?.();
    });
  }

  /** Ends the call: `reason` set → cancelled (the handler's work aborted, its requests refused). */
  private end(reason: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.expiry);
    if (reason !== undefined) {
      this.controller.abort(new PromptyardError('TIMEOUT', `The call was abandoned: ${reason}.`));
      if (this.outcome === undefined) this.outcome = { error: new PromptyardError('INVALID_REQUEST', `The call ended: ${reason}.`) };
      this.wake?.();
    }
    for (const ask of this.asks.values())
      ask.reject(new PromptyardError('INVALID_REQUEST', `The client did not answer ${ask.method}: ${reason ?? 'the call ended first'}.`));
    this.asks.clear();
    this.onEnd?.();
  }
}
