/**
 * `<program> install <client>` and `<program> uninstall <client>`: the one entry point the binaries
 * dispatch to, and its help text. What the entry starts by default is this very binary: the
 * absolute path of the Node.js running it and of its cli.js (`npx -y <package>` with `--npx`).
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { PromptyardError } from '@promptyard/core';
import { clients } from '../clients/clients.js';
import type { ClientDefinition } from '../clients/clients.js';
import { currentPlatform, resolveBases } from '../clients/locations.js';
import type { Environment, Platform } from '../clients/locations.js';
import { bridgeTokenNote } from '../clients/shapes.js';
import type { ServerSpec, StdioServer } from '../clients/shapes.js';
import type { EntryValue } from '../formats/format.js';
import { installEntry, uninstallEntry } from '../install.js';
import type { ChangeReport } from '../install.js';
import { parseClientCommand } from './parse.js';
import type { ClientCommand } from './parse.js';

export interface ClientCommandOptions {
  /** The binary's name, in messages and help (`promptyard-server`). */
  readonly program: string;
  /** The package `--npx` runs (`@promptyard/server`). */
  readonly packageName: string;
  /** The entry's name when `--name` is not given. */
  readonly defaultName: string;
  /** Where the report goes (default: standard output). */
  readonly stdout?: (text: string) => void;
  /** The running cli.js, which the entry starts (default: `process.argv[1]`); its symbolic links are resolved. */
  readonly script?: string;
  /**
   * The config file the binary reads from the current folder when given none (`gateway.toml`): when
   * it is there and `--config` is not given, the entry names it by absolute path, since a client
   * starts the server in a folder of its own choosing.
   */
  readonly configFallback?: string;
  /** The environment variable naming the binary's config file (`PROMPTYARD_CONFIG`), read before `configFallback`. */
  readonly configVariable?: string;
  /** Whether the binary takes `--prompts <dir>` (the server does, the gateway does not). */
  readonly promptsOption?: boolean;
  readonly execPath?: string;
  readonly env?: Environment;
  readonly cwd?: string;
}

/** The help of `install` and `uninstall`, for `<program> install --help` and the binary's own help. */
export const clientCommandHelp = (program: string, defaultName: string): string => {
  const rows = clients.map(
    (client) =>
      `  ${client.id.padEnd(16)} ${client.title}${client.workspaceFile === undefined ? '' : ` (--workspace: ${client.workspaceFile})`}`,
  );
  return `Usage: ${program} install <client> [options]
       ${program} uninstall <client> [--name <name>] [--workspace] [--dry-run]

Adds this server to a client's MCP configuration (or removes it): merged into the client's own
file, every other entry and comment kept, the previous file copied to <file>.bak first. Running it
again changes nothing. The entry starts this binary by absolute path (node + cli.js).

Clients:
${rows.join('\n')}

Options:
  -n, --name <name>        the entry's name (default ${defaultName})
  -c, --config <file>      the config file the server is started with (made absolute; default: the
                           one the binary's environment variable names, else its default file here)
  -p, --prompts <dir>      a prompt folder the server is started with (repeatable; made absolute;
                           promptyard-server only)
  -e, --env KEY=VALUE      an environment variable for the server (repeatable)
      --npx                start it with npx -y <package> instead of this installation's path
      --url <url>          a running server over Streamable HTTP instead (clients without an HTTP
                           form get npx -y mcp-remote <url>)
      --header 'Name: v'   an HTTP header sent with --url (repeatable; written as given)
      --token-env <VAR>    send Authorization: Bearer $VAR, read by the client from its environment
                           (or its secrets) when it connects, so the token is not written in the file
      --workspace          the project's file in the current folder instead of the user's
      --platform <os>      linux, darwin or win32: whose file layout to use (default: this system)
      --dry-run            print what would change, write nothing
  -h, --help               show this help`;
};

/**
 * `--config <absolute path>`: the one given, else the one the binary's environment variable names
 * (as the binary itself would read it), else the binary's default file when the current folder has it.
 */
const configArgs = (command: ClientCommand, options: ClientCommandOptions, cwd: string, env: Environment): string[] => {
  if (command.config !== undefined) return ['--config', resolve(cwd, command.config)];
  const named = options.configVariable === undefined ? undefined : env[options.configVariable];
  if (named !== undefined && named !== '') return ['--config', resolve(cwd, named)];
  const fallback = options.configFallback === undefined ? undefined : resolve(cwd, options.configFallback);
  return fallback !== undefined && existsSync(fallback) ? ['--config', fallback] : [];
};

/** The running cli.js, absolute with its links resolved. */
const scriptPath = (options: ClientCommandOptions, cwd: string): string => {
  const script = options.script ?? process.argv[1] ?? '';
  return realpathSync(isAbsolute(script) ? script : resolve(cwd, script));
};

/** npx runs packages from a cache it may clear (`…/_npx/<hash>/…`): an entry must not point in there. */
const inNpxCache = (path: string): boolean => path.includes('/_npx/') || path.includes('\\_npx\\');

const stdioServer = (command: ClientCommand, options: ClientCommandOptions, cwd: string, env: Environment): StdioServer => {
  // A client speaks to the entry over stdio, whatever transport the config file or the environment sets.
  const prompts = command.prompts.flatMap((folder) => ['--prompts', resolve(cwd, folder)]);
  const config = ['--transport', 'stdio', ...configArgs(command, options, cwd, env), ...prompts];
  if (command.npx) return { kind: 'stdio', command: 'npx', args: ['-y', options.packageName, ...config], env: command.env };
  return { kind: 'stdio', command: options.execPath ?? process.execPath, args: [scriptPath(options, cwd), ...config], env: command.env };
};

const serverOf = (command: ClientCommand, options: ClientCommandOptions, cwd: string, env: Environment): ServerSpec =>
  command.url === undefined
    ? stdioServer(command, options, cwd, env)
    : {
        kind: 'http',
        url: command.url,
        headers: command.headers,
        ...(command.tokenEnv === undefined ? {} : { tokenEnv: command.tokenEnv }),
      };

/** On Windows a client starts `npx` (a .cmd script) through `cmd /c`, as the clients' own docs show. */
const forPlatform = (entry: EntryValue, platform: Platform): EntryValue =>
  platform === 'win32' && entry['command'] === 'npx' && Array.isArray(entry['args'])
    ? { ...entry, command: 'cmd', args: ['/c', 'npx', ...(entry['args'] as string[])] }
    : entry;

const fileOf = (client: ClientDefinition, command: ClientCommand, platform: Platform, env: Environment, cwd: string): string =>
  command.workspace && client.workspaceFile !== undefined ? join(cwd, client.workspaceFile) : client.userFile(resolveBases(platform, env));

const describe = (report: ChangeReport, client: ClientDefinition, dryRun: boolean): string => {
  const where = `${client.title}'s ${report.file}`;
  const backup = report.backup === undefined ? '' : ` (previous file kept as ${report.backup})`;
  const would = dryRun ? 'would be ' : '';
  const snippet = report.preview === undefined ? '' : ` (dry run: nothing written):\n${report.preview.trimEnd()}`;
  switch (report.outcome) {
    case 'added':
      return `"${report.name}" ${would}added to ${where}${backup}${snippet}`;
    case 'updated':
      return `"${report.name}" ${would}updated in ${where}${backup}${snippet}`;
    case 'unchanged':
      return `"${report.name}" in ${where} is already up to date: unchanged, nothing written`;
    case 'removed':
      return `"${report.name}" ${would}removed from ${where}${backup}`;
    case 'absent':
      return `no "${report.name}" in ${where}: unchanged, nothing to remove`;
  }
};

/** Whether a binary's first argument is one of these commands. */
export const isClientCommand = (word: string | undefined): boolean => word === 'install' || word === 'uninstall';

/** Runs `install …` or `uninstall …` (`argv` starts with the command); resolves with the exit code. */
export const runClientCommand = async (argv: readonly string[], options: ClientCommandOptions): Promise<number> => {
  const parsed = parseClientCommand(argv, options.program);
  if (parsed.prompts.length > 0 && options.promptsOption !== true)
    throw new PromptyardError('CONFIG_INVALID', `${options.program} takes no --prompts; name its config file with --config.`);
  const cwd = options.cwd ?? process.cwd();
  // Run through npx (`npx -y <package> install …`), this installation lives in npx's cache: the entry uses npx too.
  const fromNpxCache =
    !parsed.help && parsed.url === undefined && !parsed.npx && parsed.action === 'install' && inNpxCache(scriptPath(options, cwd));
  const command = fromNpxCache ? { ...parsed, npx: true } : parsed;
  const stdout = options.stdout ?? ((text: string) => void process.stdout.write(text));
  if (command.help) {
    stdout(`${clientCommandHelp(options.program, options.defaultName)}\n`);
    return 0;
  }
  const env = options.env ?? process.env;
  const platform = command.platform ?? currentPlatform();
  const { client } = command;
  const target = {
    client,
    file: fileOf(client, command, platform, env, cwd),
    name: command.name ?? options.defaultName,
    dryRun: command.dryRun,
    // Environment variables and headers may hold secrets: a file created for them is the user's alone.
    private: Object.keys(command.env).length > 0 || Object.keys(command.headers).length > 0,
  };
  if (command.action === 'uninstall') {
    stdout(`${describe(await uninstallEntry(target), client, command.dryRun)}\n`);
    return 0;
  }
  if (fromNpxCache)
    stdout(`${options.program} runs from npx's cache, which npx may clear: the entry starts npx -y ${options.packageName} instead.\n`);
  const entry = forPlatform(client.entry(serverOf(command, options, cwd, env)), platform);
  const report = await installEntry(target, entry);
  stdout(`${describe(report, client, command.dryRun)}\n`);
  if (command.tokenEnv !== undefined && JSON.stringify(entry).includes('mcp-remote')) stdout(`${bridgeTokenNote(command.tokenEnv)}\n`);
  if (!command.dryRun && report.outcome !== 'unchanged') stdout(`Restart ${client.title} (or reload its MCP servers) to use it.\n`);
  return 0;
};
