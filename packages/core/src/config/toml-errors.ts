/**
 * TOML syntax errors as a user reads them: where (file, line, column), why, and the parser's own
 * snippet of the lines around it with a caret under the column, so the mistake is seen, not sought.
 */

/** What smol-toml's `TomlError` carries; read by shape, since a package may hold its own copy of the parser. */
interface TomlErrorShape {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly codeblock: string;
}

const isTomlError = (error: unknown): error is TomlErrorShape =>
  error instanceof Error &&
  typeof (error as Partial<TomlErrorShape>).line === 'number' &&
  typeof (error as Partial<TomlErrorShape>).column === 'number' &&
  typeof (error as Partial<TomlErrorShape>).codeblock === 'string';

/** Keys whose values are secrets, or hold them (`headers = { Authorization = "…" }`, `env = { API_KEY = "…" }`). */
const SECRET_KEY = /token|secret|password|passwd|authorization|api_key|apikey|credential|cookie|headers|env/i;
/** A key and its `=`: bare (`auth_token`), quoted (`"X-Api-Key"`) or the last part of a dotted key. */
const KEY_BEFORE_EQUALS = /(?:^|[\s{,.])(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=/g;
/** A string value, to its closing quote or, unterminated, to the end of the line. */
const STRING_VALUE = /(["'])((?:\\.|(?!\1).)*)(\1?)/g;

/**
 * A snippet line with every string value after a secret's key replaced by `*`, one for each
 * character: the line keeps its shape and the caret its column, and the secret is not printed
 * (an error log of a hot reload must not hold a bearer token).
 */
const maskSecrets = (content: string): string => {
  let from = -1;
  for (const match of content.matchAll(KEY_BEFORE_EQUALS)) {
    if (SECRET_KEY.test(match[1] ?? match[2] ?? match[3] ?? '')) {
      from = match.index + match[0].length;
      break;
    }
  }
  if (from < 0) return content;
  const rest = content
    .slice(from)
    .replace(STRING_VALUE, (_whole, quote: string, value: string, end: string) => quote + '*'.repeat(value.length) + end);
  return content.slice(0, from) + rest;
};

/** A numbered line of the parser's snippet (`12:  key = value`); the caret line has no number. */
const NUMBERED_LINE = /^(\s*\d+:\s*)(.*)$/;

/**
 * The parser's snippet (numbered lines, a caret under the column), each line indented, secret values
 * masked; '' when the error has none.
 */
export const tomlErrorSnippet = (error: unknown, indent = '    '): string => {
  if (!isTomlError(error)) return '';
  const lines = error.codeblock.replace(/\s+$/, '').split('\n');
  if (lines.length === 0 || lines[0] === '') return '';
  const masked = lines.map((line) =>
    line.replace(NUMBERED_LINE, (_whole, number: string, content: string) => number + maskSecrets(content)),
  );
  return `\n${masked.map((line) => `${indent}${line}`.trimEnd()).join('\n')}`;
};

/** The first line of a TOML error's message, without the parser's "Invalid TOML document:" preamble. */
export const tomlErrorReason = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? message;
  return first.replace(/^Invalid TOML document:\s*/, '') || first;
};

/**
 * `file:line:column: invalid TOML: reason`, then the snippet; for an error that is not a TOML syntax
 * error, `file: reason`.
 */
export const describeTomlError = (error: unknown, file: string, indent = '    '): string => {
  if (!isTomlError(error)) return `${file}: ${tomlErrorReason(error)}`;
  return `${file}:${error.line}:${error.column}: invalid TOML: ${tomlErrorReason(error)}${tomlErrorSnippet(error, indent)}`;
};

/** The line of a TOML syntax error, when the error has one. */
export const tomlErrorLine = (error: unknown): number | undefined => (isTomlError(error) ? error.line : undefined);
