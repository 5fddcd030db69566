import { PromptyardError } from '@promptyard/core';
import { argumentValue, freeTextName, splitWords } from './dialect.js';
import { positionName, type DollarTemplate } from './dollar-dialect.js';
import { cutAtPlaceholders, hasPlaceholders, joinParts, joinPositions, positionsOf, type Placeholder } from './placeholder-parts.js';

/**
 * Codex custom prompts, as `codex-rs/tui/src/bottom_pane/prompt_args.rs` expands them. A body with a
 * named `$UPPER` placeholder takes only `KEY=value` input and needs every name; otherwise `$1`…`$9`
 * are the typed words (1-based, empty when absent) and `$ARGUMENTS` is the words joined by one space.
 * `$$` stays `$$` and a `$NAME` right after a `$` is not a placeholder.
 */
const namedPattern = /\$[A-Z][A-Z0-9_]*/g;

/** The named placeholders in order of first use, as Codex's `prompt_argument_names` finds them. */
export const codexNamedPlaceholders = (body: string): string[] => {
  const names: string[] = [];
  for (const match of body.matchAll(namedPattern)) {
    const name = match[0].slice(1);
    if (body[match.index - 1] === '$' || name === 'ARGUMENTS' || names.includes(name)) continue;
    names.push(name);
  }
  return names;
};

/** `KEY=value` words, refused as Codex refuses them when a word has no `=` or no key. */
const parseAssignments = (free: string | undefined): Map<string, string> => {
  const pairs = new Map<string, string>();
  for (const word of free === undefined ? [] : splitWords(free)) {
    const equals = word.indexOf('=');
    if (equals === -1) {
      throw new PromptyardError(
        'INVALID_ARGUMENT',
        `expected KEY=value in "arguments" but found '${word}'; wrap values with spaces in double quotes`,
      );
    }
    if (equals === 0) throw new PromptyardError('INVALID_ARGUMENT', `expected a name before '=' in '${word}'`);
    pairs.set(word.slice(0, equals), word.slice(equals + 1));
  }
  return pairs;
};

const compileNamed = (body: string, names: readonly string[]): DollarTemplate => ({
  variables: [...names, freeTextName],
  positions: new Map(),
  render: (args) => {
    const pairs = parseAssignments(argumentValue(args, freeTextName));
    const valueOf = (name: string): string | undefined => argumentValue(args, name) ?? pairs.get(name);
    const missing = names.filter((name) => valueOf(name) === undefined);
    if (missing.length > 0) {
      throw new PromptyardError(
        'MISSING_ARGUMENTS',
        `missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: give each as an argument or as NAME=value in "arguments" (quote values with spaces)`,
        { data: { missing } },
      );
    }
    return body.replace(namedPattern, (match, index: number) => (body[index - 1] === '$' ? match : (valueOf(match.slice(1)) ?? match)));
  },
});

const compileNumeric = (body: string, names: readonly string[]): DollarTemplate => {
  const nameOf = (position: number): string => names[position] ?? positionName(position);
  const parts = cutAtPlaceholders(body, /\$\$|\$([1-9])|\$ARGUMENTS/g, (match): Placeholder | string => {
    if (match[0] === '$$') return '$$';
    return match[1] === undefined ? { all: true } : { position: Number(match[1]) - 1, raw: match[0], named: false };
  });
  const positions = new Map(positionsOf(parts).map((position): [string, number] => [nameOf(position), position]));
  const lastPosition = Math.max(-1, ...positions.values());
  return {
    variables: hasPlaceholders(parts) ? [...positions.keys(), freeTextName] : [],
    positions,
    render: (args) => {
      const free = argumentValue(args, freeTextName);
      const words = free === undefined ? [] : splitWords(free);
      const at = (position: number): string => argumentValue(args, nameOf(position)) ?? words[position] ?? '';
      const all = (): string => (free === undefined ? joinPositions(lastPosition, at) : words.join(' '));
      return joinParts(parts, (part) => ('all' in part ? all() : at(part.position)));
    },
  };
};

/**
 * Compiles a Codex prompt body in the mode Codex picks for it: named when it has a `$UPPER` placeholder.
 * `positionalNames` (from `argument-hint: [branch]`) name `$1`, `$2` … as MCP arguments; Codex shows the hint only.
 */
export const compileCodexDialect = (body: string, positionalNames: readonly string[] = []): DollarTemplate => {
  const names = codexNamedPlaceholders(body);
  return names.length > 0 ? compileNamed(body, names) : compileNumeric(body, positionalNames);
};
