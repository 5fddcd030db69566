/**
 * Writing a file another process may read at any moment (a lock file, a pin file, a cache entry):
 * the text goes to a temporary file beside it, renamed over it, so a reader finds the old file or
 * the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Writes `text` to `file` atomically (`mode` for a new file); the temporary file is removed when the
 * write fails. A long text may come in pieces, written one after another (no one buffer of it all).
 */
export const writeFileAtomically = async (
  file: string,
  text: string | Iterable<string>,
  options: { readonly mode?: number } = {},
): Promise<void> => {
  const temporary = `${file}.${String(process.pid)}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, options.mode === undefined ? 'utf8' : { encoding: 'utf8', mode: options.mode });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
};
