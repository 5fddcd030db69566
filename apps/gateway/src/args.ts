import { parseArgs } from 'node:util';
import { isClientCommand } from '@promptyard/client-config';
import { PromptyardError } from '@promptyard/core';
import type { LogFormat, LogLevel } from '@promptyard/core';
import { findCommand } from '@promptyard/host';
import type { CommandTable } from '@promptyard/host';
import { parseServeFlags } from '@promptyard/mcp';
import { gatewayCommandSpecs } from './command-help.js';

export interface GatewayOverrides {
  readonly transport?: 'stdio' | 'http';
  readonly host?: string;
  readonly port?: number;
  readonly lazy?: boolean;
  readonly logLevel?: LogLevel;
  readonly logFormat?: LogFormat;
  readonly watch?: boolean;
  /** `--profile <name>`: serve one `[profiles.<name>]` over stdio instead of everything. */
  readonly profile?: string;
}

export interface GatewayCli {
  readonly command: 'serve' | 'status' | 'ui' | 'login' | 'pins' | 'schema';
  /** `login <server>`: the server to log in to. */
  readonly server?: string;
  /** `pins <action> [target]`: the words after `pins`. */
  readonly pins?: readonly string[];
  readonly help: boolean;
  /** `help <command>`, `<command> --help`: the command whose help is asked for. */
  readonly helpCommand?: string;
  /** `install` / `uninstall` wherever they stand: the arguments for them, the command first. */
  readonly clientArgs?: readonly string[];
  readonly version: boolean;
  readonly config?: string;
  readonly json: boolean;
  readonly overrides: GatewayOverrides;
}

export const usage = `Usage: promptyard-gateway [options]
       promptyard-gateway [options] status [--json]
       promptyard-gateway [options] ui
       promptyard-gateway [options] login <server>
       promptyard-gateway [options] pins list | diff [server[/name]] | approve [server[/name]] | reject [server[/name]] | reset [server]
       promptyard-gateway [options] install | uninstall <client>   (see promptyard-gateway help install)
       promptyard-gateway schema

Aggregate many MCP servers behind one: their tools, prompts, resources and completions, namespaced
<server>_<name>, with list changes pushed live, crashed servers restarted, and meta tools
(catalog_tools, describe_tool, search_tools, call_tool, catalog_prompts, describe_prompt,
search_prompts) so clients need not load every schema.

The config is a gateway.toml ([servers.<id>] tables) or the JSON clients already have: Claude
Desktop / Cursor "mcpServers", VS Code "servers". It is reloaded when it changes: only the servers
whose entry changed restart, and an invalid edit keeps the last good config.

Commands:
  status                   start every server once, print each one's state, transport, protocol
                           era, counts and last error, then exit (1 when any failed); a line
                           per server as each answers or times out ([timeouts] connect_ms), and
                           off a terminal the ones still starting every 5 s (all on stderr)
  ui                       a live terminal UI: every server's state (restart, disable), every tool,
                           prompt and resource with search, calls and renders, and the logs; needs a
                           terminal (q quits)
  login <server>           log the gateway in to an auth = "oauth" server: prints the authorization
                           URL to open, catches the redirect on a loopback port and stores the tokens
                           (under $XDG_CONFIG_HOME/promptyard/oauth, else ~/.config/…); a running
                           gateway picks them up
  pins <action>            the definition pins of the config's servers (a file beside the OAuth
                           tokens, or Redis with [cluster]): list them with their state, diff what
                           changed since approval, approve it (a running gateway serves it again),
                           reject it (it stays unapproved, marked with who said no), or reset
                           (forget) all or one server's pins
  install <client>         add this gateway to a client's MCP config (claude-desktop, claude-code,
                           cursor, vscode, windsurf, zed, continue, codex, gemini-cli); uninstall
                           removes it
  schema                   print the JSON Schema of gateway.toml (for editor completion and
                           checks); reads no config

Options:
  -c, --config <file>      gateway.toml or a client's JSON config (default: $PROMPTYARD_GATEWAY_CONFIG,
                           else ./gateway.toml)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3100; 0 picks a free port)
      --lazy               list only the meta tools; clients find and call the rest through them
      --profile <name>     serve only what [profiles.<name>] shows (over HTTP every profile is also
                           served at <path>/<name>)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --log-format <fmt>   text (default) or json: one JSON object a line, for log collectors
      --no-watch           do not reload the config when it changes
  -h, --help               show this help
  -v, --version            print the version

Run promptyard-gateway help <command> (or <command> --help) for a command's options and an example.

Environment: PROMPTYARD_<SECTION>_<KEY> sets any key of gateway.toml (PROMPTYARD_GATEWAY_LOG_FORMAT=json),
with short forms PROMPTYARD_TRANSPORT, PROMPTYARD_HOST, PROMPTYARD_PORT, PROMPTYARD_LOG_LEVEL,
PROMPTYARD_LOG_FORMAT and PROMPTYARD_AUTH_TOKEN. Flags override the environment, which overrides the
file. Output on a terminal is coloured; NO_COLOR=1 turns colour off, FORCE_COLOR=1 keeps it through
a pipe.

Logs go to stderr; stdout carries only the protocol. HTTP serves GET /health with every server's
state.`;

const usageError = (message: string): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-gateway --help for the options.`);

const commonOptions = {
  config: { type: 'string', short: 'c' },
  transport: { type: 'string', short: 't' },
  host: { type: 'string' },
  port: { type: 'string' },
  lazy: { type: 'boolean' },
  profile: { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'no-watch': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;
const commandOptions = { json: { type: 'boolean' } } as const;

/** The subcommands: how each is found, and its help. */
export const gatewayCommands: CommandTable = {
  program: 'promptyard-gateway',
  withoutCommand: 'the gateway serves its config',
  strayWordHint: 'a config file is given with --config <file>',
  options: { ...commonOptions, ...commandOptions },
  usageError,
  commands: gatewayCommandSpecs,
};

const parseCommandArgs = (command: GatewayCli['command'], rest: readonly string[]) => {
  try {
    return parseArgs({
      args: [...rest],
      strict: true,
      allowPositionals: command === 'login' || command === 'pins',
      options: { ...commonOptions, ...(command === 'status' ? commandOptions : {}) },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
};

const asked = (helpCommand: string | undefined): GatewayCli => ({
  command: 'serve',
  help: true,
  ...(helpCommand === undefined ? {} : { helpCommand }),
  version: false,
  json: false,
  overrides: {},
});

export const parseGatewayCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): GatewayCli => {
  const found = findCommand(argv, gatewayCommands);
  if (found.kind === 'help') return asked(found.topic);
  if (found.kind === 'command' && isClientCommand(found.name))
    return { command: 'serve', clientArgs: [found.name, ...found.rest], help: false, version: false, json: false, overrides: {} };
  const command = found.kind === 'command' ? (found.name as GatewayCli['command']) : 'serve';
  const { values, positionals } = parseCommandArgs(command, found.rest);
  if (values.help === true) return asked(command === 'serve' ? undefined : command);
  if (command === 'login' && positionals.length !== 1)
    throw usageError('login needs the id of one server: promptyard-gateway login <server>');
  const overrides: { -readonly [K in keyof GatewayOverrides]: GatewayOverrides[K] } = parseServeFlags(values, usageError);
  if (values.lazy === true) overrides.lazy = true;
  if (values['no-watch'] === true) overrides.watch = false;
  if (values.profile !== undefined) {
    if (values.profile === '') throw usageError('--profile needs the name of a [profiles.<name>] table');
    overrides.profile = values.profile;
  }
  const config = values.config ?? env['PROMPTYARD_GATEWAY_CONFIG'];
  return {
    command,
    ...(command === 'login' && positionals[0] !== undefined ? { server: positionals[0] } : {}),
    ...(command === 'pins' ? { pins: positionals } : {}),
    help: false,
    version: values.version === true,
    json: (values as { json?: boolean }).json === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
