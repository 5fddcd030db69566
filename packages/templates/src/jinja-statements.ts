import { JinjaUnsupportedError } from './jinja-source.js';

/**
 * Jinja2's statements that @huggingface/jinja does not parse, rewritten in its tokens into
 * `{% filter __yard_…(…) %}` statements it does parse (their bodies nest as filter bodies), which
 * jinja-nodes.ts turns into nodes of their own: `block`, `extends`, `include`, `import`, `from`,
 * `with`, `autoescape`. Also `{% filter a | b %}` as nested filters, and `{%+`/`+%}` (a no-op
 * where blocks are neither trimmed nor left-stripped, as in Prompty's environment).
 */

/** A lexer token, as the library's parser reads it. */
export interface Token {
  readonly type: string;
  readonly value: string;
}

/** The filter names that mark a rewritten statement; no template can name a filter so. */
export const marker = {
  block: '__yard_block',
  with: '__yard_with',
  autoescape: '__yard_autoescape',
  extends: '__yard_extends',
  include: '__yard_include',
  import: '__yard_import',
  from: '__yard_from',
} as const;

/** Prefix of the one name `{% call a.b(…) %}`'s callee is written as (the library's parser takes a name only). */
export const dottedName = '__yard_dotted:';

const token = (type: string, value: string): Token => ({ type, value });
const open = token('OpenStatement', '{%');
const close = token('CloseStatement', '%}');
const word = (value: string): Token => token('Identifier', value);
const text = (value: string): Token => token('StringLiteral', value);
const comma = token('Comma', ',');
const flag = (value: boolean): Token => word(value ? 'true' : 'false');
const endFilter = [open, word('endfilter'), close];

/** `{% filter <name>(<args>) %}`, and an empty body when the statement has none. */
const markerStatement = (name: string, args: readonly Token[], empty: boolean): Token[] => [
  open,
  word('filter'),
  word(name),
  token('OpenParen', '('),
  ...args,
  token('CloseParen', ')'),
  close,
  ...(empty ? endFilter : []),
];

const isWord = (item: Token | undefined, ...values: string[]): boolean => item?.type === 'Identifier' && values.includes(item.value);

/** Splits tokens at commas or pipes outside brackets. */
const splitTop = (tokens: readonly Token[], separator: string): Token[][] => {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const item of tokens) {
    if (/^Open(Paren|SquareBracket|CurlyBracket)$/.test(item.type)) depth += 1;
    if (/^Close(Paren|SquareBracket|CurlyBracket)$/.test(item.type)) depth -= 1;
    if (depth === 0 && item.type === separator) parts.push([]);
    else parts.at(-1)?.push(item);
  }
  return parts;
};

/** A trailing `with context` / `without context`: the tokens before it and whether context is passed. */
const contextClause = (tokens: readonly Token[], byDefault: boolean): [Token[], boolean] => {
  const [last, before] = [tokens.at(-1), tokens.at(-2)];
  if (isWord(last, 'context') && isWord(before, 'with', 'without')) return [tokens.slice(0, -2), before?.value === 'with'];
  return [tokens.slice(), byDefault];
};

const fail = (keyword: string, message: string): never => {
  throw new SyntaxError(`{% ${keyword} %}: ${message}`);
};

const include = (inner: readonly Token[]): Token[] => {
  const [rest, context] = contextClause(inner, true);
  const ignore = isWord(rest.at(-1), 'missing') && isWord(rest.at(-2), 'ignore');
  const name = ignore ? rest.slice(0, -2) : rest;
  if (name.length === 0) fail('include', 'name the file to include, in quotes');
  return markerStatement(marker.include, [...name, comma, flag(ignore), comma, flag(context)], true);
};

const importAs = (inner: readonly Token[]): Token[] => {
  const [rest, context] = contextClause(inner, false);
  const target = rest.at(-1);
  if (!isWord(rest.at(-2), 'as') || target?.type !== 'Identifier' || rest.length < 3) fail('import', 'write {% import "file" as name %}');
  return markerStatement(marker.import, [...rest.slice(0, -2), comma, text(target?.value ?? ''), comma, flag(context)], true);
};

const fromImport = (inner: readonly Token[]): Token[] => {
  const [rest, context] = contextClause(inner, false);
  const at = rest.findIndex((item) => isWord(item, 'import'));
  if (at < 1) fail('from', 'write {% from "file" import name, other as alias %}');
  const pairs: Token[] = [];
  for (const part of splitTop(rest.slice(at + 1), 'Comma')) {
    if (part.length === 0) continue;
    const [name, as, alias] = part;
    const valid =
      name?.type === 'Identifier' && (part.length === 1 || (part.length === 3 && isWord(as, 'as') && alias?.type === 'Identifier'));
    if (!valid) fail('from', 'import names, each optionally `as` another name');
    pairs.push(comma, text(name?.value ?? ''), comma, text((alias ?? name)?.value ?? ''));
  }
  if (pairs.length === 0) fail('from', 'name what to import');
  return markerStatement(marker.from, [...rest.slice(0, at), comma, flag(context), ...pairs], true);
};

const block = (inner: readonly Token[]): Token[] => {
  const [name, ...modifiers] = inner;
  if (name?.type !== 'Identifier') fail('block', 'name the block: {% block name %}');
  if (!modifiers.every((item) => isWord(item, 'scoped', 'required'))) fail('block', 'only `scoped` and `required` may follow the name');
  const has = (value: string): boolean => modifiers.some((item) => item.value === value);
  return markerStatement(marker.block, [text(name?.value ?? ''), comma, flag(has('scoped')), comma, flag(has('required'))], false);
};

/** `a | b(x) | c` as nested filter statements, the first filter innermost: each applies to the one before. */
const filters = (inner: readonly Token[]): Token[] =>
  splitTop(inner, 'Pipe')
    .reverse()
    .flatMap((part) => [open, word('filter'), ...part, close]);

/** A call block's tokens with a dotted callee (`m.box`) as one name; the parameters `(…)` before it kept. */
const dottedCall = (inner: readonly Token[]): Token[] => {
  let at = 0;
  if (inner[0]?.type === 'OpenParen') {
    for (let depth = 0; at < inner.length; at += 1) {
      if (inner[at]?.type === 'OpenParen') depth += 1;
      if (inner[at]?.type === 'CloseParen' && --depth === 0) break;
    }
    at += 1;
  }
  let end = at + 1;
  while (inner[end]?.type === 'Dot' && inner[end + 1]?.type === 'Identifier') end += 2;
  if (end === at + 1) return inner.slice();
  const path = inner
    .slice(at, end)
    .map((item) => item.value)
    .join('');
  return [...inner.slice(0, at), word(`${dottedName}${path}`), ...inner.slice(end)];
};

interface Rewritten {
  readonly tokens: Token[];
  /** What the matching end tag becomes. */
  readonly opens?: { readonly end: string; readonly tokens: Token[]; readonly name?: string };
}

/** One statement's tokens (between `{%` and `%}`), rewritten; undefined when kept as it is. */
const rewrite = (name: string, inner: readonly Token[]): Rewritten | undefined => {
  switch (name) {
    case 'block':
      return { tokens: block(inner), opens: { end: 'endblock', tokens: endFilter, name: inner[0]?.value ?? '' } };
    case 'with':
      return { tokens: markerStatement(marker.with, inner, false), opens: { end: 'endwith', tokens: endFilter } };
    case 'autoescape':
      return { tokens: markerStatement(marker.autoescape, inner, false), opens: { end: 'endautoescape', tokens: endFilter } };
    case 'filter': {
      const count = splitTop(inner, 'Pipe').length;
      return { tokens: filters(inner), opens: { end: 'endfilter', tokens: Array.from({ length: count }, () => endFilter).flat() } };
    }
    case 'extends':
      return { tokens: markerStatement(marker.extends, inner, true) };
    case 'include':
      return { tokens: include(inner) };
    case 'import':
      return { tokens: importAs(inner) };
    case 'from':
      return { tokens: fromImport(inner) };
    case 'call':
      return { tokens: [open, word('call'), ...dottedCall(inner), close] };
    case 'for':
      if (isWord(inner.at(-1), 'recursive'))
        throw new JinjaUnsupportedError(
          'for',
          '{% for … recursive %} (loop(…) over children) is not supported yet: write a macro that calls itself',
        );
      return undefined;
    default:
      return undefined;
  }
};

/** The tokens of a template with Jinja2's other statements in the library's terms. */
export const rewriteStatements = (tokens: readonly Token[]): Token[] => {
  const out: Token[] = [];
  const stack: { readonly end: string; readonly tokens: Token[]; readonly name?: string }[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const item = tokens[index] as Token;
    if (item.type !== 'OpenStatement') {
      out.push(item);
      continue;
    }
    let closeAt = index + 1;
    while (closeAt < tokens.length && tokens[closeAt]?.type !== 'CloseStatement') closeAt += 1;
    let inner = tokens.slice(index + 1, closeAt);
    // `{%+ … +%}`: no-ops without lstrip_blocks and trim_blocks.
    if (inner[0]?.value === '+' && inner[0].type === 'UnaryOperator') inner = inner.slice(1);
    if (inner.at(-1)?.value === '+' && inner.length > 1) inner = inner.slice(0, -1);
    const name = inner[0]?.type === 'Identifier' ? inner[0].value : '';
    const top = stack.at(-1);
    const rewritten = rewrite(name, inner.slice(1));
    if (top !== undefined && name === top.end) {
      stack.pop();
      const closing = inner[1];
      if (top.name !== undefined && closing !== undefined && closing.value !== top.name)
        fail(name, `it closes {% block ${top.name} %}: write {% endblock ${top.name} %}`);
      out.push(...top.tokens);
    } else if (rewritten === undefined) {
      out.push(open, ...inner, ...(closeAt < tokens.length ? [close] : []));
    } else {
      out.push(...rewritten.tokens);
      if (rewritten.opens !== undefined) stack.push(rewritten.opens);
    }
    index = closeAt;
  }
  return out;
};
