import { basename } from 'node:path';
import { describeError, type PromptEntry } from '@promptyard/core';
import { fileError, fileErrorDetails } from '../formats/file-error.js';
import { manifestName, type Failure, type FolderState, type LoadedLibrary } from './folder-state.js';
import type { ReadOutcome } from './read-prompt-files.js';
import type { PromptTextResult } from './read-prompt-text.js';

/** A file or library that remembers its last logged failure and last good state. */
export interface Reportable {
  failure: Failure | undefined;
  readonly entry?: PromptEntry | undefined;
  readonly loaded?: LoadedLibrary | undefined;
}

export type DecodedText = Extract<PromptTextResult, { kind: 'text' }>;

/**
 * The reason without the `file:line: ` (or `file: `) a template engine puts before it, and the line it names:
 * the diagnostic says where already.
 */
const locatedReason = (file: string, reason: string, line: number | undefined): { message: string; line?: number } => {
  const located = reason.startsWith(`${file}:`) ? /^[^\n]*?:(\d+): ([\s\S]*)$/.exec(reason.slice(file.length)) : null;
  const at = line ?? (located?.[1] === undefined ? undefined : Number(located[1]));
  const message = located?.[2] ?? (reason.startsWith(`${file}: `) ? reason.slice(file.length + 2) : reason);
  return { message, ...(at === undefined ? {} : { line: at }) };
};

/** Logs (and reports as a diagnostic) a file that failed to load, once per reason and content, and counts it. */
export const reportFailure = (state: FolderState, target: Reportable, file: string, text: string | undefined, error: unknown): void => {
  const { reason, line } = fileErrorDetails(error);
  if (target.failure !== undefined && target.failure.reason === reason && target.failure.text === text) return;
  target.failure = { text, reason };
  state.failures++;
  const what = basename(file) === manifestName ? 'twig library' : 'prompt file';
  const kept = target.entry !== undefined || target.loaded !== undefined;
  state.logger.warn(`invalid ${what}; ${kept ? 'keeping its last good version' : 'skipping it'}`, {
    file,
    line,
    reason,
  });
  state.diagnostics({ file, severity: 'error', code: 'invalid-file', ...locatedReason(file, reason, line) });
};

/** Text of a read, or undefined after reporting why there is none; 'gone' when the file is. */
export const acceptRead = (
  state: FolderState,
  outcome: ReadOutcome,
  file: string,
  target: () => Reportable,
): DecodedText | 'gone' | undefined => {
  switch (outcome.kind) {
    case 'text':
      return outcome;
    case 'missing':
    case 'not-file':
      return 'gone';
    case 'too-large':
      reportFailure(
        state,
        target(),
        file,
        undefined,
        fileError(file, `the file has ${outcome.size} bytes, over the limit of ${state.maxFileBytes}`),
      );
      return undefined;
    case 'error':
      reportFailure(
        state,
        target(),
        file,
        undefined,
        fileError(file, `cannot read the file: ${describeError(outcome.error)}`, { cause: outcome.error }),
      );
      return undefined;
  }
};
