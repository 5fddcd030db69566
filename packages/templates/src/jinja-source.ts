/**
 * The Jinja source as @huggingface/jinja can read it, before tokenizing: `{% raw %}` blocks become
 * string literals (their text is never read as tags), and a final newline is doubled, because the
 * library drops one where Prompty's environment (`keep_trailing_newline=True`) keeps it. Newlines
 * stay where they were, so a tag keeps its line.
 */

/** A Jinja2 construct the engine refuses on purpose: its message says so and what to write instead. */
export class JinjaUnsupportedError extends Error {
  /** The tag's first word (`for`, `include` …), to find its line; '' when it is not a tag. */
  readonly keyword: string;

  constructor(keyword: string, message: string) {
    super(message);
    this.keyword = keyword;
  }
}

const rawBlock = /\{%([-+]?)\s*raw\s*([-+]?)%\}([\s\S]*?)\{%([-+]?)\s*endraw\s*([-+]?)%\}/g;

/** Text as a single-quoted string literal of the library's lexer (which reads `\\` and `\'`). */
const quoted = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * `{% raw %}…{% endraw %}` as `{{ '…' }}`, honouring `-` on either tag: `{%- raw` trims the text
 * before, `raw -%}` the start of the raw text, `{%- endraw` its end, `endraw -%}` the text after.
 */
const replaceRaw = (source: string): string =>
  source.replace(rawBlock, (_match, before: string, start: string, text: string, end: string, after: string) => {
    let body = text;
    if (start === '-') body = body.replace(/^\s+/, '');
    if (end === '-') body = body.replace(/\s+$/, '');
    // Newlines trimmed away still count for the lines of the tags after.
    const lost = text.split('\n').length - body.split('\n').length;
    // A comment trims the text before (`{#-`) and keeps the count of lines.
    const comment = before === '-' || lost > 0 ? `{#${before === '-' ? '-' : ''}${'\n'.repeat(lost)}#}` : '';
    return `${comment}{{ ${quoted(body)} ${after === '-' ? '-' : ''}}}`;
  });

export const prepareSource = (source: string): string => {
  const unclosed = /\{%[-+]?\s*raw\s*[-+]?%\}/.exec(source.replace(rawBlock, ''));
  if (unclosed !== null) throw new SyntaxError('{% raw %} is never closed: add {% endraw %}');
  const text = replaceRaw(source);
  return text.endsWith('\n') ? `${text}\n` : text;
};
