/**
 * What a binary needs around serving: the `--transport`, `--host`, `--port` and `--log-level` flags,
 * the `[transport]` config section, and shutdown on a signal or the end of stdin.
 */
import { isLogLevel } from '@promptyard/core';
import type { LogLevel, PromptyardError } from '@promptyard/core';

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
    if (values.transport !== 'stdio' && values.transport !== 'http')
      throw usageError(`--transport must be "stdio" or "http", got "${values.transport}".`);
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
