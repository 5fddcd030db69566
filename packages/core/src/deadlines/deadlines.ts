/**
 * Deadlines without a timer per call: one watchdog interval runs while work is in flight and fails
 * whatever is past its deadline. The work can ask for a signal that aborts at the deadline (or when
 * `parent`, the caller's own signal, aborts first), so what it started (an HTTP request, a template
 * render) stops too instead of running on unobserved.
 *
 * The signal is made when the work first reads `deadline.signal`, not before: an AbortController is
 * costly next to a whole `prompts/get`, and most renders (the direct path, synchronous Liquid) finish
 * without looking. A call is one object of a class (its methods on the prototype, the caller's signal
 * listening to it through `handleEvent`): closures and a getter literal per call slow a `prompts/get`
 * down measurably (bench/prompts.bench.ts).
 */
interface Deadline {
  /** Aborts at the deadline or with the caller's signal; made on first read. */
  readonly signal: AbortSignal;
}

export type WithDeadline = <T>(
  onTimeout: () => Error,
  work: (deadline: Deadline) => Promise<T>,
  timeoutMs?: number,
  parent?: AbortSignal,
) => Promise<T>;

/** One call in flight: its deadline, its lazily made signal, and how it ends. */
class Call<T> implements Deadline {
  readonly deadline: number;
  #controller: AbortController | undefined;
  #expired: Error | undefined;
  #settled = false;
  readonly #parent: AbortSignal | undefined;
  readonly #onTimeout: () => Error;
  readonly #inflight: Set<Call<unknown>>;
  readonly #resolve: (value: T) => void;
  readonly #reject: (error: unknown) => void;

  constructor(
    deadline: number,
    parent: AbortSignal | undefined,
    onTimeout: () => Error,
    inflight: Set<Call<unknown>>,
    resolve: (value: T) => void,
    reject: (error: unknown) => void,
  ) {
    this.deadline = deadline;
    this.#parent = parent;
    this.#onTimeout = onTimeout;
    this.#inflight = inflight;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#expired !== undefined) this.#controller.abort(this.#expired);
      else if (this.#parent?.aborted === true) this.#controller.abort(this.#parent.reason);
      // A listener object rather than AbortSignal.any: cheaper, and gone as soon as the work settles.
      else if (!this.#settled) this.#parent?.addEventListener('abort', this, { once: true });
    }
    return this.#controller.signal;
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.#controller?.abort(this.#parent?.reason);
  }

  succeed(value: T): void {
    if (this.#end()) this.#resolve(value);
  }

  fail(error: unknown): void {
    if (this.#end()) this.#reject(error);
  }

  /** The watchdog found the call past its deadline. */
  expire(): void {
    if (!this.#end()) return;
    this.#expired = this.#onTimeout();
    this.#controller?.abort(this.#expired);
    this.#reject(this.#expired);
  }

  /** Whether this ended the call (it was still running). */
  #end(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#inflight.delete(this as Call<unknown>);
    if (this.#controller !== undefined) this.#parent?.removeEventListener('abort', this);
    return true;
  }
}

export const createDeadlines = (defaultTimeoutMs: number): WithDeadline => {
  const inflight = new Set<Call<unknown>>();
  let watchdog: NodeJS.Timeout | undefined;
  let period = 0;
  const check = (): void => {
    if (inflight.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
      return;
    }
    const now = performance.now();
    for (const call of inflight) if (call.deadline <= now) call.expire();
  };
  return <T>(
    onTimeout: () => Error,
    work: (deadline: Deadline) => Promise<T>,
    timeoutMs = defaultTimeoutMs,
    parent?: AbortSignal,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const call = new Call<T>(performance.now() + timeoutMs, parent, onTimeout, inflight, resolve, reject);
      inflight.add(call as Call<unknown>);
      const wanted = Math.max(10, Math.min(250, timeoutMs / 4));
      if (watchdog === undefined || wanted < period) {
        clearInterval(watchdog);
        period = wanted;
        watchdog = setInterval(check, period);
        watchdog.unref();
      }
      let running: Promise<T>;
      try {
        running = work(call);
      } catch (error) {
        call.fail(error);
        return;
      }
      running.then(
        (value) => call.succeed(value),
        (error: unknown) => call.fail(error),
      );
    });
};
