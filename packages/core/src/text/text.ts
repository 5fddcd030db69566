/**
 * Text for messages and results. Here, UTF-8 byte limits, written once: every cap in Promptyard (tool
 * results, prompt fallbacks, resources) cuts on a character boundary and says where it cut, so a
 * model knows more exists. `suggest.ts`: the closest known names, lists and "did you mean" hints.
 */

/** The longest start of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export const truncateUtf8 = (text: string, maxBytes: number): string => {
  // Every UTF-16 unit takes at most 3 UTF-8 bytes: short texts need no encoding at all.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
};

/** The note a capped text ends with: `[output cut at 4096 bytes ([limits] max_response_bytes)]`. */
export const cutNote = (maxBytes: number, setting: string): string => `[output cut at ${maxBytes} bytes (${setting})]`;

/**
 * `text` within `maxBytes` UTF-8 bytes, the note included: when it is longer, its start and, on a
 * line of its own, the note naming `setting` (the config key that raises the limit).
 */
export const capText = (text: string, maxBytes: number, setting: string): string => {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const note = `\n${cutNote(maxBytes, setting)}`;
  return truncateUtf8(text, maxBytes - Buffer.byteLength(note, 'utf8')) + note;
};
