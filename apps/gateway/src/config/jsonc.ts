/**
 * JSON with comments and trailing commas, as VS Code and Cursor write it. Comments and trailing
 * commas are blanked with spaces (newlines kept), so offsets and lines in parse errors stay true.
 */
export const stripJsonComments = (text: string): string => {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let index = from; index < to; index++) if (out[index] !== '\n' && out[index] !== '\r') out[index] = ' ';
  };
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      const stop = end < 0 ? text.length : end;
      blank(index, stop);
      index = stop - 1;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(index, stop);
      index = stop - 1;
    }
  }
  // Trailing commas: a comma outside strings followed (past blanks) by `}` or `]`.
  const blanked = out.join('');
  inString = false;
  for (let index = 0; index < blanked.length; index++) {
    const char = blanked[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === ',') {
      const next = /\S/.exec(blanked.slice(index + 1));
      if (next !== null && (next[0] === '}' || next[0] === ']')) out[index] = ' ';
    }
  }
  return out.join('');
};

const lineAt = (text: string, offset: number): number => {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) if (text[index] === '\n') line++;
  return line;
};

/** The line of a parse error whose message carries `position N`; 0 when it does not. */
export const jsonErrorLine = (text: string, error: Error): number => {
  const match = /position (\d+)/.exec(error.message);
  return match ? lineAt(text, Number(match[1])) : 0;
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The line of the deepest key of `path` found (`["mcpServers", "github", "env"]`), searching each key
 * after the previous one; 0 when the first is not found. Good enough for messages, not a parser.
 */
export const locateJsonPath = (text: string, path: readonly string[]): number => {
  let from = 0;
  let found = -1;
  for (const key of path) {
    const pattern = new RegExp(`${escapeRegExp(JSON.stringify(key))}\\s*:`, 'g');
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    if (match === null) break;
    found = match.index;
    from = match.index + match[0].length;
  }
  return found < 0 ? 0 : lineAt(text, found);
};
