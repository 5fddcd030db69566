import type { PromptEntry } from '../contracts/types.js';

/**
 * What completion offers for a prompt argument: its enum, its default, and the values recent gets
 * gave it, remembered in a bounded history that a get writes cheaply and a completion reads.
 */

export interface CompletionResult {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

const maxCompletionValues = 100;
/** Remembered values per prompt argument: the most recent distinct ones. */
const maxSeenValues = 20;
/** How many recent gets the history holds (a power of two): memory stays bounded. */
const historySize = 4096;
/** Longer values (pasted code) are not worth offering again. */
const maxSeenLength = 200;

interface SeenValue {
  readonly value: string;
  readonly with: Readonly<Record<string, string>>;
}

export interface PromptHistory {
  add(name: string, args: Readonly<Record<string, string>>): void;
  /** The distinct values given for `argument` of prompt `name`, most recent first, with the other arguments given alongside. */
  of(name: string, argument: string): SeenValue[];
}

const worthKeeping = (value: string): boolean => value !== '' && value.length <= maxSeenLength && !value.includes('\n');

/** The arguments given alongside `argument`, short ones only. */
const othersThan = (args: Readonly<Record<string, string>>, argument: string): Record<string, string> => {
  const others: Record<string, string> = {};
  for (const [other, otherValue] of Object.entries(args))
    if (other !== argument && otherValue.length <= maxSeenLength) others[other] = otherValue;
  return others;
};

/**
 * What a get's arguments leave in the history: the object as given when every value is short enough
 * to be offered or matched again (no copy: the usual get), else a copy of the short values only — a
 * longer value (pasted code, a diff) is never read back, and keeping it held up to `historySize` of
 * them: under `pnpm soak`, 4,096 gets of a ~3 KB `code` argument held ~13 MB that nothing would read.
 */
const keptOf = (args: Readonly<Record<string, string>>): Readonly<Record<string, string>> | undefined => {
  let kept: Record<string, string> | undefined;
  let dropped = false;
  for (const key in args) {
    const value = args[key] as string;
    if (value.length <= maxSeenLength) (kept ??= {})[key] = value;
    else dropped = true;
  }
  return dropped ? kept : args;
};

/**
 * The arguments of the last `historySize` gets, kept as given (no copy, no index) unless a value is
 * too long to be read back (`keptOf`): a get only writes two slots, and a completion, which is rare, reads
 * the history. Indexing every get by prompt and argument showed in the CPU profile of prompts/get.
 * What it holds is bounded: `historySize` gets, of values of at most `maxSeenLength` characters.
 */
export const createHistory = (): PromptHistory => {
  const names: (string | undefined)[] = new Array<string | undefined>(historySize).fill(undefined);
  const values: (Readonly<Record<string, string>> | undefined)[] = new Array<Readonly<Record<string, string>> | undefined>(
    historySize,
  ).fill(undefined);
  let next = 0;
  return {
    add: (name, args) => {
      const slot = next++ & (historySize - 1);
      names[slot] = name;
      values[slot] = keptOf(args);
    },
    of: (name, argument) => {
      const found: SeenValue[] = [];
      const taken = new Set<string>();
      for (let back = 1; back <= Math.min(next, historySize) && found.length < maxSeenValues; back++) {
        const slot = (next - back) & (historySize - 1);
        const args = values[slot];
        if (names[slot] !== name || args === undefined) continue;
        const value = args[argument];
        if (value === undefined || !worthKeeping(value) || taken.has(value)) continue;
        taken.add(value);
        found.push({ value, with: othersThan(args, argument) });
      }
      return found;
    },
  };
};

/**
 * Values for `argumentName` of `entry` matching `value`: those remembered with the same `context`
 * arguments first, then its enum, its default and the other remembered values; by prefix, then by substring.
 */
export const completeArgument = (
  entry: PromptEntry,
  argumentName: string,
  value: string,
  context: Readonly<Record<string, string>>,
  history: PromptHistory,
): CompletionResult => {
  const argument = entry.arguments.find((candidate) => candidate.name === argumentName);
  if (argument === undefined) return { values: [], total: 0, hasMore: false };
  const remembered = history.of(entry.name, argumentName);
  const contextKeys = Object.keys(context);
  const matchesContext = (item: SeenValue): boolean =>
    contextKeys.length > 0 && contextKeys.every((key) => item.with[key] === context[key]);
  // An enum is a closed set: remembered values outside it are not offered.
  const allowed = (items: readonly SeenValue[]): string[] =>
    items.map((item) => item.value).filter((item) => argument.enum === undefined || argument.enum.includes(item));
  const candidates = [
    ...new Set([
      ...allowed(remembered.filter(matchesContext)),
      ...(argument.enum ?? []),
      ...(argument.default === undefined ? [] : [argument.default]),
      ...allowed(remembered),
    ]),
  ];
  const needle = value.toLowerCase();
  const prefixed = candidates.filter((candidate) => candidate.toLowerCase().startsWith(needle));
  const containing = candidates.filter(
    (candidate) => !candidate.toLowerCase().startsWith(needle) && candidate.toLowerCase().includes(needle),
  );
  const matches = [...prefixed, ...containing];
  return { values: matches.slice(0, maxCompletionValues), total: matches.length, hasMore: matches.length > maxCompletionValues };
};
