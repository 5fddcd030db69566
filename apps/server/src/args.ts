import { parseArgs } from 'node:util';
import { PromptyardError } from '@promptyard/core';
import { parseServeFlags } from '@promptyard/mcp';
import type { Overrides } from './config.js';

/** A one-shot subcommand instead of serving. */
export type CliCommand =
  | { readonly kind: 'list' }
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
       promptyard-server list [options]
       promptyard-server render <name> [--arg key=value …] [options]
       promptyard-server validate [--strict] [options]

Serve folders of Markdown prompts to MCP clients over stdio or Streamable HTTP. With no prompt
folders configured, serves the well-known folders of the project and the home folder
(.claude/commands, .github/prompts, .gemini/commands, …).

Commands:
  list                     print every prompt: name, arguments and description
  render <name>            print a prompt rendered with --arg key=value (repeatable)
  validate                 load every source; report parse errors, declared-but-unused and
                           used-but-undeclared arguments as file:line; exit 1 on errors
                           (--strict: on warnings too) — usable in a pre-commit hook

Options:
  -c, --config <file>      promptyard.toml to read (default: $PROMPTYARD_CONFIG, else none)
  -p, --prompts <dir>      a prompt folder; repeat for several (replaces [prompts] folders)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3000; 0 picks a free port)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --no-watch           do not watch the folders for changes
  -h, --help               show this help
  -v, --version            print the version

Environment: PROMPTYARD_<SECTION>_<KEY> sets any config key (PROMPTYARD_LIMITS_MAX_FILE_BYTES=…),
with short forms PROMPTYARD_TRANSPORT, PROMPTYARD_HOST, PROMPTYARD_PORT, PROMPTYARD_PROMPTS,
PROMPTYARD_LOG_LEVEL, PROMPTYARD_AUTH_TOKEN and PROMPTYARD_HOME (the home folder discovery
searches). Flags override the environment, which overrides the file.

Logs go to stderr; stdout carries only the protocol.`;

const usageError = (message: string): PromptyardError => new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-server --help for the options.`);

export const parseCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions => {
  const commandName = argv[0] === 'list' || argv[0] === 'render' || argv[0] === 'validate' ? argv[0] : undefined;
  let parsed;
  try {
    parsed = parseArgs({
      args: commandName === undefined ? [...argv] : argv.slice(1),
      allowPositionals: commandName === 'render',
      strict: true,
      options: {
        config: { type: 'string', short: 'c' },
        prompts: { type: 'string', short: 'p', multiple: true },
        transport: { type: 'string', short: 't' },
        host: { type: 'string' },
        port: { type: 'string' },
        'log-level': { type: 'string' },
        'no-watch': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        ...(commandName === 'render' ? { arg: { type: 'string', short: 'a', multiple: true } } : {}),
        ...(commandName === 'validate' ? { strict: { type: 'boolean' } } : {}),
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  let command: CliCommand | undefined;
  if (commandName === 'list') command = { kind: 'list' };
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
  const config = values.config ?? env['PROMPTYARD_CONFIG'];
  return {
    ...(command === undefined ? {} : { command }),
    help: values.help === true,
    version: values.version === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
