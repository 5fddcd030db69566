export interface ShutdownOptions {
  /** Program name for the "shutting down" line on stderr. */
  readonly program: string;
  readonly signals: readonly NodeJS.Signals[];
  /** Over stdio, the client closing stdin (or stdout failing) ends the process too. */
  readonly stdio: boolean;
  /** Exit anyway after this long. */
  readonly graceMs: number;
}

export interface Shutdown {
  /** Hands over the running service's `close`; a signal that came while it started closes it now. */
  started(close: () => Promise<void>): Promise<void>;
}

/**
 * Graceful shutdown for a serving binary: on a signal (or end of stdin over stdio) close the service
 * and exit 0, exiting anyway after `graceMs`. Signals may arrive while the service is still starting:
 * they are remembered and acted on once it is up.
 */
export const handleShutdown = (options: ShutdownOptions): Shutdown => {
  let close: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutdown = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${options.program}: shutting down (${reason})\n`);
    const force = setTimeout(() => process.exit(0), options.graceMs);
    force.unref();
    if (close !== undefined) void close().finally(() => process.exit(0));
  };
  for (const signal of options.signals) process.once(signal, () => shutdown(signal));
  if (options.stdio) {
    process.stdin.once('end', () => shutdown('stdin closed'));
    process.stdout.on('error', () => shutdown('stdout closed'));
  }
  return {
    started: async (closeService) => {
      close = closeService;
      if (stopping) await closeService().finally(() => process.exit(0));
    },
  };
};
