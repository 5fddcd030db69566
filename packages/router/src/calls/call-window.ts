/**
 * A backend's recent calls, as its status shows them (the console's Servers page, `/health`): how many
 * ended in the last five minutes, how many failed, and their p50 and p95 duration. Always on, so a
 * call costs one clock read at each end and a few typed-array writes (≈ 0.2 µs a call on the bench
 * machine, against ≈ 0.1 ms of the gateway's CPU a relayed call), and a backend keeps a fixed
 * ~12 KB whatever its traffic: a ring of 30 ten-second buckets, each a histogram of durations in
 * log-scale bins instead of the samples. A summary (a status read) merges the 30 histograms: ≈ 10 µs.
 *
 * Precision: four bins per doubling from 0.1 ms to 2^24 × 0.1 ms (≈ 28 min). A percentile is the
 * geometric middle of the bin holding the sample of that rank, so it is within 2^(1/8) − 1 ≈ 9 % of
 * it (a 100 ms call reads 92–109 ms); below 0.1 ms it reads 0.05 ms, above 28 min 28 min. The window
 * is the current bucket and the 29 before it: between 290 and 300 s of calls.
 *
 * What counts: every call that got an answer or failed, timed from the request to its end. Failed: a
 * JSON-RPC error, a timeout, a connection that closed or an unreachable server during the call. A tool
 * result with `isError` is the tool's answer, not a failure: it is counted apart (`toolErrors`). A
 * call the client cancelled is not counted (its duration is the client's patience, not the server's).
 */

/** Calls in the window; absent from a status when none ended in it. */
export interface CallSummary {
  readonly count: number;
  /** Calls that failed (JSON-RPC error, timeout, connection closed). */
  readonly failed: number;
  /** Tool results with `isError: true` (answers, not failures). */
  readonly toolErrors: number;
  /** Estimated within ±9 %. */
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly windowSeconds: number;
}

const bucketMs = 10_000;
const slots = 30;
/** The window's length: what `CallSummary.windowSeconds` says, and what a page with no call yet can say. */
export const callWindowSeconds = (slots * bucketMs) / 1000;
const baseMs = 0.1;
const binsPerDoubling = 4;
/** Bin 0: under `baseMs`; bin i ≥ 1: [baseMs·2^((i−1)/4), baseMs·2^(i/4)); the last also takes anything longer. */
const bins = 1 + 24 * binsPerDoubling;

const binOf = (ms: number): number => {
  const index = Math.floor(Math.log2(ms / baseMs) * binsPerDoubling) + 1;
  return index < 0 ? 0 : index >= bins ? bins - 1 : index;
};

/** The bin's geometric middle, in ms rounded to 0.01. */
const middleOf = (bin: number): number => (bin === 0 ? baseMs / 2 : Math.round(baseMs * 2 ** ((bin - 0.5) / binsPerDoubling) * 100) / 100);

/** How a call ended, from `BackendCall.end`'s error type: `undefined` ok, `tool_error`, `cancelled`, else failed. */
type Outcome = 'ok' | 'failed' | 'tool_error' | 'cancelled';

const outcomeOf = (errorType: string | undefined): Outcome =>
  errorType === undefined ? 'ok' : errorType === 'tool_error' || errorType === 'cancelled' ? errorType : 'failed';

export class CallWindow {
  /** Which ten-second period each slot holds (−1: none yet). */
  private readonly periods = new Float64Array(slots).fill(-1);
  private readonly counts = new Uint32Array(slots);
  private readonly failures = new Uint32Array(slots);
  private readonly toolErrors = new Uint32Array(slots);
  /** `bins` counts per slot, slot after slot. */
  private readonly histograms = new Uint32Array(slots * bins);
  private readonly now: () => number;

  /** `now`: a monotonic clock in ms (tests pass their own). */
  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** When a call starts: what `end` takes. */
  start(): number {
    return this.now();
  }

  /** A call started at `started` ended; `errorType` as its span's (`undefined`: it succeeded). */
  end(started: number, errorType: string | undefined): void {
    const outcome = outcomeOf(errorType);
    if (outcome === 'cancelled') return;
    const now = this.now();
    const period = Math.floor(now / bucketMs);
    const slot = period % slots;
    if (this.periods[slot] !== period) this.clear(slot, period);
    this.counts[slot]!++;
    if (outcome === 'failed') this.failures[slot]!++;
    else if (outcome === 'tool_error') this.toolErrors[slot]!++;
    this.histograms[slot * bins + binOf(now - started)]!++;
  }

  /** The calls of the last five minutes; `undefined` when none ended in them. */
  summary(): CallSummary | undefined {
    const current = Math.floor(this.now() / bucketMs);
    const merged = new Uint32Array(bins);
    let count = 0;
    let failed = 0;
    let toolErrors = 0;
    for (let slot = 0; slot < slots; slot++) {
      const period = this.periods[slot]!;
      if (period <= current - slots || period > current) continue;
      count += this.counts[slot]!;
      failed += this.failures[slot]!;
      toolErrors += this.toolErrors[slot]!;
      for (let bin = 0; bin < bins; bin++) merged[bin]! += this.histograms[slot * bins + bin]!;
    }
    if (count === 0) return undefined;
    return {
      count,
      failed,
      toolErrors,
      p50Ms: percentile(merged, count, 0.5),
      p95Ms: percentile(merged, count, 0.95),
      windowSeconds: callWindowSeconds,
    };
  }

  /** What the window keeps, in bytes: the same from the first call to the millionth. */
  get bytes(): number {
    return [this.periods, this.counts, this.failures, this.toolErrors, this.histograms].reduce((sum, array) => sum + array.byteLength, 0);
  }

  private clear(slot: number, period: number): void {
    this.periods[slot] = period;
    this.counts[slot] = 0;
    this.failures[slot] = 0;
    this.toolErrors[slot] = 0;
    this.histograms.fill(0, slot * bins, (slot + 1) * bins);
  }
}

/** The nearest-rank `q` quantile of `count` samples binned in `histogram`, as its bin's middle. */
const percentile = (histogram: Uint32Array, count: number, q: number): number => {
  const rank = Math.max(1, Math.ceil(q * count));
  let seen = 0;
  for (let bin = 0; bin < bins; bin++) {
    seen += histogram[bin]!;
    if (seen >= rank) return middleOf(bin);
  }
  return middleOf(bins - 1);
};
