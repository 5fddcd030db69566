/**
 * Deadlines without a timer per call: one watchdog interval runs while work is in flight and fails
 * whatever is past its deadline. The work can ask for a signal that aborts at the deadline (or when
 * `parent`, the caller's own signal, aborts first), so what it started (an HTTP request, a template
 * render) stops too instead of running on unobserved.
 *
 * The signal is made when the work first reads `deadline.signal`, not before: an AbortController
 * costs ~5.6 µs on Node 20 (measured: 200,000 in a loop), a quarter of what a whole `prompts/get`
 * adds to a ping, and most renders (the direct path, synchronous Liquid) finish without looking.
 */
interface Deadline {
  /** Aborts at the deadline or with the caller's signal; made on first read. */
  readonly signal: AbortSignal;
}

export type WithDeadline = <T>(onTimeout: () => Error, work: (deadline: Deadline) => Promise<T>, timeoutMs?: number, parent?: AbortSignal) => Promise<T>;

export const createDeadlines = (defaultTimeoutMs: number): WithDeadline => {
  const inflight = new Set<{ readonly deadline: number; readonly fail: () => void }>();
  let watchdog: NodeJS.Timeout | undefined;
  let period = 0;
  const check = (): void => {
    if (inflight.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
      return;
    }
    const now = performance.now();
    for (const entry of inflight) if (entry.deadline <= now) entry.fail();
  };
  return <T>(onTimeout: () => Error, work: (deadline: Deadline) => Promise<T>, timeoutMs = defaultTimeoutMs, parent?: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let controller: AbortController | undefined;
      let expired: Error | undefined;
      // A listener rather than AbortSignal.any: cheaper, and gone as soon as the work settles.
      const onParentAbort = (): void => controller?.abort(parent?.reason);
      const deadline: Deadline = {
        get signal(): AbortSignal {
          if (controller === undefined) {
            controller = new AbortController();
            if (expired !== undefined) controller.abort(expired);
            else if (parent?.aborted === true) controller.abort(parent.reason);
            else if (!settled) parent?.addEventListener('abort', onParentAbort, { once: true });
          }
          return controller.signal;
        },
      };
      let settled = false;
      const done = (): void => {
        settled = true;
        inflight.delete(entry);
        if (controller !== undefined) parent?.removeEventListener('abort', onParentAbort);
      };
      const entry = {
        deadline: performance.now() + timeoutMs,
        fail: () => {
          done();
          expired = onTimeout();
          controller?.abort(expired);
          reject(expired);
        },
      };
      inflight.add(entry);
      const wanted = Math.max(10, Math.min(250, timeoutMs / 4));
      if (watchdog === undefined || wanted < period) {
        clearInterval(watchdog);
        period = wanted;
        watchdog = setInterval(check, period);
        watchdog.unref();
      }
      work(deadline).then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
};
