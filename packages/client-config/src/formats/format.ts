/**
 * What every config-file format offers the installer: read one named server entry, set it, remove
 * it — each an edit of the text that leaves everything else (other entries, comments, layout) as it
 * was. A text that is not valid in its format is refused before any edit.
 */
import { PromptyardError } from '@promptyard/core';

/** A server entry as the client's file holds it: strings, string lists and string maps. */
export type EntryValue = Readonly<Record<string, unknown>>;

export interface FormatEditor {
  /** The text of a file that does not exist yet. */
  readonly emptyText: string;
  /** Throws a `CONFIG_INVALID` error naming `file` when `text` does not parse. */
  readonly check: (text: string, file: string) => void;
  /** The entry called `name` in the servers collection at `container`, or undefined. */
  readonly get: (text: string, container: readonly string[], name: string) => unknown;
  /** `text` with the entry `name` added, or replaced when present. */
  readonly set: (text: string, container: readonly string[], name: string, value: EntryValue) => string;
  /** `text` without the entry `name` (a collection left empty by that is removed too). */
  readonly remove: (text: string, container: readonly string[], name: string) => string;
  /** The parsed document without the entry `name` (and a collection that leaves empty), as plain data: what must not change. */
  readonly without: (text: string, container: readonly string[], name: string) => unknown;
}

/** The one message for a file the installer cannot read: where, why, and that it was not touched. */
export const invalidFileError = (file: string, format: string, reason: string): PromptyardError =>
  new PromptyardError(
    'CONFIG_INVALID',
    `${file} is not valid ${format} (${reason}); it was left untouched. Fix the file (or move it away) and run the command again.`,
  );

/** The servers' key holds something else than a collection of servers: nothing is overwritten. */
export const notACollection = (path: readonly string[], expected: string): PromptyardError =>
  new PromptyardError(
    'CONFIG_INVALID',
    `"${path.join('.') || '(top level)'}" is not ${expected}, so the server entry cannot go there; it was left untouched. Fix that key and run the command again.`,
  );
