/**
 * A `$`-placeholder body cut into literal text and placeholders, the one scan Claude Code's and
 * Codex's dialects share (dollar-dialect.ts, codex-dialect.ts). Each dialect says which matches are
 * placeholders and what a placeholder's value is; cutting and joining are here.
 */

/** A word by 0-based position (`$0`, `$1`, `$ARGUMENTS[2]`, `$name`), or the whole free text. */
export type Placeholder = { readonly position: number; readonly raw: string; readonly named: boolean } | { readonly all: true };
export type Part = string | Placeholder;

/**
 * Cuts `body` at `pattern`'s matches (a global RegExp). `read` turns a match into a placeholder, or
 * into the literal text that stands for it (an escape such as `\$` or Codex's `$$`).
 */
export const cutAtPlaceholders = (body: string, pattern: RegExp, read: (match: RegExpExecArray) => Placeholder | string): Part[] => {
  const parts: Part[] = [];
  let text = '';
  let last = 0;
  for (const match of body.matchAll(pattern)) {
    text += body.slice(last, match.index);
    last = match.index + match[0].length;
    const part = read(match);
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    parts.push(text, part);
    text = '';
  }
  parts.push(text + body.slice(last));
  return parts;
};

/** The positional placeholders among `parts`. */
export const positionsOf = (parts: readonly Part[]): number[] =>
  parts.flatMap((part) => (typeof part !== 'string' && 'position' in part ? [part.position] : []));

/** Whether any part is a placeholder. */
export const hasPlaceholders = (parts: readonly Part[]): boolean => parts.some((part) => typeof part !== 'string');

/**
 * The words at positions 0 … `lastPosition` joined by one space, the empty ones left out: what
 * `$ARGUMENTS` stands for when the values came by name and no free text was typed.
 */
export const joinPositions = (lastPosition: number, at: (position: number) => string | undefined): string => {
  const given: string[] = [];
  for (let position = 0; position <= lastPosition; position++) given.push(at(position) ?? '');
  return given.filter((value) => value !== '').join(' ');
};

/** The body with each placeholder replaced by its value. */
export const joinParts = (parts: readonly Part[], valueOf: (placeholder: Placeholder) => string): string =>
  parts.map((part) => (typeof part === 'string' ? part : valueOf(part))).join('');
