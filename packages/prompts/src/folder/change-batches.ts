import { describeError, type Logger } from '@promptyard/core';

/**
 * Every changed path is looked at once more this long after its last change: files written into a
 * new folder before its watch handle existed are found then, and so is a change whose event the
 * kernel dropped (its queue overflowed) or merged with another. An unchanged file costs one read and
 * no delta.
 */
const recheckDelayMs = 120;

export interface ChangeBatchesOptions {
  readonly dir: string;
  readonly debounceMs: number;
  readonly logger: Logger;
  /** Receives the paths changed during one quiet period; batches never overlap. */
  readonly onBatch: (paths: ReadonlySet<string>) => Promise<void>;
}

/** Changed paths, collected until `debounceMs` pass without one and handed over one batch at a time. */
export interface ChangeBatches {
  /** A file or a new folder changed: it is in the next batch, and looked at again a little later. */
  changed(path: string): void;
  /** A folder went away: it is in the next batch. */
  removed(path: string): void;
  /** Drops what is pending; a batch in progress runs to its end. */
  stop(): void;
  /** The batch in progress, if any. */
  running(): Promise<void> | undefined;
}

interface Rechecks {
  add(path: string): void;
  stop(): void;
}

/** Second looks at changed paths, each `recheckDelayMs` after its last change, on one timer. */
const createRechecks = (onDue: (paths: readonly string[]) => void): Rechecks => {
  // Path → when to look at it again.
  const due = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const arm = (): void => {
    if (stopped || timer !== undefined || due.size === 0) return;
    let next = Number.POSITIVE_INFINITY;
    for (const at of due.values()) next = Math.min(next, at);
    timer = setTimeout(fire, Math.max(0, next - performance.now()));
  };

  const fire = (): void => {
    timer = undefined;
    const now = performance.now();
    const paths: string[] = [];
    for (const [path, at] of due) {
      if (at > now) continue;
      due.delete(path);
      paths.push(path);
    }
    onDue(paths);
    arm();
  };

  return {
    add: (path) => {
      due.set(path, performance.now() + recheckDelayMs);
      arm();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      due.clear();
    },
  };
};

export const createChangeBatches = (options: ChangeBatchesOptions): ChangeBatches => {
  const { dir, debounceMs, logger } = options;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    if (closed || running !== undefined || pending.size === 0) return;
    const batch = pending;
    pending = new Set();
    running = options
      .onBatch(batch)
      .catch((error: unknown) => logger.error('cannot apply prompt folder changes', { dir, reason: describeError(error) }))
      .finally(() => {
        running = undefined;
        if (pending.size > 0) schedule();
      });
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  const rechecks = createRechecks((paths) => {
    for (const path of paths) pending.add(path);
    if (pending.size > 0) schedule();
  });

  return {
    changed: (path) => {
      pending.add(path);
      schedule();
      rechecks.add(path);
    },
    removed: (path) => {
      pending.add(path);
      schedule();
    },
    stop: () => {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      rechecks.stop();
      pending.clear();
    },
    running: () => running,
  };
};
