/**
 * `install` and `uninstall` as typed on the command line, parsed with `util.parseArgs`, checked,
 * and turned into what to write: the client, the file, the entry's name and the server.
 */
import { parseArgs } from 'node:util';
import { PromptyardError, closestNames, didYouMean, formatList } from '@promptyard/core';
import { clientIds, clients } from '../clients/clients.js';
import type { ClientDefinition } from '../clients/clients.js';
import { isPlatform, platforms } from '../clients/locations.js';
import type { Platform } from '../clients/locations.js';

export interface ClientCommand {
  readonly action: 'install' | 'uninstall';
  readonly client: ClientDefinition;
  readonly name?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly tokenEnv?: string;
  readonly npx: boolean;
  readonly config?: string;
  /** `--prompts DIR` (repeatable): prompt folders the server is started with. */
  readonly prompts: readonly string[];
  readonly workspace: boolean;
  readonly platform?: Platform;
  readonly dryRun: boolean;
  readonly help: boolean;
}

const options = {
  name: { type: 'string', short: 'n' },
  env: { type: 'string', short: 'e', multiple: true },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  'token-env': { type: 'string' },
  npx: { type: 'boolean' },
  config: { type: 'string', short: 'c' },
  prompts: { type: 'string', short: 'p', multiple: true },
  workspace: { type: 'boolean' },
  platform: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const usageError = (program: string, message: string): PromptyardError =>
  new PromptyardError('CONFIG_INVALID', `${message}\nRun ${program} install --help for the options.`);

/** The client named `id`, or an error listing them all with the closest first. */
const findClient = (id: string | undefined, program: string): ClientDefinition => {
  const client = clients.find((candidate) => candidate.id === id);
  if (client !== undefined) return client;
  const list = `The clients are: ${formatList(clientIds)}.`;
  if (id === undefined) throw usageError(program, `Name the client to configure. ${list}`);
  const hint = didYouMean(closestNames(id, clientIds, 2), 'colon');
  throw usageError(program, `Unknown client "${id}"${hint === '' ? '.' : hint} ${list}`);
};

const pairs = (program: string, values: readonly string[], separator: string, what: string): Record<string, string> => {
  const result: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(separator);
    const key = at <= 0 ? '' : value.slice(0, at).trim();
    if (key === '') throw usageError(program, `${what} must be ${separator === '=' ? 'KEY=VALUE' : "'Name: value'"}, got "${value}".`);
    // A header's value starts after `: `; an environment variable's is everything after the first `=`, spaces included.
    const rest = value.slice(at + 1);
    result[key] = separator === '=' ? rest : rest.trim();
  }
  return result;
};

/** What does not go together, said before anything is read or written. */
const checkCombination = (program: string, command: ClientCommand): void => {
  const { url, client } = command;
  if (url !== undefined) {
    if (!/^https?:\/\//.test(url)) throw usageError(program, `--url must be an http:// or https:// URL, got "${url}".`);
    const stdioOnly = [
      command.npx && '--npx',
      command.config !== undefined && '--config',
      command.prompts.length > 0 && '--prompts',
      Object.keys(command.env).length > 0 && '--env',
    ];
    const clash = stdioOnly.find((flag) => flag !== false);
    if (clash !== undefined) throw usageError(program, `${clash} sets how the client starts the server; with --url it runs elsewhere.`);
  } else if (Object.keys(command.headers).length > 0 || command.tokenEnv !== undefined)
    throw usageError(program, '--header and --token-env go with --url (the address of a running server).');
  if (command.tokenEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(command.tokenEnv))
    throw usageError(program, `--token-env takes the name of an environment variable, got "${command.tokenEnv}".`);
  if (command.workspace && client.workspaceFile === undefined) {
    const withProject = clients.filter((candidate) => candidate.workspaceFile !== undefined).map((candidate) => candidate.id);
    throw usageError(program, `${client.title} has no project config file; --workspace works with ${formatList(withProject)}.`);
  }
};

export const parseClientCommand = (argv: readonly string[], program: string): ClientCommand => {
  const [action, ...rest] = argv;
  if (action !== 'install' && action !== 'uninstall') throw usageError(program, `Expected install or uninstall, got "${String(action)}".`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError(program, (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { action, help: true } as ClientCommand;
  if (positionals.length > 1) throw usageError(program, `${action} takes one client, got ${formatList(positionals, 'and')}.`);
  const client = findClient(positionals[0], program);
  if (action === 'uninstall') {
    const installOnly = ['env', 'url', 'header', 'token-env', 'npx', 'config', 'prompts'].find(
      (key) => (values as Record<string, unknown>)[key] !== undefined,
    );
    if (installOnly !== undefined)
      throw usageError(program, `--${installOnly} is for install; uninstall takes --name, --workspace, --platform and --dry-run.`);
  }
  if (values.platform !== undefined && !isPlatform(values.platform))
    throw usageError(program, `--platform must be ${formatList(platforms)}, got "${values.platform}".`);
  if (values.name !== undefined && values.name.trim() === '') throw usageError(program, '--name needs a name for the entry.');
  const command: ClientCommand = {
    action,
    client,
    ...(values.name === undefined ? {} : { name: values.name }),
    env: pairs(program, values.env ?? [], '=', '--env'),
    ...(values.url === undefined ? {} : { url: values.url }),
    headers: pairs(program, values.header ?? [], ':', '--header'),
    ...(values['token-env'] === undefined ? {} : { tokenEnv: values['token-env'] }),
    npx: values.npx === true,
    ...(values.config === undefined ? {} : { config: values.config }),
    prompts: values.prompts ?? [],
    workspace: values.workspace === true,
    ...(values.platform === undefined ? {} : { platform: values.platform as Platform }),
    dryRun: values['dry-run'] === true,
    help: false,
  };
  checkCombination(program, command);
  return command;
};
