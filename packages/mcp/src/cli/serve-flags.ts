/**
 * What a binary needs around serving: the `--transport`, `--host`, `--port`, `--log-level` and `--log-format` flags,
 * the `[transport]` config section, and shutdown on a signal or the end of stdin.
 */
import { isLogFormat, isLogLevel, logFormats } from '@promptyard/core';
import type { LogFormat, LogLevel, PromptyardError } from '@promptyard/core';

/** The serving flags every Promptyard binary takes, as parsed by `node:util` parseArgs. */
export interface ServeFlagValues {
  readonly transport?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly 'log-level'?: string | undefined;
  readonly 'log-format'?: string | undefined;
}

export interface ServeFlags {
  transport?: 'stdio' | 'http';
  host?: string;
  port?: number;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
}

/** Checks `--transport`, `--host`, `--port`, `--log-level` and `--log-format`; a wrong value throws `usageError(message)`. */
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
  const format = values['log-format'];
  if (format !== undefined) {
    if (!isLogFormat(format)) throw usageError(`--log-format must be ${logFormats.join(' or ')}; got "${format}".`);
    flags.logFormat = format;
  }
  return flags;
};
