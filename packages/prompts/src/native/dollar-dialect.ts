import { argumentValue, freeTextName, splitWords, type DialectTemplate } from './dialect.js';

/**
 * Claude Code's placeholders for commands and skills (and spec-kit's, whose default agent is Claude
 * Code), as Claude Code ≥ 2.1.210 renders them. Codex's older 1-based reading is in codex-dialect.ts.
 */
export interface DollarDialectOptions {
  /** Names for positions 0, 1 … (from `arguments:` or `argument-hint`); unnamed positions are `arg1`, `arg2` …. */
  readonly positionalNames?: readonly string[];
  /** Claude skills' `arguments: [issue, priority]`: `$issue` is `$0`, `$priority` is `$1`. */
  readonly namedTokens?: boolean;
}

export interface DollarTemplate extends DialectTemplate {
  /** The 0-based position each positional argument stands for. */
  readonly positions: ReadonlyMap<string, number>;
}

/** What a position is called when nothing names it: word 1 (`$0`, `$ARGUMENTS[0]`) is `arg1`. */
export const positionName = (position: number): string => `arg${position + 1}`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Part = string | { readonly position: number; readonly raw: string; readonly named: boolean } | { readonly all: true };

const placeholderPattern = (names: readonly string[], namedTokens: boolean): RegExp => {
  const named =
    namedTokens && names.length > 0
      ? `|\\$(${[...names]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|')})(?![\\w-])`
      : '';
  // `$N` is a whole number: `$25.00` is position 25, never `$2` then `5.00`.
  return new RegExp(`\\\\\\$|\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS|\\$(\\d+)(?!\\w)${named}`, 'g');
};

/**
 * `$ARGUMENTS` is the free text as typed; `$N` and `$ARGUMENTS[N]` are its 0-based words (split like a
 * shell, quotes grouping); `$name` is the word at that name's place in `arguments:`. A value given by
 * name wins over a word. A positional placeholder with no value stays verbatim (`$5.00`, `awk '{print
 * $1}'`), as Claude Code does since 2.1.210; an unfilled `$name` is empty. One pass, so values are never
 * read as placeholders. `\$` is a literal `$`; everything else, `` !`cmd` `` included, stays verbatim.
 */
export const compileDollarDialect = (body: string, options: DollarDialectOptions = {}): DollarTemplate => {
  const names = options.positionalNames ?? [];
  const nameOf = (position: number): string => names[position] ?? positionName(position);
  const parts: Part[] = [];
  const variables: string[] = [];
  const positions = new Map<string, number>();
  const use = (name: string): void => {
    if (!variables.includes(name)) variables.push(name);
  };
  let last = 0;
  let text = '';
  for (const match of body.matchAll(placeholderPattern(names, options.namedTokens === true))) {
    text += body.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\\$') {
      text += '$';
      continue;
    }
    parts.push(text);
    text = '';
    if (match[0] === '$ARGUMENTS') {
      parts.push({ all: true });
      use(freeTextName);
      continue;
    }
    const [, indexed, digits, token] = match;
    const position = indexed !== undefined ? Number(indexed) : digits !== undefined ? Number(digits) : names.indexOf(token ?? '');
    parts.push({ position, raw: match[0], named: token !== undefined });
    positions.set(nameOf(position), position);
    use(nameOf(position));
  }
  parts.push(text + body.slice(last));
  if (variables.length > 0 && !variables.includes(freeTextName)) variables.push(freeTextName);
  const lastPosition = Math.max(-1, ...positions.values());

  return {
    variables,
    positions,
    render: (args) => {
      const free = argumentValue(args, freeTextName);
      const words = free === undefined ? [] : splitWords(free);
      const at = (position: number): string | undefined => argumentValue(args, nameOf(position)) ?? words[position];
      const all = (): string => {
        if (free !== undefined) return free;
        const given: string[] = [];
        for (let position = 0; position <= lastPosition; position++) given.push(at(position) ?? '');
        return given.filter((value) => value !== '').join(' ');
      };
      const value = (part: Exclude<Part, string>): string => ('all' in part ? all() : (at(part.position) ?? (part.named ? '' : part.raw)));
      return parts.map((part) => (typeof part === 'string' ? part : value(part))).join('');
    },
  };
};

/**
 * `[pr-number] [priority]` or `<file> <mode>` → `['pr-number', 'priority']`; free prose gives no
 * names, nor does a Codex hint for named placeholders (`FILE=<path>`).
 */
export const hintNames = (hint: string | undefined): string[] => {
  if (hint === undefined || hint.includes('=')) return [];
  const names = [...hint.matchAll(/[[<]([^\]>]+)[\]>]/g)].map((match) =>
    (match[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, ''),
  );
  return names.every((name) => name !== '' && !/^\d+$/.test(name)) && new Set(names).size === names.length ? names : [];
};
