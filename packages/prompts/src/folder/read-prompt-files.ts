import { describeError, type Logger } from '@promptyard/core';
import { mapLimit } from './map-limit.js';
import { readFilesInWorker, type WorkerReadResult } from './read-files-in-worker.js';
import { readPromptText, type PromptTextResult } from './read-prompt-text.js';

/** What reading one file gave; `error` is a failure other than "too large" or "gone" (EACCES, EIO…). */
export type ReadOutcome = PromptTextResult | { readonly kind: 'error'; readonly error: unknown };

const poolConcurrency = 64;
/** From this many files on, a reader thread beats the thread pool. */
const workerThreshold = 100;

const fromWorker = (result: WorkerReadResult): ReadOutcome => {
  switch (result.kind) {
    case 'text':
      return { kind: 'text', text: result.text, latin1: result.latin1 };
    case 'error':
      return { kind: 'error', error: new Error(result.message) };
    case 'too-large':
      return { kind: 'too-large', size: result.size };
    default:
      return { kind: result.kind };
  }
};

/** Reads one file; never rejects. */
export const readOne = async (file: string, maxBytes: number): Promise<ReadOutcome> => {
  try {
    return await readPromptText(file, maxBytes);
  } catch (error) {
    return { kind: 'error', error };
  }
};

/**
 * Reads files and hands each outcome to `onRead` as soon as it is there. Many files are read on a
 * reader thread (one thread-pool round trip per open, fstat, read and close is what dominates a
 * large load); few files, or all files left when the thread fails, go through the thread pool,
 * 64 at a time.
 */
export const readPromptFiles = async (
  files: readonly string[],
  maxBytes: number,
  logger: Logger,
  onRead: (file: string, outcome: ReadOutcome) => void,
): Promise<void> => {
  let rest = files;
  if (files.length >= workerThreshold) {
    const delivered = new Set<string>();
    try {
      await readFilesInWorker(files, maxBytes, (result) => {
        delivered.add(result.file);
        onRead(result.file, fromWorker(result));
      });
      return;
    } catch (error) {
      logger.debug('prompt reader thread failed; reading on the main thread', { reason: describeError(error) });
      rest = files.filter((file) => !delivered.has(file));
    }
  }
  await mapLimit(rest, poolConcurrency, async (file) => onRead(file, await readOne(file, maxBytes)));
};
