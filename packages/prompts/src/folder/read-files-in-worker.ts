import { Worker } from 'node:worker_threads';

/** What the reader thread found for one file (decoded as `decodePromptText` does). */
export type WorkerReadResult =
  | { readonly file: string; readonly kind: 'text'; readonly text: string; readonly latin1: boolean }
  | { readonly file: string; readonly kind: 'too-large'; readonly size: number }
  | { readonly file: string; readonly kind: 'not-file' | 'missing' }
  | { readonly file: string; readonly kind: 'error'; readonly message: string };

// Plain CommonJS, evaluated as the worker's script, so it runs the same from sources and from dist.
// Inside the worker, synchronous calls block nobody; one thread-pool round trip per open, fstat,
// read and close costs several times more than the call itself when there are thousands of files.
const workerSource = String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
// Same rules as decodePromptText: BOM stripped, UTF-8, else Latin-1.
const decode = (bytes) => {
  const content = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(content), latin1: false };
  } catch {
    return { text: content.toString('latin1'), latin1: true };
  }
};
const failure = (file, error) => {
  const code = error && error.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { file, kind: 'missing' };
  if (code === 'EISDIR') return { file, kind: 'not-file' };
  return { file, kind: 'error', message: String((error && error.message) || error) };
};
const readOne = (file, maxBytes) => {
  let fd;
  try {
    fd = fs.openSync(file, flags);
  } catch (error) {
    return failure(file, error);
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return { file, kind: 'not-file' };
    if (stats.size > maxBytes) return { file, kind: 'too-large', size: stats.size };
    // One scratch buffer for every file: strings, not buffers, cross to the main thread, so no
    // per-file native allocation outlives the worker.
    if (scratch.length < stats.size) scratch = Buffer.allocUnsafeSlow(stats.size);
    let length = 0;
    while (length < stats.size) {
      const count = fs.readSync(fd, scratch, length, stats.size - length, length);
      if (count === 0) break;
      length += count;
    }
    return { file, kind: 'text', ...decode(scratch.subarray(0, length)) };
  } catch (error) {
    return failure(file, error);
  } finally {
    try { fs.closeSync(fd); } catch {}
  }
};
parentPort.on('message', ({ files, maxBytes }) => {
  const results = files.map((file) => readOne(file, maxBytes));
  parentPort.postMessage(results);
});
`;

const batchSize = 200;

/**
 * Reads many files on a short-lived worker thread, handing each batch's results to `onResult` as
 * it arrives (so parsing overlaps reading). Rejects if the worker cannot start or dies; files
 * already handed over are not handed over again.
 */
export const readFilesInWorker = (
  files: readonly string[],
  maxBytes: number,
  onResult: (result: WorkerReadResult) => void,
): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const worker = new Worker(workerSource, { eval: true });
    let pending = 0;
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    worker.on('message', (results: WorkerReadResult[]) => {
      if (settled) return;
      try {
        for (const result of results) onResult(result);
      } catch (error) {
        settle(error);
        return;
      }
      pending--;
      if (pending === 0) settle();
    });
    worker.on('error', settle);
    worker.on('exit', (code) => settle(new Error(`the file reader thread exited early (code ${code})`)));
    for (let start = 0; start < files.length; start += batchSize) {
      pending++;
      worker.postMessage({ files: files.slice(start, start + batchSize), maxBytes });
    }
    if (pending === 0) settle();
  });
