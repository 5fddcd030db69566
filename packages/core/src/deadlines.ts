/**
 * Deadlines without a timer per call: one watchdog interval runs while work is in flight and fails
 * whatever is past its deadline. The work gets a signal that aborts at the deadline (or when
 * `parent`, the caller's own signal, aborts first), so what it started (an HTTP request, a template
 * render) stops too instead of running on unobserved.
 */
export type WithDeadline = <T>(onTimeout: () => Error, work: (deadline: AbortSignal) => Promise<T>, timeoutMs?: number, parent?: AbortSignal) => Promise<T>;

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
  return <T>(onTimeout: () => Error, work: (deadline: AbortSignal) => Promise<T>, timeoutMs = defaultTimeoutMs, parent?: AbortSignal): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      // A listener rather than AbortSignal.any: cheaper, and gone as soon as the work settles.
      const onParentAbort = (): void => controller.abort(parent?.reason);
      if (parent?.aborted === true) controller.abort(parent.reason);
      else parent?.addEventListener('abort', onParentAbort, { once: true });
      const done = (): void => {
        inflight.delete(entry);
        parent?.removeEventListener('abort', onParentAbort);
      };
      const entry = {
        deadline: performance.now() + timeoutMs,
        fail: () => {
          done();
          const error = onTimeout();
          controller.abort(error);
          reject(error);
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
      work(controller.signal).then(
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
