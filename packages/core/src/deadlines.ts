/**
 * Deadlines without a timer per call: one watchdog interval runs while work is in flight and fails
 * whatever is past its deadline. The work gets a signal that aborts at the deadline, so I/O it
 * started (an HTTP request) stops too instead of running on unobserved.
 */
export type WithDeadline = <T>(onTimeout: () => Error, work: (deadline: AbortSignal) => Promise<T>, timeoutMs?: number) => Promise<T>;

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
  return <T>(onTimeout: () => Error, work: (deadline: AbortSignal) => Promise<T>, timeoutMs = defaultTimeoutMs): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      const entry = {
        deadline: performance.now() + timeoutMs,
        fail: () => {
          inflight.delete(entry);
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
          inflight.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          inflight.delete(entry);
          reject(error);
        },
      );
    });
};
