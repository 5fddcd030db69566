/**
 * Helpers shared by the black-box tests of every app (they spawn the built binaries and watch their
 * output and processes).
 */

/** Collects a stream's text and lets a test wait for a pattern. */
export class Output {
  text = '';
  private waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];

  push(chunk: Buffer | string): void {
    this.text += chunk.toString();
    this.waiters = this.waiters.filter((waiter) => {
      const match = this.text.match(waiter.pattern);
      if (match) waiter.resolve(match);
      return !match;
    });
  }

  /** Resolves with the first match of `pattern` in everything written so far or later. */
  waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} in:\n${this.text}`)), timeoutMs);
      this.waiters.push({
        pattern,
        resolve: (found) => {
          clearTimeout(timer);
          resolve(found);
        },
      });
    });
  }
}

/** Whether a process exists (signal 0). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
