import { isLogLevel } from './logger.js';
import type { LogLevel } from './logger.js';
import type { PromptyardError } from './errors.js';

/** The serving flags every Promptyard binary takes, as parsed by `node:util` parseArgs. */
export interface ServeFlagValues {
  readonly transport?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly 'log-level'?: string | undefined;
}

export interface ServeFlags {
  transport?: 'stdio' | 'http';
  host?: string;
  port?: number;
  logLevel?: LogLevel;
}

/** Checks `--transport`, `--host`, `--port` and `--log-level`; a wrong value throws `usageError(message)`. */
export const parseServeFlags = (values: ServeFlagValues, usageError: (message: string) => PromptyardError): ServeFlags => {
  const flags: ServeFlags = {};
  if (values.transport !== undefined) {
    if (values.transport !== 'stdio' && values.transport !== 'http') throw usageError(`--transport must be "stdio" or "http", got "${values.transport}".`);
    flags.transport = values.transport;
  }
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw usageError(`--port must be an integer from 0 to 65535, got "${values.port}".`);
    flags.port = port;
  }
  if (values.host !== undefined) flags.host = values.host;
  const level = values['log-level'];
  if (level !== undefined) {
    if (!isLogLevel(level)) throw usageError(`--log-level must be one of debug, info, notice, warning, error; got "${level}".`);
    flags.logLevel = level;
  }
  return flags;
};

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
