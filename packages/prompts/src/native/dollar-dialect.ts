import { claudeWords } from './claude-words.js';
import { argumentValue, freeTextName, type DialectTemplate } from './dialect.js';
import { cutAtPlaceholders, joinParts, joinPositions, type Placeholder } from './placeholder-parts.js';

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

const placeholderPattern = (names: readonly string[], namedTokens: boolean): RegExp => {
  const named =
    namedTokens && names.length > 0
      ? `|\\$(${[...names]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|')})(?![\\[\\w])`
      : '';
  // `$N` is a whole number: `$25.00` is position 25, never `$2` then `5.00`.
  return new RegExp(`\\\\\\$|\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS|\\$(\\d+)(?!\\w)${named}`, 'g');
};

/**
 * `$ARGUMENTS` is the free text as typed; `$N` and `$ARGUMENTS[N]` are its 0-based words, as Claude
 * Code ≥ 2.1.19 counts them (`$0` is the first), split as Claude Code splits them (claude-words.ts);
 * `$name` is the word at that name's place in `arguments:` (`$issue-x` is `$issue` then `-x`). A value given by
 * name wins over a word. A positional placeholder with no value stays verbatim (`$5.00`, `awk '{print
 * $1}'`), as Claude Code does since 2.1.210; an unfilled `$name` is empty. One pass, so values are never
 * read as placeholders. `\$` is a literal `$`; everything else, `` !`cmd` `` included, stays verbatim.
 */
export const compileDollarDialect = (body: string, options: DollarDialectOptions = {}): DollarTemplate => {
  const names = options.positionalNames ?? [];
  const nameOf = (position: number): string => names[position] ?? positionName(position);
  const variables: string[] = [];
  const positions = new Map<string, number>();
  const use = (name: string): void => {
    if (!variables.includes(name)) variables.push(name);
  };
  const parts = cutAtPlaceholders(body, placeholderPattern(names, options.namedTokens === true), (match): Placeholder | string => {
    if (match[0] === '\\$') return '$';
    if (match[0] === '$ARGUMENTS') {
      use(freeTextName);
      return { all: true };
    }
    const [, indexed, digits, token] = match;
    const position = indexed !== undefined ? Number(indexed) : digits !== undefined ? Number(digits) : names.indexOf(token ?? '');
    positions.set(nameOf(position), position);
    use(nameOf(position));
    return { position, raw: match[0], named: token !== undefined };
  });
  if (variables.length > 0 && !variables.includes(freeTextName)) variables.push(freeTextName);
  const lastPosition = Math.max(-1, ...positions.values());

  return {
    variables,
    positions,
    render: (args) => {
      const free = argumentValue(args, freeTextName);
      const words = free === undefined ? [] : claudeWords(free);
      const at = (position: number): string | undefined => argumentValue(args, nameOf(position)) ?? words[position];
      const value = (part: Placeholder): string =>
        'all' in part ? (free ?? joinPositions(lastPosition, at)) : (at(part.position) ?? (part.named ? '' : part.raw));
      return joinParts(parts, value);
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
