/**
 * A pending definition beside the approved one, as a person reads it: for `pins diff` and the
 * terminal UI's Pins panel. A changed definition is a unified diff per changed field; a new one
 * (no approved form yet) is its whole definition marked `+`.
 */
import { changedFields, rejectionOf } from '@promptyard/router';
import type { PinEntry, PinRecord } from '@promptyard/router';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** `server/name`, as `pins diff` and `pins approve` take it. */
export const pinAddress = (entry: Pick<PinEntry, 'server' | 'name'>): string => `${entry.server}/${entry.name}`;

/** A field as text a person reads: a string as it is, anything else as pretty JSON. */
const readable = (value: unknown): string =>
  value === undefined ? '' : `${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`;

/** `; rejected by ann at …` when the pending form was rejected (`pins reject`, the console), else nothing. */
export const rejectionNote = (entry: PinEntry): string => {
  const rejection = rejectionOf(entry);
  return rejection === undefined ? '' : `; rejected by ${rejection.subject} at ${rejection.at}`;
};

/** The diff of an entry with a pending definition: a heading line, then the patches (or the new definition). */
export const pinDiff = (entry: PinEntry & { readonly pending: PinRecord }): string => {
  const { pinned, pending } = entry;
  if (pinned === undefined)
    return `${pinAddress(entry)} (${entry.kind}, new, first seen ${pending.at}${rejectionNote(entry)}):\n${JSON.stringify(pending.definition, null, 2).replace(/^/gm, '+ ')}\n`;
  const patches = changedFields(pinned.definition, pending.definition).map((field) =>
    createTwoFilesPatch(
      `${field} (approved)`,
      `${field} (seen)`,
      readable(pinned.definition[field]),
      readable(pending.definition[field]),
      pinned.at,
      pending.at,
      {
        headerOptions: FILE_HEADERS_ONLY,
      },
    ),
  );
  return `${pinAddress(entry)} (${entry.kind}, changed${rejectionNote(entry)}):\n${patches.join('')}`;
};
