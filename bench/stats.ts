import { readFile } from 'node:fs/promises';

/** Nearest-rank percentile of a sample (p in 0–100). */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
};

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Milliseconds with fewer decimals as they grow: `1234`, `12.3`, `1.23`. */
export const ms = (value: number, smallDigits = 2): string =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(smallDigits);

/** Resident memory of a process (Linux: `/proc/<pid>/status`), in MB. */
export const rssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN') / 1024;
};
