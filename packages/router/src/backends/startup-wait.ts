/**
 * The start-up wait (`[gateway] startup_wait_ms`): the gateway serves at once, but lists and names
 * asked for soon after start wait — up to the limit — for servers still on their first attempt,
 * because many clients list tools only once.
 */
export class StartupWait {
  /** Settles when every first attempt is over or the wait is; undefined outside the wait. */
  private wait: Promise<void> | undefined;
  /** Resolved at the next rebuild of the lists: lookups waiting for their server. */
  private waiters: (() => void)[] = [];

  /** Starts the wait: it ends when `starting` settles or after `waitMs` (0: no wait). */
  begin(starting: Promise<unknown>, waitMs: number): void {
    if (waitMs <= 0) return;
    const waited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      timer.unref();
      void starting.finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.wait = waited.then(() => {
      this.wait = undefined;
    });
  }

  /** Within the wait: settles when it is over. `undefined`: answer now with what is ready. */
  get pending(): Promise<void> | undefined {
    return this.wait;
  }

  /** The lists were rebuilt: lookups waiting for a server look again. */
  rebuilt(): void {
    if (this.waiters.length > 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Something not there (yet) during the wait: looked for again after each rebuild, until found or the wait is over. */
  async lookUp<T>(find: () => T | undefined): Promise<T | undefined> {
    for (let wait = this.wait; wait !== undefined; wait = this.wait) {
      await Promise.race([wait, new Promise<void>((resolve) => this.waiters.push(resolve))]);
      const found = find();
      if (found !== undefined) return found;
    }
    return undefined;
  }
}
