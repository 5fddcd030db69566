/**
 * The subcommands of a binary as one table, and what both binaries do with it: find the command in
 * the arguments wherever it stands (a mistyped one answered with the closest names), `help
 * <command>`, and each command's help (usage, options, an example).
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { closestNames, didYouMean, formatList } from '@promptyard/core';
import type { PromptyardError } from '@promptyard/core';

export interface CommandSpec {
  readonly name: string;
  /** What follows the program and its options: `render <name> [--arg key=value …]`. */
  readonly usage: string;
  /** What the command does, in a sentence or a few lines. */
  readonly summary: string;
  /** The command's own options: `['-a, --arg <key=value>', 'an argument; repeatable']`. */
  readonly options?: readonly (readonly [flag: string, text: string])[];
  /** Whole command lines a user can copy. */
  readonly examples: readonly string[];
  /** The help as the command's own package writes it (usage, options …), instead of the parts above; the examples follow it. */
  readonly text?: string;
}

export interface CommandTable {
  readonly program: string;
  readonly commands: readonly CommandSpec[];
  /** What happens with no command: `the server starts`. */
  readonly withoutCommand: string;
  /** Said after an unknown word nothing is close to: `to serve a folder, pass --prompts <dir>`. */
  readonly strayWordHint?: string;
  /** Every option any command takes, as parseArgs declares them: an option's value is never taken for a command. */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Builds the binary's usage error (its message points at `--help`). */
  readonly usageError: (message: string) => PromptyardError;
}

/** What the arguments ask for: a command (and the arguments without its name), help on one, or neither. */
export type FoundCommand =
  | { readonly kind: 'command'; readonly name: string; readonly rest: readonly string[] }
  | { readonly kind: 'help'; readonly topic?: string }
  | { readonly kind: 'none'; readonly rest: readonly string[] };

const unknownCommand = (table: CommandTable, word: string): PromptyardError => {
  const names = [...table.commands.map((command) => command.name), 'help'];
  const close = closestNames(word, names, 1);
  // The hint follows the command after a colon: `Unknown command "lsit": did you mean "list"?`.
  const stray = close.length === 0 && table.strayWordHint !== undefined ? ` (${table.strayWordHint})` : '';
  // With nothing close, a full stop ends the first sentence: `Unknown command "x". The commands are …`.
  const hint = close.length === 0 ? '.' : didYouMean(close, 'colon');
  return table.usageError(
    `Unknown command "${word}"${hint} The commands are ${formatList(names)}; with none, ${table.withoutCommand}${stray}.`,
  );
};

/**
 * The command is the first word that is not an option or an option's value (`--config x status` as
 * well as `status --config x`). A first word that is no command is an error with the closest
 * command suggested, unless an unknown option comes first: that likelier mistake is left to the
 * binary's strict parse to report. `help [command]` asks for the help of one command.
 */
export const findCommand = (argv: readonly string[], table: CommandTable): FoundCommand => {
  const { tokens } = parseArgs({ args: [...argv], options: table.options, strict: false, allowPositionals: true, tokens: true });
  const positionals = tokens.filter((token) => token.kind === 'positional');
  const first = positionals[0];
  if (first === undefined) return { kind: 'none', rest: argv };
  const command = (word: string): CommandSpec | undefined => table.commands.find((candidate) => candidate.name === word);
  if (first.value === 'help') {
    const topic = positionals[1]?.value;
    // `help help` is answered with the general help: it is what help is about.
    if (topic === undefined || topic === 'help') return { kind: 'help' };
    if (command(topic) === undefined) throw unknownCommand(table, topic);
    return { kind: 'help', topic };
  }
  if (command(first.value) !== undefined) {
    return { kind: 'command', name: first.value, rest: argv.filter((_arg, index) => index !== first.index) };
  }
  const known = new Set(Object.keys(table.options));
  if (tokens.some((token) => token.kind === 'option' && !known.has(token.name))) return { kind: 'none', rest: argv };
  throw unknownCommand(table, first.value);
};

const optionLines = (options: readonly (readonly [string, string])[]): string[] =>
  options.map(([flag, text]) => `  ${flag.padEnd(23)}  ${text.replaceAll('\n', `\n${' '.repeat(27)}`)}`);

/** `promptyard-server help render`, `render --help`: the command's usage, what it does, its options and an example. */
const commandHelp = (table: CommandTable, name: string): string => {
  const command = table.commands.find((candidate) => candidate.name === name);
  if (command === undefined) throw unknownCommand(table, name);
  const examples = ['', command.examples.length === 1 ? 'Example:' : 'Examples:', ...command.examples.map((example) => `  ${example}`)];
  if (command.text !== undefined) return [command.text, ...examples].join('\n');
  const lines = [`Usage: ${table.program} [options] ${command.usage}`, '', command.summary];
  if (command.options !== undefined && command.options.length > 0) lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', `The options every command takes (--config …) are in ${table.program} --help.`, ...examples);
  return lines.join('\n');
};

/** The binary's help, or one command's: what `--help`, `<command> --help` and `help [command]` print. */
export const helpText = (table: CommandTable, usage: string, topic: string | undefined): string =>
  topic === undefined ? usage : commandHelp(table, topic);
