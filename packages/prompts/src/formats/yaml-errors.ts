import { isRecord } from './value-shape.js';
import { errorCode } from './file-error.js';

/** What went wrong in a YAML frontmatter block, said the way a prompt author can act on. */
export interface YamlProblem {
  readonly reason: string;
  /** 1-based line within the YAML text, when known. */
  readonly line: number | undefined;
}

const lineEnd = (text: string, start: number): number => {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end;
};

/** "Map keys must be unique at line 2, column 1:\n…" → "Map keys must be unique". */
const libraryReason = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.slice(0, lineEnd(message, 0));
  const at = first.lastIndexOf(' at line ');
  return at === -1 ? first : first.slice(0, at);
};

const errorLine = (error: unknown): number | undefined => {
  if (!isRecord(error) || !Array.isArray(error['linePos'])) return undefined;
  const first: unknown = error['linePos'][0];
  return isRecord(first) && typeof first['line'] === 'number' ? first['line'] : undefined;
};

/** `key: value` (or `- key: value`) on a line; the value as written. */
const keyValue = (text: string | undefined): { readonly key: string; readonly value: string } | undefined => {
  const match = text === undefined ? null : /^[ \t]*(?:-[ \t]+)?([^\s:#'"][^:#]*?):[ \t]+(\S.*?)[ \t]*$/.exec(text);
  return match === null ? undefined : { key: match[1] ?? '', value: match[2] ?? '' };
};

const quoted = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Whether a quoted scalar that starts at `rest[0]` ends on the same line. */
const closesOnLine = (rest: string): boolean => {
  const quote = rest[0];
  for (let index = 1; index < rest.length; index++) {
    const char = rest[index];
    if (quote === '"' && char === '\\') index++;
    else if (char === quote && quote === "'" && rest[index + 1] === "'") index++;
    else if (char === quote) return true;
  }
  return false;
};

/** The last line before `limit` that opens a quoted value and does not close it. */
const unclosedQuoteLine = (lines: readonly string[], limit: number): { readonly line: number; readonly quote: string } | undefined => {
  let found: { line: number; quote: string } | undefined;
  for (let index = 0; index < Math.min(limit, lines.length); index++) {
    const match = /^[ \t]*(?:-[ \t]+)?(?:[^\s:#'"][^:#]*?:[ \t]+)?(["'].*)$/.exec(lines[index] ?? '');
    const rest = match?.[1];
    if (rest !== undefined && !closesOnLine(rest)) found = { line: index + 1, quote: rest[0] ?? '"' };
  }
  return found;
};

const reservedStarts = '[]{}*&!|>@`%-?,';

/**
 * Explains an error of the `yaml` library for the common mistakes in prompt frontmatter: an unquoted
 * value holding `: `, a quote never closed (reported where it opens, not where the parser gave up),
 * tabs for indentation, a key given twice, a value starting with a YAML indicator (`[draft] …`).
 * Anything else keeps the library's own words.
 */
export const explainYamlError = (error: unknown, yaml: string): YamlProblem => {
  const line = errorLine(error);
  const lines = yaml.split('\n');
  const text = line === undefined ? undefined : lines[line - 1];
  const pair = keyValue(text);
  const reason = libraryReason(error);
  switch (errorCode(error)) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (pair !== undefined) {
        return {
          line,
          reason: `the value of "${pair.key}" contains ": ", which YAML reads as a nested key: put the value in quotes, as in ${pair.key}: ${quoted(pair.value)}`,
        };
      }
      break;
    case 'MISSING_CHAR': {
      const open = /quote/i.test(reason) ? unclosedQuoteLine(lines, line ?? lines.length) : undefined;
      if (open !== undefined)
        return {
          line: open.line,
          reason: `the ${open.quote} that opens this value is never closed: end the value with ${open.quote} on the same line`,
        };
      if (/indicator/.test(reason))
        return { line, reason: `${reason}: check the indentation (items of one list line up, each starting with "- ")` };
      break;
    }
    case 'TAB_AS_INDENT':
      return { line, reason: 'a tab indents this line, and YAML allows only spaces for indentation: indent with spaces' };
    case 'DUPLICATE_KEY': {
      const key = /^[ \t]*(?:-[ \t]+)?([^:]+?):/.exec(text ?? '')?.[1];
      if (key !== undefined) return { line, reason: `"${key}" is given twice: keep one` };
      break;
    }
    case 'BAD_SCALAR_START':
    case 'UNEXPECTED_TOKEN':
      if (pair !== undefined && reservedStarts.includes(pair.value[0] ?? '')) {
        return {
          line,
          reason: `a value starting with "${pair.value[0] ?? ''}" means something else in YAML: put the value in quotes, as in ${pair.key}: ${quoted(pair.value)}`,
        };
      }
      break;
  }
  return { line, reason };
};
