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

/** The parser's snippet (numbered lines, a caret under the column), each line indented; '' when the error has none. */
export const tomlErrorSnippet = (error: unknown, indent = '    '): string => {
  if (!isTomlError(error)) return '';
  const lines = error.codeblock.replace(/\s+$/, '').split('\n');
  return lines.length === 0 || lines[0] === '' ? '' : `\n${lines.map((line) => `${indent}${line}`.trimEnd()).join('\n')}`;
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
