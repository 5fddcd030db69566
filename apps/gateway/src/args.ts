import { parseArgs } from 'node:util';
import { PromptyardError } from '@promptyard/core';
import { parseServeFlags } from '@promptyard/mcp';
import type { LogLevel } from '@promptyard/core';

export interface GatewayOverrides {
  readonly transport?: 'stdio' | 'http';
  readonly host?: string;
  readonly port?: number;
  readonly lazy?: boolean;
  readonly logLevel?: LogLevel;
  readonly watch?: boolean;
  /** `--profile <name>`: serve one `[profiles.<name>]` over stdio instead of everything. */
  readonly profile?: string;
}

export interface GatewayCli {
  readonly command: 'serve' | 'status' | 'ui' | 'login' | 'pins';
  /** `login <server>`: the server to log in to. */
  readonly server?: string;
  /** `pins <action> [target]`: the words after `pins`. */
  readonly pins?: readonly string[];
  readonly help: boolean;
  readonly version: boolean;
  readonly config?: string;
  readonly json: boolean;
  readonly overrides: GatewayOverrides;
}

export const usage = `Usage: promptyard-gateway [options]
       promptyard-gateway status [options]
       promptyard-gateway ui [options]
       promptyard-gateway login <server> [options]
       promptyard-gateway pins list | diff [server[/name]] | approve [server[/name]] | reset [server]
       promptyard-gateway install | uninstall <client> [options]   (see install --help)

Aggregate many MCP servers behind one: their tools, prompts, resources and completions, namespaced
<server>_<name>, with list changes pushed live, crashed servers restarted, and meta tools
(catalog_tools, describe_tool, search_tools, call_tool, catalog_prompts, describe_prompt,
search_prompts) so clients need not load every schema.

The config is a gateway.toml ([servers.<id>] tables) or the JSON clients already have: Claude
Desktop / Cursor "mcpServers", VS Code "servers". It is reloaded when it changes: only the servers
whose entry changed restart, and an invalid edit keeps the last good config.

Commands:
  status                   start every server once, print each one's state, transport, protocol
                           era, counts and last error, then exit (1 when any failed)
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
                           or reset (forget) all or one server's pins
  install <client>         add this gateway to a client's MCP config (claude-desktop, claude-code,
                           cursor, vscode, windsurf, zed, continue, codex, gemini-cli); uninstall
                           removes it

Options:
  -c, --config <file>      gateway.toml or a client's JSON config (default: $PROMPTYARD_GATEWAY_CONFIG,
                           else ./gateway.toml)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3000; 0 picks a free port)
      --lazy               list only the meta tools; clients find and call the rest through them
      --profile <name>     serve only what [profiles.<name>] shows (over HTTP every profile is also
                           served at <path>/<name>)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --no-watch           do not reload the config when it changes
      --json               (status) print JSON
  -h, --help               show this help
  -v, --version            print the version

Logs go to stderr; stdout carries only the protocol. HTTP serves GET /health with every server's
state.`;

const usageError = (message: string): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-gateway --help for the options.`);

export const parseGatewayCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): GatewayCli => {
  const command = argv[0] === 'status' || argv[0] === 'ui' || argv[0] === 'login' || argv[0] === 'pins' ? argv[0] : 'serve';
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: command === 'serve' ? [...argv] : argv.slice(1),
      strict: true,
      allowPositionals: command === 'login' || command === 'pins',
      options: {
        config: { type: 'string', short: 'c' },
        transport: { type: 'string', short: 't' },
        host: { type: 'string' },
        port: { type: 'string' },
        lazy: { type: 'boolean' },
        profile: { type: 'string' },
        'log-level': { type: 'string' },
        'no-watch': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (command === 'login' && positionals.length !== 1 && values.help !== true)
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
    help: values.help === true,
    version: values.version === true,
    json: values.json === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
