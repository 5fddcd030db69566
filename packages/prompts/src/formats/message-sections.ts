/**
 * The native format's multi-message convention. HTML comments on a line of their own, invisible
 * when the Markdown is rendered:
 *
 *   <!-- message: assistant -->   the following text is an assistant message (or `user`)
 *   <!-- resource: docs/a.png --> embeds a file of the prompt folder as a resource or image
 *
 * Markers inside code fences are text. A body without markers is one user message, as before.
 */
export type MessagePart =
  | { readonly kind: 'message'; readonly role: 'user' | 'assistant'; readonly text: string; readonly lineOffset: number }
  | { readonly kind: 'resource'; readonly path: string; readonly line: number };

const marker = /^[ \t]*<!--[ \t]*(message|resource)[ \t]*:[ \t]*(.+?)[ \t]*-->[ \t]*\r?$/;
const fence = /^[ \t]*(```|~~~)/;

export const hasMessageMarkers = (body: string): boolean => body.includes('<!--') && /<!--[ \t]*(message|resource)[ \t]*:/.test(body);

/** Splits a body at marker lines; `message:` roles other than user/assistant are an error. */
export const splitMessageParts = (body: string, onError: (line: number, reason: string) => never): MessagePart[] => {
  const lines = body.split('\n');
  const parts: MessagePart[] = [];
  let role: 'user' | 'assistant' = 'user';
  let start = 0;
  let inFence = false;
  const flush = (end: number): void => {
    const text = lines.slice(start, end).join('\n');
    if (text.trim() !== '') parts.push({ kind: 'message', role, text: text.replace(/^\n+|\n+$/g, ''), lineOffset: start });
  };
  lines.forEach((line, index) => {
    if (fence.test(line)) inFence = !inFence;
    const match = inFence ? null : marker.exec(line);
    if (match === null) return;
    flush(index);
    start = index + 1;
    const value = (match[2] ?? '').trim();
    if (match[1] === 'resource') {
      parts.push({ kind: 'resource', path: value, line: index });
      return;
    }
    if (value !== 'user' && value !== 'assistant')
      onError(index, `<!-- message: ${value} --> names no role MCP prompts have: use user or assistant`);
    role = value as 'user' | 'assistant';
  });
  flush(lines.length);
  return parts;
};
