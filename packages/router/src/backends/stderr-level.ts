import type { Logger } from '@promptyard/core';
import type { LoggingLevel } from '../sdk/upstream-types.js';

/**
 * The level a backend's stderr line states, if it states one: JSON logs (`level`, `severity`,
 * `levelname`; pino and bunyan numbers), logfmt (`level=warn`), or a level word among the line's
 * first few words — `WARNING:root:…`, `2026-01-02T03:04:05Z ERROR …`, `[error] …`, `(node:1) Warning: …`.
 * A lowercase word counts only when bracketed or followed by `:`, so prose (`error handling is on`)
 * is not taken for a level.
 */
export const readStderrLevel = (line: string): LoggingLevel | undefined => {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('{')) {
    const json = jsonLevel(trimmed);
    if (json !== undefined) return json;
  }
  const logfmt = /(?:^|\s)(?:level|lvl|severity)=["']?([A-Za-z]+)/iu.exec(trimmed);
  if (logfmt !== null) return levelNamed(logfmt[1] as string);
  for (const word of trimmed.split(/\s+/u, headWords)) {
    const match = /^[[(<]*([A-Za-z]+)([\])>]*)(:?)/u.exec(word);
    if (match === null) continue;
    const [whole, name, closing, colon] = match as unknown as [string, string, string, string];
    // `DEBUG=1`, `error-prone`: a word that goes on is not a level.
    const rest = word.slice(whole.length);
    if (rest !== '' && colon === '') continue;
    const marked = name === name.toUpperCase() || closing !== '' || colon !== '';
    const level = marked ? levelNamed(name) : undefined;
    if (level !== undefined) return level;
  }
  return undefined;
};

/** How many leading words may hold the level: after a timestamp, a process tag or a logger name. */
const headWords = 4;

const names: Readonly<Record<string, LoggingLevel>> = {
  trace: 'debug',
  verbose: 'debug',
  debug: 'debug',
  dbg: 'debug',
  info: 'info',
  information: 'info',
  notice: 'notice',
  warn: 'warning',
  warning: 'warning',
  err: 'error',
  error: 'error',
  crit: 'critical',
  critical: 'critical',
  fatal: 'critical',
  panic: 'critical',
  alert: 'alert',
  emerg: 'emergency',
  emergency: 'emergency',
};

const levelNamed = (name: string): LoggingLevel | undefined => names[name.toLowerCase()];

/** pino / bunyan: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal. */
const numericLevel = (value: number): LoggingLevel =>
  value >= 60 ? 'critical' : value >= 50 ? 'error' : value >= 40 ? 'warning' : value >= 30 ? 'info' : 'debug';

const jsonLevel = (text: string): LoggingLevel | undefined => {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  for (const key of ['level', 'severity', 'levelname', 'lvl']) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value === 'number' && Number.isFinite(value)) return numericLevel(value);
    if (typeof value === 'string') return levelNamed(value.trim());
  }
  return undefined;
};

/**
 * Writes a backend's stderr line to the gateway's own log and returns the level it states (`info`
 * when none). Warnings and errors are logged at their level; everything else at `debug`, as before,
 * so a server's chatter stays out of the default log.
 */
export const logStderrLine = (logger: Logger, server: string, line: string): LoggingLevel => {
  const level = readStderrLevel(line) ?? 'info';
  const fields = { server, line, level };
  if (level === 'warning') logger.warn('server stderr', fields);
  else if (level === 'error' || level === 'critical' || level === 'alert' || level === 'emergency') logger.error('server stderr', fields);
  else logger.debug('server stderr', fields);
  return level;
};

/** A backend's last stderr lines (each cut at 500 characters), for the error of an attempt that failed. */
export class StderrTail {
  private readonly lines: string[] = [];

  push(line: string): void {
    this.lines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.lines.length > 20) this.lines.shift();
  }

  /** ` (stderr: a | b | c)` of the last three lines; empty without any. */
  hint(): string {
    const last = this.lines.slice(-3).join(' | ');
    return last === '' ? '' : ` (stderr: ${last})`;
  }
}
