import { parseArgs } from 'node:util';
import { isClientCommand } from '@promptyard/client-config';
import { PromptyardError } from '@promptyard/core';
import { findCommand } from '@promptyard/host';
import type { CommandTable } from '@promptyard/host';
import { parseServeFlags } from '@promptyard/mcp';
import { serverCommandSpecs } from './command-help.js';
import type { Overrides } from './config.js';

/** A one-shot subcommand instead of serving. */
export type CliCommand =
  | { readonly kind: 'list'; readonly versions: boolean }
  | { readonly kind: 'sync' }
  | { readonly kind: 'lock' }
  | { readonly kind: 'versions'; readonly name: string }
  | { readonly kind: 'render'; readonly name: string; readonly args: Readonly<Record<string, string>> }
  | { readonly kind: 'validate'; readonly strict: boolean };

export interface CliOptions {
  readonly command?: CliCommand;
  readonly help: boolean;
  /** `help <command>`, `<command> --help`: the command whose help is asked for. */
  readonly helpCommand?: string;
  /** `install` / `uninstall` wherever they stand: the arguments for them, the command first. */
  readonly clientArgs?: readonly string[];
  /** `schema`: print the JSON Schema of promptyard.toml; no config is read. */
  readonly schema?: boolean;
  readonly version: boolean;
  readonly config?: string;
  readonly overrides: Overrides;
}

export const usage = `Usage: promptyard-server [options]
       promptyard-server [options] list [--versions]
       promptyard-server [options] render <name> [--arg key=value …]
       promptyard-server [options] validate [--strict]
       promptyard-server [options] sync | lock | versions <name>
       promptyard-server [options] install | uninstall <client>   (see promptyard-server help install)
       promptyard-server schema

Serve folders of Markdown prompts to MCP clients over stdio or Streamable HTTP. With no prompt
folders configured, serves the well-known folders of the project and the home folder
(.claude/commands, .github/prompts, .gemini/commands, …).

Commands:
  list                     print every prompt: name, arguments and description
                           (--versions: first each git source's commit and when it was fetched)
  render <name>            print a prompt rendered with --arg key=value (repeatable)
  validate                 load every source; report parse errors, declared-but-unused and
                           used-but-undeclared arguments as file:line; exit 1 on errors
                           (--strict: on warnings too) — usable in a pre-commit hook; with
                           git libraries, also checks promptyard.lock against their commits
  sync                     fetch every git library now; running servers on the same cache
                           ([state] dir) move to what was fetched
  lock                     write promptyard.lock: each git library's commit and the SHA-256 of
                           every file served from it (serve it with --frozen)
  versions <name>          the commits of its git library that changed a prompt
  install <client>         add this server to a client's MCP config (claude-desktop, claude-code,
                           cursor, vscode, windsurf, zed, continue, codex, gemini-cli); uninstall
                           removes it
  schema                   print the JSON Schema of promptyard.toml (for editor completion and
                           checks); reads no config

Options:
  -c, --config <file>      promptyard.toml to read (default: $PROMPTYARD_CONFIG, else
                           ./promptyard.toml when there is one)
  -p, --prompts <dir>      a prompt folder; repeat for several (replaces [prompts] folders)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3000; 0 picks a free port)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --log-format <fmt>   text (default) or json: one JSON object a line, for log collectors
      --no-watch           do not watch the folders for changes
      --frozen             serve exactly the commits in promptyard.lock ([prompts] frozen)
  -h, --help               show this help
  -v, --version            print the version

Run promptyard-server help <command> (or <command> --help) for a command's options and an example.

Environment: PROMPTYARD_<SECTION>_<KEY> sets any config key (PROMPTYARD_LIMITS_MAX_FILE_BYTES=…),
with short forms PROMPTYARD_TRANSPORT, PROMPTYARD_HOST, PROMPTYARD_PORT, PROMPTYARD_PROMPTS,
PROMPTYARD_LOG_LEVEL, PROMPTYARD_LOG_FORMAT, PROMPTYARD_AUTH_TOKEN and PROMPTYARD_HOME (the home
folder discovery searches). Flags override the environment, which overrides the file. Output on a
terminal is coloured; NO_COLOR=1 turns colour off, FORCE_COLOR=1 keeps it through a pipe.

Logs go to stderr; stdout carries only the protocol.`;

const usageError = (message: string): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-server --help for the options.`);

const commonOptions = {
  config: { type: 'string', short: 'c' },
  prompts: { type: 'string', short: 'p', multiple: true },
  transport: { type: 'string', short: 't' },
  host: { type: 'string' },
  port: { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'no-watch': { type: 'boolean' },
  frozen: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;
const commandOptions = {
  arg: { type: 'string', short: 'a', multiple: true },
  strict: { type: 'boolean' },
  versions: { type: 'boolean' },
} as const;

/** The subcommands: how each is found, and its help. */
export const serverCommands: CommandTable = {
  program: 'promptyard-server',
  withoutCommand: 'the server starts',
  strayWordHint: 'to serve a folder, pass --prompts <dir>',
  options: { ...commonOptions, ...commandOptions },
  usageError,
  commands: serverCommandSpecs,
};
type CommandName = 'list' | 'render' | 'validate' | 'sync' | 'lock' | 'versions' | 'schema';

/** The strict parse of what follows the command: the common options and the command's own. */
const parseCommandArgs = (name: CommandName | undefined, rest: readonly string[]) => {
  try {
    return parseArgs({
      args: [...rest],
      allowPositionals: name === 'render' || name === 'versions',
      strict: true,
      options: {
        ...commonOptions,
        ...(name === 'render' ? { arg: commandOptions.arg } : {}),
        ...(name === 'validate' ? { strict: commandOptions.strict } : {}),
        ...(name === 'list' ? { versions: commandOptions.versions } : {}),
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
};

const renderArgs = (pairs: readonly string[]): Record<string, string> => {
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw usageError(`--arg must be key=value, got "${pair}".`);
    args[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return args;
};

const commandOf = (name: Exclude<CommandName, 'schema'>, values: Record<string, unknown>, positionals: readonly string[]): CliCommand => {
  switch (name) {
    case 'list':
      return { kind: 'list', versions: values['versions'] === true };
    case 'validate':
      return { kind: 'validate', strict: values['strict'] === true };
    case 'versions':
      if (positionals.length !== 1) throw usageError('versions takes one prompt name: promptyard-server versions <name>');
      return { kind: 'versions', name: positionals[0] as string };
    case 'render':
      if (positionals.length !== 1) throw usageError('render takes one prompt name: promptyard-server render <name> --arg key=value');
      return { kind: 'render', name: positionals[0] as string, args: renderArgs((values['arg'] as string[] | undefined) ?? []) };
    default:
      return { kind: name };
  }
};

export const parseCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions => {
  const found = findCommand(argv, serverCommands);
  if (found.kind === 'help')
    return { help: true, ...(found.topic === undefined ? {} : { helpCommand: found.topic }), version: false, overrides: {} };
  if (found.kind === 'command' && isClientCommand(found.name))
    return { clientArgs: [found.name, ...found.rest], help: false, version: false, overrides: {} };
  const name = found.kind === 'command' ? (found.name as CommandName) : undefined;
  const { values, positionals } = parseCommandArgs(name, found.rest);
  // `render --help` needs no prompt name: the help is the answer.
  if (values.help === true) return { help: true, ...(name === undefined ? {} : { helpCommand: name }), version: false, overrides: {} };
  // The schema is the same whatever the config says: a broken config must not keep an editor from it.
  if (name === 'schema') return { schema: true, help: false, version: false, overrides: {} };
  const command = name === undefined ? undefined : commandOf(name, values, positionals);
  const overrides: { -readonly [K in keyof Overrides]: Overrides[K] } = parseServeFlags(values, usageError);
  if (values.prompts !== undefined) overrides.prompts = values.prompts;
  if (values['no-watch'] === true) overrides.watch = false;
  if (values.frozen === true) overrides.frozen = true;
  const config = values.config ?? env['PROMPTYARD_CONFIG'];
  return {
    ...(command === undefined ? {} : { command }),
    help: false,
    version: values.version === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
