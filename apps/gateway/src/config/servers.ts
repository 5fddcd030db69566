import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatList } from '@promptyard/core';
import { NAME_CHARACTERS, PINNING_MODES, PROTOCOL_CHOICES, uriScheme } from '@promptyard/router';
import type { BackendConfig, BackendTransport, Overrides, PinningMode, ProtocolChoice } from '@promptyard/router';
import { readOAuth } from './oauth.js';
import { checkRenames, readOverrides } from './overrides.js';
import { openEntry, readDefinitionCap, readFilter, readMilliseconds, readRecord, readStrings, readText } from './server-entry.js';
import type { BuildContext, Problem, RawServer, ServerEntry } from './server-entry.js';
import { SERVER_ID, TRANSPORT_ALIASES } from './values.js';

/** Turns the server entries, from any format, into checked {@link BackendConfig}s, collecting problems. */

/** `Brave Search` → `Brave-Search`: what a JSON key becomes, and what a bad TOML id should be. */
const normaliseServerId = (key: string): string =>
  key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');

const TRANSPORTS: Readonly<Record<string, BackendTransport>> = TRANSPORT_ALIASES;

/** Minimal dotenv: `KEY=value`, `export KEY=value`, quotes, `#` comments. */
const parseDotenv = (text: string): Record<string, string> => {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (match === null) continue;
    const [, name = '', value = ''] = match;
    if (/^"(.*)"$/s.test(value)) values[name] = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    else if (/^'(.*)'$/s.test(value)) values[name] = value.slice(1, -1);
    else values[name] = value.replace(/\s+#.*$/, '');
  }
  return values;
};

/** VS Code's `envFile`: its variables, under those of `env`. */
const withEnvFile = (entry: ServerEntry, env: Record<string, string>): Record<string, string> => {
  const envFile = entry.context.format === 'vscode' ? readText(entry, 'envFile') : undefined;
  if (envFile === undefined) return env;
  const path = resolve(entry.context.base, envFile);
  try {
    return { ...parseDotenv(readFileSync(path, 'utf8')), ...env };
  } catch (error) {
    entry.problem(
      ['envFile'],
      `envFile ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): create it, or move the variables into env`,
    );
    return env;
  }
};

/** stdio with a command; else the declared transport, by default streamable-http. Exactly one of command and url. */
const readTransport = ({ raw, problem }: ServerEntry, transportName: string | undefined): BackendTransport => {
  const { fields, label } = raw;
  let declared: BackendTransport | undefined;
  if (transportName !== undefined) {
    declared = TRANSPORTS[transportName];
    if (declared === undefined) {
      problem(
        ['transport'],
        `${label('transport')} must be ${formatList(['stdio', 'streamable-http', 'sse'])} ("http" also means streamable-http), got ${JSON.stringify(transportName)}`,
      );
    }
  }
  const hasCommand = fields['command'] !== undefined;
  const hasUrl = fields['url'] !== undefined;
  if (hasCommand && hasUrl) {
    problem(
      ['url'],
      `has both ${label('command')} and ${label('url')}: keep command to launch a local server (stdio), or url to connect to a remote one`,
    );
  } else if (!hasCommand && !hasUrl) {
    problem(
      [],
      `has neither ${label('command')} nor ${label('url')}: set command (and args) to launch a local server, or url to connect to a remote one`,
    );
  } else if (hasCommand) {
    if (declared !== undefined && declared !== 'stdio') {
      problem(
        ['transport'],
        `${label('transport')} "${transportName ?? ''}" needs a url, but the server has a command: drop ${label('transport')} (a command speaks stdio) or replace command with url`,
      );
    }
    return 'stdio';
  } else if (declared === 'stdio') {
    problem(
      ['transport'],
      `${label('transport')} "stdio" needs a command, but the server has a url: drop ${label('transport')} or replace url with command`,
    );
  }
  return declared ?? 'streamable-http';
};

/** A disabled server's url is not checked: it may be a placeholder. */
const checkUrl = ({ raw, problem, enabled }: ServerEntry, url: string | undefined): void => {
  if (url === undefined || !enabled) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    problem(['url'], `${raw.label('url')} must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  }
};

const readPrefix = ({ raw, id, problem }: ServerEntry): string | false => {
  const prefixValue = raw.fields['prefix'];
  if (prefixValue === false) return false;
  if (typeof prefixValue === 'string') {
    if (NAME_CHARACTERS.test(prefixValue)) return prefixValue;
    problem(
      ['prefix'],
      `prefix ${JSON.stringify(prefixValue)} must be letters, digits, "_", "-" or "." (or true for the id, false for none)`,
    );
  } else if (prefixValue !== undefined && prefixValue !== true) {
    problem(['prefix'], `prefix must be true (the id), false (no prefix) or a string, got ${JSON.stringify(prefixValue)}`);
  }
  return id;
};

const readInheritEnv = ({ raw, problem }: ServerEntry): boolean => {
  const inheritValue = raw.fields['inherit_env'];
  if (inheritValue !== undefined && typeof inheritValue !== 'boolean') {
    problem(
      ['inherit_env'],
      `${raw.label('inherit_env')} must be true (the gateway's environment without PROMPTYARD_* variables, plus env) or false (only PATH, HOME and the like, plus env), got ${JSON.stringify(inheritValue)}`,
    );
  }
  return typeof inheritValue === 'boolean' ? inheritValue : true;
};

const readProtocol = ({ raw, problem }: ServerEntry, transport: BackendTransport): ProtocolChoice => {
  const { label } = raw;
  const protocolValue = raw.fields['protocol'];
  if (protocolValue === undefined) return 'auto';
  const choice = PROTOCOL_CHOICES.find((item) => item === protocolValue);
  if (choice === undefined) {
    problem(
      ['protocol'],
      `${label('protocol')} must be ${formatList(PROTOCOL_CHOICES)} ("auto" when absent), got ${JSON.stringify(protocolValue)}`,
    );
  } else if (choice === '2026-07-28' && transport === 'sse') {
    problem(
      ['protocol'],
      `${label('protocol')} "2026-07-28" needs a streamable-http url or a command: an sse server speaks only the 2025 protocol, so drop ${label('protocol')} or change ${label('transport')}`,
    );
  } else return choice;
  return 'auto';
};

const readPinning = ({ raw, problem }: ServerEntry): PinningMode => {
  const value = raw.fields['pinning'];
  if (value === undefined) return 'warn';
  const mode = PINNING_MODES.find((item) => item === value);
  if (mode !== undefined) return mode;
  problem(['pinning'], `${raw.label('pinning')} must be ${formatList(PINNING_MODES)} ("warn" when absent), got ${JSON.stringify(value)}`);
  return 'warn';
};

/** `[servers.<id>.overrides]`, with renames that would make two of its items share a name refused. */
const readServerOverrides = ({ raw, context }: ServerEntry): Overrides => {
  const scope = {
    path: ['servers', raw.key, 'overrides'],
    line: (path: readonly string[]) => raw.line(path.slice(2)),
    problems: context.problems,
  };
  const overrides = readOverrides(raw.fields['overrides'], scope);
  checkRenames(overrides, (kind, name) => ['servers', raw.key, 'overrides', kind, name], scope);
  return overrides;
};

/** One entry, checked in the order its problems are reported; undefined when it has any. */
const buildBackend = (raw: RawServer, context: BuildContext, id: string): BackendConfig | undefined => {
  const start = context.problems.length;
  const entry = openEntry(raw, context, id);
  const command = readText(entry, 'command');
  const url = readText(entry, 'url');
  const args = readStrings(entry, 'args');
  const env = readRecord(entry, 'env');
  const headers = readRecord(entry, 'headers');
  const cwd = readText(entry, 'cwd');
  const fullEnv = withEnvFile(entry, env);
  const transport = readTransport(entry, readText(entry, 'transport'));
  checkUrl(entry, url);
  const prefix = readPrefix(entry);
  const inheritEnv = readInheritEnv(entry);
  const protocol = readProtocol(entry, transport);
  const timeoutMs = readMilliseconds(entry, 'timeout');
  const toolTimeoutMs = readMilliseconds(entry, 'tool_timeout');
  const maxDefinitions = readDefinitionCap(entry);
  const tools = readFilter(entry, 'tools');
  const prompts = readFilter(entry, 'prompts');
  const resources = readFilter(entry, 'resources');
  const oauth = readOAuth({ fields: raw.fields, transport, headers, problem: entry.problem, substitute: entry.substitute });
  const overrides = readServerOverrides(entry);
  const pinning = readPinning(entry);
  if (context.problems.length > start) return undefined;
  return {
    id,
    ...(id === raw.key ? {} : { sourceId: raw.key }),
    transport,
    ...(command === undefined ? {} : { command }),
    args,
    env: fullEnv,
    inheritEnv,
    protocol,
    ...(cwd === undefined ? {} : { cwd: resolve(context.base, cwd) }),
    ...(url === undefined ? {} : { url }),
    headers,
    ...(oauth === undefined ? {} : { oauth }),
    enabled: entry.enabled,
    prefix,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(toolTimeoutMs === undefined ? {} : { toolTimeoutMs }),
    ...(maxDefinitions === undefined ? {} : { maxDefinitions }),
    tools,
    prompts,
    resources,
    overrides,
    pinning,
  };
};

/** The id an entry's key becomes: as written in gateway.toml, normalised from JSON; undefined (with a problem) when unusable. */
const serverId = (raw: RawServer, context: BuildContext): string | undefined => {
  if (SERVER_ID.test(raw.key)) return raw.key;
  const suggestion = normaliseServerId(raw.key);
  if (context.format !== 'toml' && suggestion !== '') return suggestion;
  context.problems.push({
    line: raw.line(),
    message: `server id ${JSON.stringify(raw.key)} cannot be used as a name prefix: ${suggestion === '' ? 'rename it' : `rename it to "${suggestion}"`} (letters, digits, "_", "." and "-", starting with a letter or digit)`,
  });
  return undefined;
};

/** Every entry, in file order, with distinct ids and prefixes; problems go to `context.problems`. */
export const buildServers = (raws: readonly RawServer[], context: BuildContext): BackendConfig[] => {
  const { problems } = context;
  const servers: BackendConfig[] = [];
  const ids = new Map<string, string>();
  for (const raw of raws) {
    if (raw.malformed === true) {
      problems.push({ line: raw.line(), message: `server "${raw.key}" must be an object with "command" or "url"` });
      continue;
    }
    const id = serverId(raw, context);
    if (id === undefined) continue;
    const clash = ids.get(id);
    if (clash !== undefined) {
      problems.push({ line: raw.line(), message: `servers "${clash}" and "${raw.key}" both become the id "${id}": rename one` });
      continue;
    }
    ids.set(id, raw.key);
    const backend = buildBackend(raw, context, id);
    if (backend !== undefined) servers.push(backend);
  }
  const lineOf = (id: string): number => raws.find((raw) => raw.key === (ids.get(id) ?? id))?.line(['prefix']) ?? 0;
  checkPrefixes(servers, lineOf, problems);
  return servers;
};

/** Servers sharing a prefix (or a resource URI scheme) would shadow each other's names. */
const checkPrefixes = (servers: readonly BackendConfig[], at: (id: string) => number, problems: Problem[]): void => {
  const byPrefix = new Map<string, string>();
  const byScheme = new Map<string, string>();
  for (const server of servers) {
    if (!server.enabled || server.prefix === false) continue;
    const other = byPrefix.get(server.prefix);
    if (other !== undefined) {
      problems.push({
        line: at(server.id),
        message: `servers "${other}" and "${server.id}" both use the prefix "${server.prefix}": give one another prefix (prefix = "…")`,
      });
      continue;
    }
    byPrefix.set(server.prefix, server.id);
    const scheme = uriScheme(server.prefix);
    const clash = byScheme.get(scheme);
    if (clash !== undefined) {
      problems.push({
        line: at(server.id),
        message: `servers "${clash}" and "${server.id}" have prefixes that give both the resource URI scheme "${scheme}": give one another prefix (prefix = "…")`,
      });
    } else byScheme.set(scheme, server.id);
  }
};
