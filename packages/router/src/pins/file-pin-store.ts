import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { basename, dirname } from 'node:path';
import { describeError, isTable, PromptyardError, writeFileAtomically } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { runSliced } from '../slices.js';
import type { Sliced } from '../slices.js';
import { checkEntry, pinKey, unreadableAdvice } from './pin-store.js';
import type { PinStore } from './pin-store.js';
import type { PinEntry } from './pin-types.js';

/**
 * Pins in one JSON file, `{ "version": 1, "pins": [entry…] }`: written whole (a temporary file in
 * the same folder, then a rename, mode 0600, the folder made 0700) so a reader never sees half of
 * it, and watched (the folder, debounced) so a running gateway hears `pins approve` from another
 * process. A file that does not parse is an error naming it, never a silent re-trust.
 */

const FORMAT_VERSION = 1;
/** How long the folder must be quiet after an event before the file is read again. */
const debounceMs = 40;

const readText = async (file: string): Promise<string | undefined> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PromptyardError('BACKEND_ERROR', `cannot read the pin file ${file}: ${describeError(error)}`, { cause: error });
  }
};

/** The entries of the file's text, or an error naming the file and what to do. */
const parsePinFile = (file: string, text: string | undefined): PinEntry[] => {
  if (text === undefined) return [];
  const refuse = (problem: string): PromptyardError =>
    new PromptyardError('CONFIG_INVALID', `the pin file ${file} ${problem}: ${unreadableAdvice}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`is not valid JSON (${describeError(error)})`);
  }
  if (!isTable(value) || value['version'] !== FORMAT_VERSION || !Array.isArray(value['pins']))
    throw refuse(`is not a pin file of this version (expected { "version": ${FORMAT_VERSION}, "pins": [...] })`);
  try {
    return value['pins'].map((entry, index) => checkEntry(entry, `pins[${index}]`));
  } catch (error) {
    throw refuse(`has a broken entry: ${describeError(error)}`);
  }
};

/** A pin file's text in pieces of about this many characters: written one after another, never one buffer of it all. */
const PIECE_CHARS = 1 << 20;

/**
 * The pin file's text, entries sorted by key: as `JSON.stringify({ version, pins }, null, 2)` writes
 * it, made entry by entry (each entry's lines indented under `pins`), so a long file is made in
 * slices and kept as pieces.
 */
function* formattingPinFile(entries: ReadonlyMap<string, PinEntry>): Sliced<readonly string[]> {
  const keys = [...entries.keys()].sort();
  if (keys.length === 0) return [`{\n  "version": ${FORMAT_VERSION},\n  "pins": []\n}\n`];
  const pieces: string[] = [];
  let piece = `{\n  "version": ${FORMAT_VERSION},\n  "pins": [\n`;
  for (const [index, key] of keys.entries()) {
    yield;
    // JSON strings never hold a raw newline: every newline is a line break to indent.
    piece += `    ${JSON.stringify(entries.get(key), null, 2).replaceAll('\n', '\n    ')}${index === keys.length - 1 ? '\n' : ',\n'}`;
    if (piece.length >= PIECE_CHARS) {
      pieces.push(piece);
      piece = '';
    }
  }
  pieces.push(`${piece}  ]\n}\n`);
  return pieces;
}

const formatPinFile = (entries: ReadonlyMap<string, PinEntry>): Promise<readonly string[]> | readonly string[] =>
  runSliced(formattingPinFile(entries));

/** Whether two texts in pieces are the same text. */
const sameText = (pieces: readonly string[], text: string | undefined): boolean => {
  if (text === undefined) return false;
  let at = 0;
  for (const piece of pieces) {
    if (!text.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return at === text.length;
};

const writeAtomically = async (file: string, text: string | readonly string[]): Promise<void> => {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    await writeFileAtomically(file, text, { mode: 0o600 });
  } catch (error) {
    throw new PromptyardError('BACKEND_ERROR', `cannot write the pin file ${file}: ${describeError(error)}`, { cause: error });
  }
};

/** A lock older than this was left by a process that died while writing. */
const staleLockMs = 10_000;

/**
 * Runs `work` holding `<file>.lock` (created exclusively), so a gateway recording what it saw and
 * `pins approve` in another process never write over each other's read-modify-write.
 */
const withLock = async <T>(file: string, work: () => Promise<T>): Promise<T> => {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > staleLockMs) await rm(lock, { force: true });
      else if (Date.now() - started > staleLockMs + 1000)
        throw new PromptyardError(
          'TIMEOUT',
          `the pin file ${file} stays locked by another process (${lock}); remove the lock file if no gateway is writing`,
        );
      else await delay(15);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
};

/** Calls `noticed` once the folder of `file` is quiet after an event about it (renames replace the file, so its folder is watched). */
const watchFile = (file: string, noticed: () => void, logger: Logger): { close(): void } => {
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dirname(file), { persistent: false }, (_event, name) => {
    if (name !== null && name !== basename(file)) return;
    clearTimeout(timer);
    timer = setTimeout(noticed, debounceMs);
  });
  watcher.on('error', (error) => logger.warn('stopped watching the pin file', { file, error: describeError(error) }));
  return {
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
};

/** The edit that writes `written` (with `onlyIfAbsent`, those not there yet): whether every one was written. */
const writing =
  (written: readonly PinEntry[], onlyIfAbsent: boolean) =>
  (entries: Map<string, PinEntry>): boolean => {
    let complete = true;
    for (const entry of written) {
      const key = pinKey(entry);
      if (onlyIfAbsent && entries.has(key)) complete = false;
      else entries.set(key, entry);
    }
    return complete;
  };

/** The store of the pin file `file` (its folder is created, 0700, when missing). */
export const createFilePinStore = async (file: string, logger: Logger): Promise<PinStore> => {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  /** The text this process last read or wrote: an event for it is this process's own write. */
  let known: string | undefined;
  /** The entries of the text last parsed or written, by key: the file read again unchanged is not parsed again. */
  let parsed: { readonly text: string; readonly entries: ReadonlyMap<string, PinEntry> } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => {});
    return next;
  };
  const load = async (): Promise<ReadonlyMap<string, PinEntry>> => {
    const text = await readText(file);
    known = text;
    if (text !== undefined && parsed?.text === text) return parsed.entries;
    const entries = new Map(parsePinFile(file, text).map((entry) => [pinKey(entry), entry]));
    parsed = text === undefined ? undefined : { text, entries };
    return entries;
  };
  const listeners = new Set<() => void>();
  const tell = (): void => {
    for (const listener of listeners) listener();
  };
  /** Read, edit, write, under the lock; a file another process changed since this one last read it is news for the listeners too. */
  const change = (edit: (entries: Map<string, PinEntry>) => boolean): Promise<boolean> =>
    serial(() =>
      withLock(file, async () => {
        const before = known;
        const entries = new Map(await load());
        const outside = known !== before;
        const complete = edit(entries);
        const pieces = await formatPinFile(entries);
        // Nothing changed (every first-sight pin already there): no write, no watch event for others.
        if (!sameText(pieces, known)) {
          await writeAtomically(file, pieces);
          known = pieces.join('');
          parsed = { text: known, entries };
        }
        if (outside) queueMicrotask(tell);
        return complete;
      }),
    );
  const noticed = async (): Promise<void> => {
    const text = await readText(file).catch(() => undefined);
    if (text === known) return;
    known = text;
    tell();
  };
  let watcher: { close(): void } | undefined;
  return {
    where: file,
    load: () => serial(async () => [...(await load()).values()]),
    write: (written, options) => change(writing(written, options?.onlyIfAbsent === true)),
    remove: async (removed) => {
      await change((entries) => {
        for (const entry of removed) entries.delete(pinKey(entry));
        return true;
      });
    },
    clear: () =>
      serial(() =>
        withLock(file, async () => {
          const text = (await formatPinFile(new Map())).join('');
          await writeAtomically(file, text);
          known = text;
          parsed = undefined;
        }),
      ),
    watch: (listener) => {
      watcher ??= watchFile(file, () => void serial(noticed), logger);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      watcher?.close();
      listeners.clear();
      await queue;
    },
  };
};
