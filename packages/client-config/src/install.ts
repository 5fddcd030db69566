/**
 * Installing and removing one server entry in one client's file: read it (a missing file is an
 * empty one), refuse it when it does not parse, edit only that entry, and write the result
 * atomically after copying the previous file to `<file>.bak`. An entry already as wanted is left
 * alone: nothing is written, not even the backup.
 */
import { copyFile, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PromptyardError, isPromptyardError, writeFileAtomically } from '@promptyard/core';
import type { ClientDefinition, FileFormat } from './clients/clients.js';
import type { EntryValue, FormatEditor } from './formats/format.js';

/**
 * A format's editor, loaded when a command edits a file of that format: the libraries behind the
 * editors (jsonc-parser, yaml, toml-patch) took ~100–140 ms to load, which every start of both
 * binaries paid before (the binaries import this package for its commands).
 */
const loadEditor = async (format: FileFormat): Promise<FormatEditor> => {
  switch (format) {
    case 'json':
      return (await import('./formats/json-edit.js')).jsonEditor;
    case 'toml':
      return (await import('./formats/toml-edit.js')).tomlEditor;
    case 'yaml':
      return (await import('./formats/yaml-edit.js')).yamlEditor;
  }
};

export interface EntryTarget {
  readonly client: ClientDefinition;
  readonly file: string;
  readonly name: string;
  /** Report what would change, write nothing. */
  readonly dryRun: boolean;
  /** The entry may hold secrets: a file created for it gets mode 0600 (an existing file keeps its mode). */
  readonly private?: boolean;
}

type Outcome = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

export interface ChangeReport {
  readonly file: string;
  readonly name: string;
  readonly outcome: Outcome;
  /** Where the previous file was copied, when one was written over. */
  readonly backup?: string;
  /** The entry alone, as the file would hold it (a dry-run install shows it). */
  readonly preview?: string;
}

interface CurrentFile {
  /** The file to write: a symbolic link's target, so a linked dotfile stays linked. */
  readonly path: string;
  /** The text on disk, or undefined for a file that does not exist yet. */
  readonly text: string | undefined;
  readonly mode: number | undefined;
}

/** Values as data (parsers may hand back objects of their own classes). */
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The editors work on `\n` line ends; a file written with `\r\n` (as editors on Windows do) gets
 * them back, so an added entry matches its file and a removal restores it exactly.
 */
const withLineEnds = (original: string | undefined, edited: string): string =>
  original?.includes('\r\n') === true ? edited.replace(/\r?\n/g, '\r\n') : edited;

const readCurrent = async (file: string): Promise<CurrentFile> => {
  const path = await realpath(file).catch((error: unknown) => {
    if (isMissing(error)) return file;
    throw error;
  });
  try {
    const [raw, stats] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { path, text: raw, mode: stats.mode & 0o777 };
  } catch (error) {
    if (isMissing(error)) return { path, text: undefined, mode: undefined };
    throw error;
  }
};

/** Copies the previous file to `<file>.bak`, then writes `text` in its place; returns the backup's path. */
const writeWithBackup = async (current: CurrentFile, text: string, owner = false): Promise<string | undefined> => {
  let backup: string | undefined;
  if (current.text !== undefined) {
    backup = `${current.path}.bak`;
    await copyFile(current.path, backup);
  }
  await mkdir(dirname(current.path), { recursive: true });
  const mode = current.mode ?? (owner ? 0o600 : undefined);
  await writeFileAtomically(current.path, text, mode === undefined ? {} : { mode });
  return backup;
};

/** Runs an edit; a refusal names the file, and any other failure (a parser's own error) becomes one. */
const editing = <T>(file: string, edit: () => T): T => {
  try {
    return edit();
  } catch (error) {
    if (!isPromptyardError(error))
      throw new PromptyardError(
        'CONFIG_INVALID',
        `${file} could not be edited (${(error as Error).message.split('\n')[0] ?? 'unknown error'}); it was left untouched. Edit it by hand, or move it away and run the command again.`,
      );
    if (!error.message.startsWith(file)) throw new PromptyardError(error.code, `${file}: ${error.message}`);
    throw error;
  }
};

/**
 * Checks an edit did what it meant and nothing else: the entry holds `entry` (or is gone when that is
 * undefined) and the rest of the document parses to what it was. Anything else is refused before writing.
 */
const verify = (editor: FormatEditor, target: EntryTarget, before: string, after: string, entry: EntryValue | undefined): void => {
  const { client, file, name } = target;
  let ok = false;
  try {
    ok =
      isDeepStrictEqual(plain(editor.get(after, client.container, name)), plain(entry)) &&
      isDeepStrictEqual(plain(editor.without(after, client.container, name)), plain(editor.without(before, client.container, name)));
  } catch {
    ok = false;
  }
  if (!ok)
    throw new PromptyardError(
      'CONFIG_INVALID',
      `${file}: the edit of "${name}" would have changed more than that entry, so the file was left untouched. Edit it by hand (or move it away and run the command again).`,
    );
};

/** Adds or updates `target.name` with `entry`. */
export const installEntry = async (target: EntryTarget, entry: EntryValue): Promise<ChangeReport> => {
  const { client, file, name } = target;
  const refusal = client.refuse?.(file);
  if (refusal !== undefined) throw new PromptyardError('CONFIG_INVALID', refusal);
  const editor = await loadEditor(client.format);
  const current = await readCurrent(file);
  if (current.text !== undefined) editor.check(current.text, file);
  const text = current.text?.replace(/\r\n/g, '\n') ?? client.newFileText ?? editor.emptyText;
  const existing = editing(file, () => editor.get(text, client.container, name));
  const base = { file, name };
  if (isDeepStrictEqual(plain(existing), plain(entry))) return { ...base, outcome: 'unchanged' };
  const outcome = existing === undefined ? 'added' : 'updated';
  const edited = editing(file, () => editor.set(text, client.container, name, entry));
  verify(editor, target, text, edited, entry);
  const next = withLineEnds(current.text, edited);
  if (target.dryRun) return { ...base, outcome, preview: editor.set(editor.emptyText, client.container, name, entry) };
  const backup = await writeWithBackup(current, next, target.private === true);
  return { ...base, outcome, ...(backup === undefined ? {} : { backup }) };
};

/** Removes `target.name`, and nothing else. */
export const uninstallEntry = async (target: EntryTarget): Promise<ChangeReport> => {
  const { client, file, name } = target;
  const editor = await loadEditor(client.format);
  const current = await readCurrent(file);
  if (current.text === undefined) return { file, name, outcome: 'absent' };
  editor.check(current.text, file);
  const text = current.text.replace(/\r\n/g, '\n');
  if (editing(file, () => editor.get(text, client.container, name)) === undefined) return { file, name, outcome: 'absent' };
  const edited = editing(file, () => editor.remove(text, client.container, name));
  verify(editor, target, text, edited, undefined);
  const next = withLineEnds(current.text, edited);
  if (target.dryRun) return { file, name, outcome: 'removed' };
  const backup = await writeWithBackup(current, next);
  return { file, name, outcome: 'removed', ...(backup === undefined ? {} : { backup }) };
};
