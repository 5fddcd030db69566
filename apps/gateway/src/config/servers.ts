import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closestNames, formatList } from '@promptyard/core';
import { NAME_CHARACTERS, PROTOCOL_CHOICES, uriScheme } from '@promptyard/router';
import type { BackendConfig, BackendTransport, NameFilter, ProtocolChoice } from '@promptyard/router';
import { readOAuth } from './oauth.js';
import type { FILTER_KINDS } from './values.js';
import { MAX_TIMEOUT_MS, isTable } from './values.js';
import { substituteVariables } from './substitute.js';
import type { SubstitutionContext } from './substitute.js';

/** Turns one server entry, from any format, into a checked {@link BackendConfig}, collecting problems. */

/** `Brave Search` → `Brave-Search`: what a JSON key becomes, and what a bad TOML id should be. */
export const normaliseServerId = (key: string): string =>
  key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');

export interface Problem {
  readonly line: number;
  readonly message: string;
}

/** One server entry as read from any format, with keys named as in gateway.toml. */
export interface RawServer {
  readonly key: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** How a gateway.toml key is written in the source (`transport` is `type` in JSON). */
  readonly label: (key: string) => string;
  /** The line of a key path inside the entry (`["env", "TOKEN"]`), else of the entry; 0 if unknown. */
  readonly line: (path?: readonly string[]) => number;
  /** The entry is not a table / object at all. */
  readonly malformed?: boolean;
}

export interface BuildContext {
  readonly format: 'toml' | 'claude' | 'vscode';
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly base: string;
  readonly builtins?: Readonly<Record<string, string>>;
  readonly problems: Problem[];
}

const TRANSPORT_ALIASES: Readonly<Record<string, BackendTransport>> = {
  stdio: 'stdio',
  'streamable-http': 'streamable-http',
  http: 'streamable-http',
  streamableHttp: 'streamable-http',
  streamable_http: 'streamable-http',
  sse: 'sse',
};

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

export const buildBackend = (raw: RawServer, context: BuildContext, id: string): BackendConfig | undefined => {
  const { fields, label } = raw;
  const start = context.problems.length;
  const problem = (path: readonly string[], message: string): void => {
    context.problems.push({ line: raw.line(path), message: `server "${raw.key}": ${message}` });
  };

  const enabledValue = fields['enabled'];
  if (enabledValue !== undefined && typeof enabledValue !== 'boolean') problem(['enabled'], `${label('enabled')} must be true or false`);
  const enabled = typeof enabledValue === 'boolean' ? enabledValue : true;
  const substitution: SubstitutionContext = {
    env: context.env,
    lenient: !enabled,
    ...(context.builtins ? { builtins: context.builtins } : {}),
  };
  const substitute = (path: readonly string[], value: string): string => {
    const result = substituteVariables(value, substitution);
    const [key = '', index] = path;
    const where = index === undefined ? label(key) : key === 'args' ? `${label(key)}[${index}]` : `${label(key)}.${index}`;
    for (const message of result.problems) problem(path, `${where} ${message}`);
    return result.value;
  };

  const text = (key: string): string | undefined => {
    const value = fields[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      problem([key], `${label(key)} must be a string, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return substitute([key], value);
  };
  const strings = (key: string): string[] => {
    const value = fields[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      problem([key], `${label(key)} must be a list of strings (quote numbers), got ${JSON.stringify(value)}`);
      return [];
    }
    return value.map((item: string, index) => substitute([key, String(index)], item));
  };
  const record = (key: string): Record<string, string> => {
    const value = fields[key];
    if (value === undefined) return {};
    if (!isTable(value)) {
      problem([key], `${label(key)} must be a table of names to strings, got ${JSON.stringify(value)}`);
      return {};
    }
    const result: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== 'string') problem([key, name], `${label(key)}.${name} must be a string (quote it), got ${JSON.stringify(item)}`);
      else result[name] = substitute([key, name], item);
    }
    return result;
  };
  const milliseconds = (key: string): number | undefined => {
    const value = typeof fields[key] === 'bigint' ? Number(fields[key]) : fields[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
      problem([key], `${label(key)} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return value;
  };
  const filter = (kind: (typeof FILTER_KINDS)[number]): NameFilter => {
    const value = fields[kind];
    if (value === undefined) return { allow: [], deny: [] };
    if (!isTable(value)) {
      problem([kind], `${kind} must be a table with allow and deny lists ([servers.${id}.${kind}])`);
      return { allow: [], deny: [] };
    }
    for (const key of Object.keys(value)) {
      if (key !== 'allow' && key !== 'deny') {
        const hints = closestNames(key, ['allow', 'deny']);
        problem(
          [kind, key],
          `unknown key "${key}" in ${kind}${hints.length > 0 ? ` (did you mean "${hints[0] as string}"?)` : ''}; allowed keys: allow, deny`,
        );
      }
    }
    const globs = (key: 'allow' | 'deny'): string[] => {
      const list = value[key];
      if (list === undefined) return [];
      if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== '')) {
        problem(
          [kind, key],
          `${kind}.${key} must be a list of non-empty name globs such as ["create_*", "list_?"], got ${JSON.stringify(list)}`,
        );
        return [];
      }
      return list as string[];
    };
    return { allow: globs('allow'), deny: globs('deny') };
  };

  const command = text('command');
  const url = text('url');
  const args = strings('args');
  let env = record('env');
  const headers = record('headers');
  const cwd = text('cwd');

  const envFile = context.format === 'vscode' ? text('envFile') : undefined;
  if (envFile !== undefined) {
    const path = resolve(context.base, envFile);
    try {
      env = { ...parseDotenv(readFileSync(path, 'utf8')), ...env };
    } catch (error) {
      problem(
        ['envFile'],
        `envFile ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): create it, or move the variables into env`,
      );
    }
  }

  const transportName = text('transport');
  let declared: BackendTransport | undefined;
  if (transportName !== undefined) {
    declared = TRANSPORT_ALIASES[transportName];
    if (declared === undefined) {
      problem(
        ['transport'],
        `${label('transport')} must be ${formatList(['stdio', 'streamable-http', 'sse'])} ("http" also means streamable-http), got ${JSON.stringify(transportName)}`,
      );
    }
  }
  let transport: BackendTransport = declared ?? 'streamable-http';
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
    transport = 'stdio';
  } else if (declared === 'stdio') {
    problem(
      ['transport'],
      `${label('transport')} "stdio" needs a command, but the server has a url: drop ${label('transport')} or replace url with command`,
    );
  }
  if (url !== undefined && enabled) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      problem(['url'], `${label('url')} must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
    }
  }

  let prefix: string | false = id;
  const prefixValue = fields['prefix'];
  if (prefixValue === false) prefix = false;
  else if (typeof prefixValue === 'string') {
    if (NAME_CHARACTERS.test(prefixValue)) prefix = prefixValue;
    else
      problem(
        ['prefix'],
        `prefix ${JSON.stringify(prefixValue)} must be letters, digits, "_", "-" or "." (or true for the id, false for none)`,
      );
  } else if (prefixValue !== undefined && prefixValue !== true) {
    problem(['prefix'], `prefix must be true (the id), false (no prefix) or a string, got ${JSON.stringify(prefixValue)}`);
  }

  const inheritValue = fields['inherit_env'];
  if (inheritValue !== undefined && typeof inheritValue !== 'boolean') {
    problem(
      ['inherit_env'],
      `${label('inherit_env')} must be true (the gateway's environment without PROMPTYARD_* variables, plus env) or false (only PATH, HOME and the like, plus env), got ${JSON.stringify(inheritValue)}`,
    );
  }
  const inheritEnv = typeof inheritValue === 'boolean' ? inheritValue : true;

  const protocolValue = fields['protocol'];
  let protocol: ProtocolChoice = 'auto';
  if (protocolValue !== undefined) {
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
    } else protocol = choice;
  }

  const timeoutMs = milliseconds('timeout');
  const toolTimeoutMs = milliseconds('tool_timeout');
  const tools = filter('tools');
  const prompts = filter('prompts');
  const resources = filter('resources');
  const oauth = readOAuth({ fields, transport, headers, problem, substitute });
  if (context.problems.length > start) return undefined;
  return {
    id,
    ...(id === raw.key ? {} : { sourceId: raw.key }),
    transport,
    ...(command === undefined ? {} : { command }),
    args,
    env,
    inheritEnv,
    protocol,
    ...(cwd === undefined ? {} : { cwd: resolve(context.base, cwd) }),
    ...(url === undefined ? {} : { url }),
    headers,
    ...(oauth === undefined ? {} : { oauth }),
    enabled,
    prefix,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(toolTimeoutMs === undefined ? {} : { toolTimeoutMs }),
    tools,
    prompts,
    resources,
  };
};

/** Servers sharing a prefix (or a resource URI scheme) would shadow each other's names. */
export const checkPrefixes = (servers: readonly BackendConfig[], at: (id: string) => number, problems: Problem[]): void => {
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
