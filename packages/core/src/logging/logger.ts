/**
 * Structured logs on stderr (stdout belongs to the protocol). Records are also offered to listeners,
 * so the MCP seam can forward warnings a user should see as `notifications/message`.
 */
import { isoTime } from '../text/iso-time.js';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';

export const logLevels: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error'];

const rank: Record<LogLevel, number> = { debug: 0, info: 1, notice: 2, warning: 3, error: 4 };

export const isLogLevel = (value: string): value is LogLevel => value in rank;

/** How records are written: `text` for people, `json` (one object a line) for log collectors. */
export const logFormats = ['text', 'json'] as const;

export type LogFormat = (typeof logFormats)[number];

export const isLogFormat = (value: string): value is LogFormat => (logFormats as readonly string[]).includes(value);

export const logLevelAtLeast = (level: LogLevel, threshold: LogLevel): boolean => rank[level] >= rank[threshold];

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface LogRecord {
  readonly time: number;
  readonly level: LogLevel;
  readonly scope: string;
  readonly message: string;
  readonly fields: LogFields;
}

export interface Logger {
  readonly scope: string;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  notice(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger for a sub-component, sharing level, sink and listeners. */
  child(scope: string): Logger;
  /** Receives every record at or above the logger's level; returns an unsubscribe function. */
  subscribe(listener: (record: LogRecord) => void): () => void;
  setLevel(level: LogLevel): void;
}

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly format?: LogFormat;
  /** Where formatted lines go; stderr by default. */
  readonly write?: (line: string) => void;
  readonly scope?: string;
}

const quote = (value: string): string => (/^[\w./:@-]*$/.test(value) && value !== '' ? value : JSON.stringify(value));

const formatText = (record: LogRecord): string => {
  const time = isoTime(record.time);
  const level = record.level.toUpperCase().padEnd(7);
  let line = `${time} ${level} [${record.scope}] ${record.message}`;
  for (const [key, value] of Object.entries(record.fields)) {
    if (value !== undefined) line += ` ${key}=${typeof value === 'string' ? quote(value) : String(value)}`;
  }
  return line;
};

const formatJson = (record: LogRecord): string =>
  JSON.stringify({
    time: isoTime(record.time),
    level: record.level,
    scope: record.scope,
    msg: record.message,
    ...record.fields,
  });

interface SharedState {
  level: LogLevel;
  readonly listeners: Set<(record: LogRecord) => void>;
  readonly emit: (record: LogRecord) => void;
}

const build = (state: SharedState, scope: string): Logger => {
  const log = (level: LogLevel, message: string, fields: LogFields = {}): void => {
    if (!logLevelAtLeast(level, state.level)) return;
    const record: LogRecord = { time: Date.now(), level, scope, message, fields };
    state.emit(record);
    for (const listener of state.listeners) {
      try {
        listener(record);
      } catch {
        // A failing listener must never break logging.
      }
    }
  };
  return {
    scope,
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    notice: (message, fields) => log('notice', message, fields),
    warn: (message, fields) => log('warning', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (name) => build(state, `${scope}:${name}`),
    subscribe: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    setLevel: (level) => {
      state.level = level;
    },
  };
};

/**
 * Writes records to stderr in batches, formatted when written, so logging a request costs neither
 * formatting nor a system call on the path of its response: routine records wait up to 50 ms,
 * warnings and errors only for the current turn of the event loop. Pending records are written on
 * exit.
 */
const createStderrSink = (): ((record: LogRecord, format: (record: LogRecord) => string) => void) => {
  let records: { readonly record: LogRecord; readonly format: (record: LogRecord) => string }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate = false;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    immediate = false;
    if (records.length === 0) return;
    const text = records.map(({ record, format }) => `${format(record)}\n`).join('');
    records = [];
    process.stderr.write(text);
  };
  process.once('exit', flush);
  return (record, format) => {
    records.push({ record, format });
    if (logLevelAtLeast(record.level, 'warning') || records.length >= 256) {
      if (!immediate) {
        immediate = true;
        setImmediate(flush);
      }
    } else if (timer === undefined) {
      timer = setTimeout(flush, 50);
      timer.unref();
    }
  };
};

let stderrSink: ReturnType<typeof createStderrSink> | undefined;

const emitter = (options: LoggerOptions): ((record: LogRecord) => void) => {
  const format = options.format === 'json' ? formatJson : formatText;
  const { write } = options;
  if (write !== undefined) return (record) => write(format(record));
  const sink = (stderrSink ??= createStderrSink());
  return (record) => sink(record, format);
};

export const createLogger = (options: LoggerOptions = {}): Logger =>
  build(
    {
      level: options.level ?? 'info',
      listeners: new Set(),
      emit: emitter(options),
    },
    options.scope ?? 'promptyard',
  );

/** A logger that drops everything; for tests and library callers that do not care. */
export const silentLogger = (): Logger => createLogger({ level: 'error', write: () => {} });
