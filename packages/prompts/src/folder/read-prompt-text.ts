import { close, constants, fstat, open, read } from 'node:fs';

export type PromptTextResult =
  | { readonly kind: 'text'; readonly text: string; /** Not valid UTF-8, decoded as Latin-1. */ readonly latin1: boolean }
  | { readonly kind: 'too-large'; readonly size: number }
  | { readonly kind: 'not-file' }
  | { readonly kind: 'missing' };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// O_NONBLOCK: opening a FIFO named `x.md` must not hang a thread-pool thread.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const missing: PromptTextResult = { kind: 'missing' };
const notFile: PromptTextResult = { kind: 'not-file' };

/** Decodes UTF-8 (BOM stripped); bytes that are not UTF-8 are read as Latin-1 instead of failing. */
const decodePromptText = (bytes: Uint8Array): { text: string; latin1: boolean } => {
  const content = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(content), latin1: false };
  } catch {
    return { text: Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1'), latin1: true };
  }
};

/**
 * Reads a text file of at most `maxBytes`: its size is checked (fstat on the open descriptor) before
 * reading, so a huge file is never read. Uses the callback API: for thousands of small files it costs far less than
 * `fs/promises` file handles.
 */
export const readPromptText = (file: string, maxBytes: number): Promise<PromptTextResult> =>
  new Promise((resolve, reject) => {
    open(file, openFlags, (openError, fd) => {
      if (openError !== null) {
        const { code } = openError;
        if (code === 'ENOENT' || code === 'ENOTDIR') resolve(missing);
        else if (code === 'EISDIR') resolve(notFile);
        else reject(openError);
        return;
      }
      const finish = (error: Error | null, result?: PromptTextResult): void => {
        close(fd, () => {
          if (error !== null) reject(error);
          else resolve(result ?? notFile);
        });
      };
      fstat(fd, (statError, stats) => {
        if (statError !== null) return finish(statError);
        if (!stats.isFile()) return finish(null, notFile);
        if (stats.size > maxBytes) return finish(null, { kind: 'too-large', size: stats.size });
        // Read the size fstat reported and no more: a file that grows meanwhile is read again on its
        // change event, and reading never goes past the cap.
        const buffer = Buffer.allocUnsafe(stats.size);
        let length = 0;
        const readMore = (): void => {
          if (length === buffer.length) return finish(null, { kind: 'text', ...decodePromptText(buffer) });
          read(fd, buffer, length, buffer.length - length, length, (readError, bytesRead) => {
            if (readError !== null) return finish(readError);
            if (bytesRead === 0) return finish(null, { kind: 'text', ...decodePromptText(buffer.subarray(0, length)) });
            length += bytesRead;
            readMore();
          });
        };
        readMore();
      });
    });
  });
