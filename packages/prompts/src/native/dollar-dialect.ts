import { argumentValue, freeTextName, splitWords, type DialectTemplate } from './dialect.js';

export interface DollarDialectOptions {
  /** Names for positions 1…9 (from `argument-hint` or `arguments:`); unnamed positions are `arg1`…`arg9`. */
  readonly positionalNames?: readonly string[];
  /** Codex: `$$` is a literal `$`. Claude keeps `$$` (a shell's PID) and uses `\$` instead. */
  readonly doubleDollarEscape?: boolean;
  /** Claude skills' `arguments: [issue, priority]`: `$issue` is `$1`, `$priority` is `$2`. */
  readonly namedTokens?: boolean;
  /** Codex: upper-case `$FILE`, `$PR_TITLE` are named placeholders, also filled from `KEY=value` words. */
  readonly upperCaseNames?: boolean;
}

export interface DollarTemplate extends DialectTemplate {
  /** The 0-based position each positional argument stands for; named placeholders are not in it. */
  readonly positions: ReadonlyMap<string, number>;
}

/** What a position is called when nothing names it: `$1` and `$ARGUMENTS[0]` are `arg1`. */
export const positionName = (position: number): string => `arg${position + 1}`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Part = string | { readonly position: number } | { readonly all: true } | { readonly key: string };

/** `KEY=value` words whose key is one of `keys`, and the words left over. */
const splitAssignments = (words: readonly string[], keys: ReadonlySet<string>): { pairs: Map<string, string>; rest: string[] } => {
  const pairs = new Map<string, string>();
  const rest: string[] = [];
  for (const word of words) {
    const equals = word.indexOf('=');
    const key = equals === -1 ? '' : word.slice(0, equals);
    if (keys.has(key)) pairs.set(key, word.slice(equals + 1));
    else rest.push(word);
  }
  return { pairs, rest };
};

/**
 * Claude Code / Codex / spec-kit placeholders: `$ARGUMENTS` is the free text as typed, `$1`…`$9`
 * and the 0-based `$ARGUMENTS[N]` (= `$N+1`) are its words. With `upperCaseNames`, `$NAME` is
 * filled by the argument `NAME` or a `NAME=value` word, and such words are not positional. A value
 * given by name wins over one taken from the free text. Everything else, `` !`cmd` `` included,
 * stays verbatim.
 */
export const compileDollarDialect = (body: string, options: DollarDialectOptions = {}): DollarTemplate => {
  const names = options.positionalNames ?? [];
  const named =
    options.namedTokens === true && names.length > 0
      ? `|\\$(${[...names]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|')})(?![\\w-])`
      : '';
  const upper = options.upperCaseNames === true ? '|\\$([A-Z][A-Z0-9_]*)' : '';
  const pattern = new RegExp(
    `\\\\\\$${options.doubleDollarEscape === true ? '|\\$\\$' : ''}|\\$ARGUMENTS\\[(\\d+)\\]${upper}|\\$ARGUMENTS|\\$([1-9])${named}`,
    'g',
  );
  const nameOf = (position: number): string => names[position] ?? positionName(position);
  const parts: Part[] = [];
  const variables: string[] = [];
  const positions = new Map<string, number>();
  const keys = new Set<string>();
  const use = (name: string): void => {
    if (!variables.includes(name)) variables.push(name);
  };
  let last = 0;
  let text = '';
  for (const match of body.matchAll(pattern)) {
    text += body.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\\$' || match[0] === '$$') {
      text += '$';
      continue;
    }
    parts.push(text);
    text = '';
    const key = upper === '' ? undefined : match[2];
    const [digit, token] = upper === '' ? [match[2], match[3]] : [match[3], match[4]];
    if (match[0] === '$ARGUMENTS') {
      parts.push({ all: true });
      use(freeTextName);
    } else if (key !== undefined) {
      parts.push({ key });
      keys.add(key);
      use(key);
    } else {
      const position = match[1] !== undefined ? Number(match[1]) : digit !== undefined ? Number(digit) - 1 : names.indexOf(token ?? '');
      parts.push({ position });
      positions.set(nameOf(position), position);
      use(nameOf(position));
    }
  }
  parts.push(text + body.slice(last));
  if (variables.length > 0 && !variables.includes(freeTextName)) variables.push(freeTextName);
  const lastPosition = Math.max(-1, ...positions.values());

  return {
    variables,
    positions,
    render: (args) => {
      const free = argumentValue(args, freeTextName);
      const { pairs, rest: words } = splitAssignments(free === undefined ? [] : splitWords(free), keys);
      const at = (position: number): string => argumentValue(args, nameOf(position)) ?? words[position] ?? '';
      const all = (): string => {
        if (free !== undefined) return free;
        const given: string[] = [];
        for (let position = 0; position <= lastPosition; position++) given.push(at(position));
        return given.filter((value) => value !== '').join(' ');
      };
      const value = (part: Exclude<Part, string>): string =>
        'all' in part ? all() : 'key' in part ? (argumentValue(args, part.key) ?? pairs.get(part.key) ?? '') : at(part.position);
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
