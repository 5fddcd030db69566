import type { JinjaNode } from './jinja-tree.js';

/**
 * @huggingface/jinja keeps no positions: its tokens and nodes do not know their line. The tags of
 * a template are found here by their delimiters, so that an error can name the line of the tag
 * that caused it.
 */

interface Tag {
  /** `{`: `{{ … }}`, `%`: `{% … %}`, `#`: `{# … #}`. */
  readonly kind: '{' | '%' | '#';
  /** The whole tag, delimiters included. */
  readonly text: string;
  /** The first word of a `{% … %}` tag (`for`, `endif` …), else ''. */
  readonly keyword: string;
  /** 1-based line of the tag's start within the template. */
  readonly line: number;
}

const tagPattern = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
const keywordPattern = /^\{%-?\s*([A-Za-z_]\w*)/;

const scanTags = (source: string): Tag[] => {
  const tags: Tag[] = [];
  let line = 1;
  let counted = 0;
  for (const match of source.matchAll(tagPattern)) {
    for (let index = source.indexOf('\n', counted); index !== -1 && index < match.index; index = source.indexOf('\n', index + 1)) line += 1;
    counted = match.index;
    const text = match[0];
    const kind = text[1] as Tag['kind'];
    tags.push({ kind, text, keyword: kind === '%' ? (keywordPattern.exec(text)?.[1] ?? '') : '', line });
  }
  return tags;
};

/** Tags that open a block, with the tag that closes it. `set` opens one only without `=`. */
const blocks: ReadonlyMap<string, string> = new Map([
  ['for', 'endfor'],
  ['if', 'endif'],
  ['macro', 'endmacro'],
  ['call', 'endcall'],
  ['filter', 'endfilter'],
  ['set', 'endset'],
  ['block', 'endblock'],
  ['with', 'endwith'],
  ['autoescape', 'endautoescape'],
]);

const opensBlock = (tag: Tag): boolean => blocks.has(tag.keyword) && (tag.keyword !== 'set' || !/=/.test(tag.text.replace(/==/g, '')));

/** A tag alone, completed into a template: the parts around it that it needs to parse. */
const alone = (tag: Tag): string | undefined => {
  const { keyword, text } = tag;
  if (keyword === 'else' || keyword.startsWith('end')) return undefined;
  if (opensBlock(tag)) return `${text}{% ${blocks.get(keyword) ?? ''} %}`;
  if (keyword === 'elif') return `{% if true %}${text}{% endif %}`;
  if (keyword === 'break' || keyword === 'continue') return `{% for x in [] %}${text}{% endfor %}`;
  return text;
};

export interface SyntaxSite {
  readonly line: number;
  /** Replaces the parser's message when the parser's says less (a block left open, say). */
  readonly reason?: string;
}

/**
 * The line of a template's syntax error: the first tag that fails to parse on its own, else the
 * first tag that breaks the nesting of blocks, else the first delimiter left open.
 */
export const locateSyntaxError = (source: string, parses: (source: string) => boolean): SyntaxSite | undefined => {
  const tags = scanTags(source);
  for (const tag of tags) {
    const text = alone(tag);
    if (text !== undefined && !parses(text)) return { line: tag.line };
  }
  const open: Tag[] = [];
  for (const tag of tags) {
    if (tag.kind !== '%') continue;
    if (opensBlock(tag)) {
      open.push(tag);
    } else if (tag.keyword === 'else' || tag.keyword === 'elif') {
      const top = open.at(-1);
      if (top === undefined || (top.keyword !== 'if' && !(tag.keyword === 'else' && top.keyword === 'for'))) {
        return { line: tag.line, reason: `{% ${tag.keyword} %} is outside any {% if %}: remove it or open the block` };
      }
    } else if (tag.keyword.startsWith('end')) {
      const top = open.pop();
      const expected = top === undefined ? undefined : blocks.get(top.keyword);
      if (expected !== tag.keyword) {
        return {
          line: tag.line,
          reason:
            top === undefined
              ? `{% ${tag.keyword} %} closes no block: remove it`
              : `{% ${tag.keyword} %} does not close {% ${top.keyword} %} from line ${top.line}: write {% ${expected ?? ''} %} first`,
        };
      }
    }
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined) {
    return { line: unclosed.line, reason: `{% ${unclosed.keyword} %} is never closed: add {% ${blocks.get(unclosed.keyword) ?? ''} %}` };
  }
  const stray = /\{[{%#]/g;
  const inTags = new Set<number>();
  for (const match of source.matchAll(tagPattern)) inTags.add(match.index);
  for (const match of source.matchAll(stray)) {
    if (inTags.has(match.index)) continue;
    const line = source.slice(0, match.index).split('\n').length;
    const closer = match[0] === '{{' ? '}}' : match[0] === '{%' ? '%}' : '#}';
    return { line, reason: `"${match[0]}" is never closed: add "${closer}"` };
  }
  return undefined;
};

const statementTags: ReadonlySet<string> = new Set(['For', 'If', 'Set', 'Macro', 'CallStatement', 'FilterStatement', 'Break', 'Continue']);
const quotedOnly = /^\{\{-?\s*(["'])[\s\S]*\1\s*-?\}\}$/;

/**
 * The line of each statement of a parsed template: its statements, visited in source order, meet
 * its tags in source order (`else` and `end…` tags make no node). Empty when the two disagree,
 * so a wrong line is never reported.
 */
export const statementLines = (body: readonly JinjaNode[], source: string): Map<JinjaNode, number> => {
  const tags = scanTags(source).filter((tag) => tag.keyword !== 'else' && !tag.keyword.startsWith('end'));
  const lines = new Map<JinjaNode, number>();
  let next = 0;
  const take = (node: JinjaNode, kind: Tag['kind']): boolean => {
    const tag = tags[next];
    if (tag?.kind !== kind) return false;
    next += 1;
    lines.set(node, tag.line);
    return true;
  };
  const children = (node: JinjaNode, ...names: string[]): JinjaNode[] =>
    names.flatMap((name) => {
      const value = (node as unknown as Record<string, unknown>)[name];
      return Array.isArray(value) ? (value as JinjaNode[]) : [];
    });
  const walk = (statements: readonly JinjaNode[]): boolean => {
    for (const node of statements) {
      if (node.type === 'Comment') {
        if (!take(node, '#')) return false;
      } else if (node.type === 'StringLiteral') {
        // Text between tags, or `{{ 'literal' }}`.
        const tag = tags[next];
        if (tag !== undefined && tag.kind === '{' && quotedOnly.test(tag.text)) take(node, '{');
      } else if (statementTags.has(node.type)) {
        if (!take(node, '%')) return false;
        if (!walk(children(node, 'body', 'defaultBlock', 'alternate'))) return false;
      } else if (!take(node, '{')) {
        return false;
      }
    }
    return true;
  };
  return walk(body) && next === tags.length ? lines : new Map();
};

/** The line of the first tag that applies filter `name`. */
export const filterLine = (source: string, name: string): number | undefined => {
  const pattern = new RegExp(String.raw`\|\s*${name}\b`);
  return scanTags(source).find((tag) => tag.kind !== '#' && pattern.test(tag.text))?.line;
};
