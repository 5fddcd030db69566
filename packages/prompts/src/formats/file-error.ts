import { PromptyardError, describeError, isPromptyardError } from '@promptyard/core';

/** The `code` of an error (Node's `ENOENT`, the YAML parser's `BAD_INDENT`), when it has a text one. */
export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

export interface FileErrorOptions {
  readonly line?: number | undefined;
  readonly cause?: unknown;
}

/** A problem with one file on disk: the message names the file (and line) and says what to fix. */
export const fileError = (file: string, reason: string, options: FileErrorOptions = {}): PromptyardError => {
  const { line } = options;
  const where = line === undefined ? file : `${file}:${line}`;
  return new PromptyardError('SOURCE_ERROR', `${where}: ${reason}`, {
    cause: options.cause,
    data: line === undefined ? { file, reason } : { file, line, reason },
  });
};

export interface FileErrorDetails {
  readonly reason: string;
  readonly line: number | undefined;
}

/** The reason and line of a load failure, for a log record that already carries the file. */
export const fileErrorDetails = (error: unknown): FileErrorDetails => {
  if (isPromptyardError(error) && error.data !== undefined) {
    const { reason, line } = error.data;
    return {
      reason: typeof reason === 'string' ? reason : error.message,
      line: typeof line === 'number' ? line : undefined,
    };
  }
  return { reason: describeError(error), line: undefined };
};
