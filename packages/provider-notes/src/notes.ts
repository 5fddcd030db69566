import { closestNames, didYouMean, PromptyardError } from '@promptyard/core';
import type { ProviderOptions } from '@promptyard/core';

/** Each option is a note: its key the name, its value the Markdown text. */
export type NotesOptions = ProviderOptions;

export const noteNames = (notes: NotesOptions): string[] => Object.keys(notes).sort();

/** The note's text, or RESOURCE_NOT_FOUND naming the closest notes (clients see invalid params). */
export const noteText = (notes: NotesOptions, name: string, uri: string): string => {
  const text = Object.hasOwn(notes, name) ? notes[name] : undefined;
  if (text !== undefined) return text;
  const close = closestNames(name, noteNames(notes));
  // Without a hint, the sentence still ends.
  const hint = didYouMean(close, 'clause') || '.';
  throw new PromptyardError('RESOURCE_NOT_FOUND', `No note "${name}"${hint} Notes are the options of this provider in promptyard.toml.`, {
    data: { uri },
  });
};

/** The first heading or line of a note, for descriptions. */
export const firstLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.replace(/^#+\s*/, '').trim())
    .find((line) => line !== '') ?? '';
