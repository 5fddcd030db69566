/**
 * The "skeleton" of a Liquid template: its markup with every literal text run replaced by a short
 * tag, `{%__promptyard_text__ i%}`, that prints text run `i` (the engine registers that tag; it
 * reads the runs from a hidden global, so the parsed skeleton does not depend on the text).
 * liquidjs's tokenizer visits every character and its variable analysis rescans the template for
 * positions, so parsing the skeleton (much shorter than the source) instead of the source is what
 * makes loading a large library fast.
 *
 * The split replicates liquidjs 10's tokenizer (default delimiters and options, `greedy: true`):
 * where a text run ends, which `}}` closes an output, whitespace control, `{% raw %}` and
 * `{% comment %}`. Each text tag keeps one `\n` per newline of the source it replaces, so every
 * markup token sits on its original line and errors keep their line numbers. Whenever the source is
 * not plainly tokenizable (an unclosed delimiter, a tag without a name, an odd `endraw`), no
 * skeleton is built and the caller parses the source itself, to get liquidjs's own error.
 */

/**
 * The text tag's name, also the hidden global holding the text runs. A source that mentions it is
 * never turned into a skeleton, so in a skeleton every use of the name is a text tag.
 */
export const textsName = '__promptyard_text__';

export interface Skeleton {
  /** The markup of the source, text runs replaced by `{%__promptyard_text__ i…%}`. */
  readonly source: string;
  /** The text runs, whitespace control applied: what `{%__promptyard_text__ i%}` prints. */
  readonly texts: readonly string[];
  /**
   * The skeleton in order, for the direct renderer: text run indices and markup tokens as written
   * (`{% comment %}` directly followed by its `{% endcomment %}`, as nothing inside renders).
   */
  readonly sequence: readonly (number | string)[];
}

/** liquidjs's `BLANK` characters: what `{{-`/`-}}` trim and what tag names are padded with. */
const isBlank = (code: number): boolean =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 160 ||
  code === 5760 ||
  code === 6158 ||
  (code >= 8192 && code <= 8202) ||
  code === 8232 ||
  code === 8233 ||
  code === 8239 ||
  code === 8287 ||
  code === 12288;

/** liquidjs's `isWord`: ASCII letters, digits, `_`, `-`, `?`, and any non-blank non-ASCII unit. */
const isWord = (code: number): boolean => {
  if (code >= 128) return !isBlank(code) && code !== 8220 && code !== 8221;
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 45 || code === 63
  );
};

type Kind = 'text' | 'tag' | 'output';

/** A token as liquidjs's `readTopLevelTokens` produces it; text tokens carry their trims. */
interface Token {
  readonly kind: Kind;
  readonly begin: number;
  readonly end: number;
  /** Tag name (`#` for inline comments); empty for text and outputs. */
  readonly name: string;
  /** A delimited token's `{{-`/`{%-` (text: characters trimmed at its start). */
  trimLeft: number;
  /** A delimited token's `-}}`/`-%}` (text: characters trimmed at its end). */
  trimRight: number;
}

const dash = 45;
const quoteDouble = 34;
const quoteSingle = 39;
const backslash = 92;
const closeBrace = 125;

/** A delimited token; `trimLeft`/`trimRight` are 1 for a dash, as `DelimitedToken` reads them. */
const delimited = (source: string, kind: Kind, begin: number, end: number): Token => {
  const contentBegin = begin + 2;
  const contentEnd = end - 2;
  const trimLeft = source.charCodeAt(contentBegin) === dash ? 1 : 0;
  const trimRight = source.charCodeAt(contentEnd - 1) === dash ? 1 : 0;
  let name = '';
  if (kind === 'tag') {
    // TagToken: strip the dashes and blanks, then `#` or an identifier.
    let left = contentBegin + trimLeft;
    let right = contentEnd - trimRight;
    while (left < right && isBlank(source.charCodeAt(left))) left++;
    while (right > left && isBlank(source.charCodeAt(right - 1))) right--;
    if (left < right && source.charCodeAt(left) === 35) {
      name = '#';
    } else {
      let stop = left;
      while (stop < right && isWord(source.charCodeAt(stop))) stop++;
      name = source.slice(left, stop);
    }
  }
  return { kind, begin, end, name, trimLeft, trimRight };
};

/** The end of the output starting at `begin`, as `readToDelimiter('}}', true)` finds it; -1 if unclosed. */
const outputEnd = (source: string, begin: number): number => {
  const length = source.length;
  let p = begin;
  while (p < length) {
    const code = source.charCodeAt(p);
    if (code === quoteDouble || code === quoteSingle) {
      // readQuoted: up to the same quote not escaped by a backslash, or the end of the input.
      p++;
      let escaped = false;
      while (p < length) {
        const current = source.charCodeAt(p++);
        if (current === code && !escaped) break;
        escaped = escaped ? false : current === backslash;
      }
      continue;
    }
    p++;
    if (source.charCodeAt(p - 1) === closeBrace && source.charCodeAt(p - 2) === closeBrace) return p;
  }
  return -1;
};

/**
 * After `{% raw %}` ending at `from`: the raw content and the `endraw` tag, as liquidjs's
 * `readEndrawOrRawContent` finds them. `undefined` when unclosed, or for the odd shapes where that
 * function's result is hard to predict (`{% endraw {% … %}`).
 */
const readRaw = (source: string, from: number): readonly Token[] | undefined => {
  const length = source.length;
  let search = from;
  for (;;) {
    const left = source.indexOf('{%', search);
    if (left === -1) return undefined;
    // `readIdentifier`: blanks, then word characters. A dash (`{%- endraw %}`) is a word character
    // here, so liquidjs does not take that for the end of the raw block, and neither do we.
    let p = left + 2;
    while (p < length && isBlank(source.charCodeAt(p))) p++;
    let stop = p;
    while (stop < length && isWord(source.charCodeAt(stop))) stop++;
    if (stop - p === 6 && source.startsWith('endraw', p)) {
      const close = source.indexOf('%}', stop);
      if (close === -1) return undefined;
      const open = source.indexOf('{%', stop);
      if (open !== -1 && open < close) return undefined;
      const endraw = delimited(source, 'tag', left, close + 2);
      return left > from ? [{ kind: 'text', begin: from, end: left, name: '', trimLeft: 0, trimRight: 0 }, endraw] : [endraw];
    }
    search = stop;
  }
};

/** liquidjs's `readTopLevelTokens`, or `undefined` where it would throw (or is not worth predicting). */
const tokenize = (source: string): Token[] | undefined => {
  const length = source.length;
  const tokens: Token[] = [];
  let p = 0;
  while (p < length) {
    // A text token runs to the first `{{` or `{%`.
    let start = source.indexOf('{', p);
    while (start !== -1) {
      const next = source.charCodeAt(start + 1);
      if (next === 123 || next === 37) break;
      start = source.indexOf('{', start + 1);
    }
    if (start === -1) start = length;
    if (start > p) tokens.push({ kind: 'text', begin: p, end: start, name: '', trimLeft: 0, trimRight: 0 });
    if (start === length) break;
    if (source.charCodeAt(start + 1) === 37) {
      // readToDelimiter('%}') without quotes: the first `%}` after the `{`.
      const close = source.indexOf('%}', start + 1);
      if (close === -1) return undefined;
      const tag = delimited(source, 'tag', start, close + 2);
      // liquidjs throws `illegal tag syntax` while tokenizing.
      if (tag.name === '') return undefined;
      tokens.push(tag);
      p = tag.end;
      if (tag.name === 'raw') {
        const raw = readRaw(source, p);
        if (raw === undefined) return undefined;
        tokens.push(...raw);
        p = raw[raw.length - 1]?.end ?? p;
      }
    } else {
      const end = outputEnd(source, start);
      if (end === -1) return undefined;
      tokens.push(delimited(source, 'output', start, end));
      p = end;
    }
  }
  return tokens;
};

/**
 * liquidjs's `whiteSpaceCtrl` with `greedy: true`: a dash trims all blanks of the neighbouring text
 * token, except around the content of a raw block. Text tokens are always preceded and followed by
 * a delimiter (or the input's ends), so the trims cannot run past them.
 */
const trimWhitespace = (source: string, tokens: readonly Token[]): void => {
  let inRaw = false;
  for (const [index, token] of tokens.entries()) {
    if (token.kind === 'text') continue;
    const previous = tokens[index - 1];
    if (!inRaw && token.trimLeft !== 0 && previous?.kind === 'text') {
      while (isBlank(source.charCodeAt(previous.end - 1 - previous.trimRight))) previous.trimRight++;
    }
    if (token.name === 'raw') inRaw = true;
    else if (token.name === 'endraw') inRaw = false;
    const next = tokens[index + 1];
    if (!inRaw && token.trimRight !== 0 && next?.kind === 'text') {
      while (isBlank(source.charCodeAt(next.begin + next.trimLeft))) next.trimLeft++;
    }
  }
};

const countNewlines = (source: string, begin: number, end: number): number => {
  let count = 0;
  let p = source.indexOf('\n', begin);
  while (p !== -1 && p < end) {
    count++;
    p = source.indexOf('\n', p + 1);
  }
  return count;
};

/**
 * The skeleton of `source`, or `undefined` if it should be parsed as it is. Rendering the parsed
 * skeleton with `{ __promptyard_text__: texts }` added to the globals prints exactly what the
 * source prints, and every markup token keeps its line.
 */
export const buildSkeleton = (source: string): Skeleton | undefined => {
  if (source.includes(textsName)) return undefined;
  const tokens = tokenize(source);
  if (tokens === undefined) return undefined;
  trimWhitespace(source, tokens);

  const parts: string[] = [];
  const texts: string[] = [];
  const sequence: (number | string)[] = [];
  // The text run being collected: text tokens, raw contents, and the dropped raw/endraw markers.
  let run = '';
  let runNewlines = 0;
  let inComment = false;
  const flush = (): void => {
    if (run === '' && runNewlines === 0) return;
    parts.push(`{%${textsName} ${texts.length}${'\n'.repeat(runNewlines)}%}`);
    sequence.push(texts.length);
    texts.push(run);
    run = '';
    runNewlines = 0;
  };

  for (const token of tokens) {
    const { kind, name, begin, end } = token;
    if (inComment) {
      // Nothing inside a comment renders, and liquidjs's comment tag does not nest: keep the
      // newlines and the closing tag.
      if (kind === 'tag' && name === 'endcomment') {
        inComment = false;
        parts.push(source.slice(begin, end));
        sequence.push(source.slice(begin, end));
      } else {
        const newlines = countNewlines(source, begin, end);
        if (newlines !== 0) parts.push('\n'.repeat(newlines));
      }
    } else if (kind === 'text') {
      // As HTMLToken.getContent (or RawTag's getText, whose content is never trimmed).
      if (begin + token.trimLeft < end - token.trimRight) run += source.slice(begin + token.trimLeft, end - token.trimRight);
      runNewlines += countNewlines(source, begin, end);
    } else if (kind === 'tag' && (name === 'raw' || name === 'endraw')) {
      runNewlines += countNewlines(source, begin, end);
    } else {
      flush();
      parts.push(source.slice(begin, end));
      sequence.push(source.slice(begin, end));
      if (kind === 'tag' && name === 'comment') inComment = true;
    }
  }
  flush();
  return { source: parts.join(''), texts, sequence };
};
