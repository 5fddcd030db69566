import { parseArgs } from 'node:util';
import { PromptyardError, closestNames, didYouMean, formatList, isPromptyardError } from '@promptyard/core';
import { parseServeFlags } from '@promptyard/mcp';
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
  readonly version: boolean;
  readonly config?: string;
  readonly overrides: Overrides;
}

export const usage = `Usage: promptyard-server [options]
       promptyard-server [options] list [--versions]
       promptyard-server [options] render <name> [--arg key=value …]
       promptyard-server [options] validate [--strict]
       promptyard-server [options] sync | lock | versions <name>
       promptyard-server install | uninstall <client> [options]   (see install --help)

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

Options:
  -c, --config <file>      promptyard.toml to read (default: $PROMPTYARD_CONFIG, else none)
  -p, --prompts <dir>      a prompt folder; repeat for several (replaces [prompts] folders)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3000; 0 picks a free port)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --no-watch           do not watch the folders for changes
      --frozen             serve exactly the commits in promptyard.lock ([prompts] frozen)
  -h, --help               show this help
  -v, --version            print the version

Environment: PROMPTYARD_<SECTION>_<KEY> sets any config key (PROMPTYARD_LIMITS_MAX_FILE_BYTES=…),
with short forms PROMPTYARD_TRANSPORT, PROMPTYARD_HOST, PROMPTYARD_PORT, PROMPTYARD_PROMPTS,
PROMPTYARD_LOG_LEVEL, PROMPTYARD_AUTH_TOKEN and PROMPTYARD_HOME (the home folder discovery
searches). Flags override the environment, which overrides the file.

Logs go to stderr; stdout carries only the protocol.`;

const usageError = (message: string): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-server --help for the options.`);

const commands = ['list', 'render', 'validate', 'sync', 'lock', 'versions'] as const;
type CommandName = (typeof commands)[number];
const isCommand = (word: string | undefined): word is CommandName => (commands as readonly (string | undefined)[]).includes(word);

const commonOptions = {
  config: { type: 'string', short: 'c' },
  prompts: { type: 'string', short: 'p', multiple: true },
  transport: { type: 'string', short: 't' },
  host: { type: 'string' },
  port: { type: 'string' },
  'log-level': { type: 'string' },
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

/**
 * The subcommand wherever it stands (`promptyard-server --prompts x list` as well as `list --prompts
 * x`): the first word that is not an option or an option's value. Returns the arguments without it.
 * A first word that is no command is an error, with the closest command suggested.
 */
const findCommand = (argv: readonly string[]): { readonly name?: CommandName; readonly rest: readonly string[] } => {
  const { tokens } = parseArgs({
    args: [...argv],
    options: { ...commonOptions, ...commandOptions },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((token) => token.kind === 'positional');
  if (first === undefined) return { rest: argv };
  if (isCommand(first.value)) return { name: first.value, rest: argv.filter((_arg, index) => index !== first.index) };
  // An unknown option before it is the likelier mistake: the strict parse reports that one.
  const known = new Set<string>([...Object.keys(commonOptions), ...Object.keys(commandOptions)]);
  if (tokens.some((token) => token.kind === 'option' && !known.has(token.name))) return { rest: argv };
  const close = closestNames(first.value, commands, 1);
  // The hint follows the command after a colon: `Unknown command "lsit": did you mean "list"?`.
  const hint = didYouMean(close, 'colon');
  throw usageError(
    `Unknown command "${first.value}"${hint} The commands are ${formatList(commands)}; ` +
      `with none, the server starts${close.length === 0 ? ' (to serve a folder, pass --prompts <dir>)' : ''}.`,
  );
};

export const parseCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions => {
  let parsed;
  let commandName: CommandName | undefined;
  try {
    const found = findCommand(argv);
    commandName = found.name;
    parsed = parseArgs({
      args: [...found.rest],
      allowPositionals: commandName === 'render' || commandName === 'versions',
      strict: true,
      options: {
        ...commonOptions,
        ...(commandName === 'render' ? { arg: commandOptions.arg } : {}),
        ...(commandName === 'validate' ? { strict: commandOptions.strict } : {}),
        ...(commandName === 'list' ? { versions: commandOptions.versions } : {}),
      },
    });
  } catch (error) {
    if (isPromptyardError(error)) throw error;
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  let command: CliCommand | undefined;
  if (commandName === 'list') command = { kind: 'list', versions: (values as { versions?: boolean }).versions === true };
  if (commandName === 'sync' || commandName === 'lock') command = { kind: commandName };
  if (commandName === 'versions') {
    if (positionals.length !== 1) throw usageError('versions takes one prompt name: promptyard-server versions <name>');
    command = { kind: 'versions', name: positionals[0] as string };
  }
  if (commandName === 'validate') command = { kind: 'validate', strict: (values as { strict?: boolean }).strict === true };
  if (commandName === 'render') {
    if (positionals.length !== 1) throw usageError('render takes one prompt name: promptyard-server render <name> --arg key=value');
    const args: Record<string, string> = {};
    for (const pair of (values as unknown as { arg?: string[] }).arg ?? []) {
      const equals = pair.indexOf('=');
      if (equals <= 0) throw usageError(`--arg must be key=value, got "${pair}".`);
      args[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
    command = { kind: 'render', name: positionals[0] as string, args };
  }
  const overrides: { -readonly [K in keyof Overrides]: Overrides[K] } = parseServeFlags(values, usageError);
  if (values.prompts !== undefined) overrides.prompts = values.prompts;
  if (values['no-watch'] === true) overrides.watch = false;
  if (values.frozen === true) overrides.frozen = true;
  const config = values.config ?? env['PROMPTYARD_CONFIG'];
  return {
    ...(command === undefined ? {} : { command }),
    help: values.help === true,
    version: values.version === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
