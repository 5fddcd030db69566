import { argumentValue, freeTextName, splitWords, type DialectTemplate } from './dialect.js';

export interface DollarDialectOptions {
  /** Names for positions 1…9 (from `argument-hint`); unnamed positions are called `1`…`9`. */
  readonly positionalNames?: readonly string[];
  /** Codex: `$$` is a literal `$`. Claude keeps `$$` (a shell's PID) and uses `\$` instead. */
  readonly doubleDollarEscape?: boolean;
  /** Claude skills' `arguments: [issue, priority]`: `$issue` is `$1`, `$priority` is `$2`. */
  readonly namedTokens?: boolean;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Part = string | { readonly position: number } | { readonly all: true };

/**
 * Claude Code / Codex / spec-kit placeholders: `$ARGUMENTS` is the free text as typed, `$1`…`$9`
 * and the 0-based `$ARGUMENTS[N]` (= `$N+1`) are its words. A positional argument given by name
 * wins over the word taken from the free text. Everything else, `` !`cmd` `` included, stays verbatim.
 */
export const compileDollarDialect = (body: string, options: DollarDialectOptions = {}): DialectTemplate => {
  const names = options.positionalNames ?? [];
  const named = options.namedTokens === true && names.length > 0
    ? `|\\$(${[...names].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})(?![\\w-])`
    : '';
  const pattern = new RegExp(`\\\\\\$${options.doubleDollarEscape === true ? '|\\$\\$' : ''}|\\$ARGUMENTS\\[(\\d+)\\]|\\$ARGUMENTS|\\$([1-9])${named}`, 'g');
  const nameOf = (position: number): string => names[position] ?? String(position + 1);
  const parts: Part[] = [];
  const variables: string[] = [];
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
    if (match[0] === '$ARGUMENTS') {
      parts.push({ all: true });
      use(freeTextName);
    } else {
      const position = match[1] !== undefined ? Number(match[1]) : match[2] !== undefined ? Number(match[2]) - 1 : names.indexOf(match[3] ?? '');
      parts.push({ position });
      use(nameOf(position));
    }
  }
  parts.push(text + body.slice(last));
  const positional = variables.filter((name) => name !== freeTextName);
  if (positional.length > 0 && !variables.includes(freeTextName)) variables.push(freeTextName);

  return {
    variables,
    render: (args) => {
      const free = argumentValue(args, freeTextName);
      const words = free === undefined ? [] : splitWords(free);
      const at = (position: number): string => argumentValue(args, nameOf(position)) ?? words[position] ?? '';
      const all = (): string => {
        if (free !== undefined) return free;
        return positional.map((_name, index) => at(index)).filter((value) => value !== '').join(' ');
      };
      return parts.map((part) => (typeof part === 'string' ? part : 'all' in part ? all() : at(part.position))).join('');
    },
  };
};

/** `[pr-number] [priority]` or `<file> <mode>` → `['pr-number', 'priority']`; free prose gives no names. */
export const hintNames = (hint: string | undefined): string[] => {
  if (hint === undefined) return [];
  const names = [...hint.matchAll(/[[<]([^\]>]+)[\]>]/g)].map((match) =>
    (match[1] ?? '').trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, ''),
  );
  return names.every((name) => name !== '' && !/^\d+$/.test(name)) && new Set(names).size === names.length ? names : [];
};
