import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, extname, resolve } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { PromptyardError, closestNames, formatList, isPromptyardError, locateKey, logLevels, resolveConfig } from '@promptyard/core';
import type { ConfigOf, ConfigSchema } from '@promptyard/core';
import { jsonErrorLine, locateJsonPath, stripJsonComments } from './jsonc.js';
import { NAME_CHARACTERS, uriScheme } from './names.js';
import { substituteVariables } from './substitute.js';
import type { SubstitutionContext } from './substitute.js';

export type BackendTransport = 'stdio' | 'streamable-http' | 'sse';

/** Globs over a backend's own names (before prefixing): `*` any run, `?` one character; empty allow = all. */
export interface NameFilter {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

export interface BackendConfig {
  /** The key in `[servers.<id>]` / `mcpServers` (JSON keys are normalised: `Brave Search` → `Brave-Search`). */
  readonly id: string;
  /** The key as written, when normalising changed it. */
  readonly sourceId?: string;
  /** stdio when `command` is given; else `transport`, by default streamable-http. */
  readonly transport: BackendTransport;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absolute (relative paths resolve against the config file's folder). */
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  /** `prefix = true` or absent → the id; `false` → names pass through; a string → that prefix. */
  readonly prefix: string | false;
  /** Per-server request timeout (`timeout`, ms). */
  readonly timeoutMs?: number;
  /** Per-server tools/call timeout (`tool_timeout`, ms). */
  readonly toolTimeoutMs?: number;
  readonly tools: NameFilter;
  readonly prompts: NameFilter;
  readonly resources: NameFilter;
}

export type GatewayLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';
export type GatewayConfigFormat = 'toml' | 'claude' | 'vscode';

export interface GatewayTransportConfig {
  type: 'stdio' | 'http';
  host: string;
  port: number;
  path: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  authToken?: string;
  maxBodyBytes: number;
}

export interface GatewayConfig {
  readonly name: string;
  readonly separator: string;
  readonly lazy: boolean;
  readonly metaTools: boolean;
  readonly logLevel: GatewayLogLevel;
  readonly timeouts: { readonly connectMs: number; readonly requestMs: number; readonly toolMs: number };
  /** `maxRestarts` 0 = unlimited. */
  readonly restart: { readonly initialMs: number; readonly maxMs: number; readonly maxRestarts: number };
  readonly transport: GatewayTransportConfig;
  /** In file order, disabled ones included. */
  readonly servers: readonly BackendConfig[];
  readonly file?: string;
  readonly format: GatewayConfigFormat;
}

export interface ParseGatewayConfigOptions {
  /** Where the text came from: names it in messages, decides the format by extension and is the base of relative `cwd`s. */
  readonly file?: string;
  /** For `${VAR}` substitution and `PROMPTYARD_*` overrides; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base of relative paths when there is no file; default `process.cwd()`. */
  readonly cwd?: string;
}

/** setTimeout's limit: larger delays fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

const sectionsSchema = {
  gateway: {
    name: { type: 'string', default: 'promptyard-gateway', doc: 'Server name reported to clients.' },
    separator: { type: 'string', default: '_', doc: 'Between a server prefix and a name (github_create_issue); letters, digits, "_", "-" and "." only.' },
    lazy: { type: 'boolean', default: false, doc: 'Start each backend on its first use instead of at start-up.' },
    meta_tools: { type: 'boolean', default: true, doc: 'Serve catalog, describe, search and call tools alongside the backends\' tools.' },
    log_level: { type: 'string', enum: logLevels, default: 'info', doc: 'Lowest level written to stderr (PROMPTYARD_LOG_LEVEL).' },
  },
  timeouts: {
    connect_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 30_000, doc: 'Longest a backend may take to start and initialize.' },
    request_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 60_000, doc: 'Longest a request to a backend may take (a server\'s `timeout` overrides it).' },
    tool_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 300_000, doc: 'Longest a tools/call may take (a server\'s `tool_timeout` overrides it).' },
  },
  restart: {
    initial_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 500, doc: 'First delay before restarting a backend that exited; doubles on each failure.' },
    max_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 30_000, doc: 'Longest delay between restarts.' },
    max_restarts: { type: 'integer', min: 0, default: 0, doc: 'Restarts in a row before giving up on a backend (0 = never give up).' },
  },
  transport: {
    type: { type: 'string', enum: ['stdio', 'http'], default: 'stdio', doc: 'stdio for clients that launch the gateway; http to serve many (PROMPTYARD_TRANSPORT).' },
    host: { type: 'string', default: '127.0.0.1', doc: 'HTTP bind address (PROMPTYARD_HOST).' },
    port: { type: 'integer', min: 0, max: 65535, default: 3000, doc: 'HTTP port, 0 picks a free one (PROMPTYARD_PORT).' },
    path: { type: 'string', default: '/mcp', doc: 'HTTP path of the MCP endpoint.' },
    allowed_hosts: { type: 'string[]', doc: 'Host header names accepted (default: loopback names on a loopback bind, else the bind host).' },
    allowed_origins: { type: 'string[]', doc: 'Origin host names accepted from browsers (default: loopback names).' },
    auth_token: { type: 'string', doc: 'Require "Authorization: Bearer <token>" (prefer PROMPTYARD_AUTH_TOKEN).' },
    max_body_bytes: { type: 'integer', min: 1024, default: 1_048_576, doc: 'Largest accepted HTTP request body.' },
  },
} as const satisfies ConfigSchema;

const filterDocs = (what: string) =>
  ({
    allow: { type: 'string[]', default: [], doc: `Globs (* and ?) of the server's own ${what} names to serve; empty serves all.` },
    deny: { type: 'string[]', default: [], doc: `Globs of ${what} names to hide, applied after allow.` },
  }) as const;

/**
 * Every key of `gateway.toml`: section → key → { type, default?, doc }. The sections without `<id>`
 * are also the schema core's `resolveConfig` checks; the README's reference mirrors this object.
 */
export const gatewayConfigSchema = {
  ...sectionsSchema,
  'servers.<id>': {
    command: { type: 'string', doc: 'Program to launch (found on PATH); the server then speaks stdio. ${VAR}, ${env:VAR} and ${VAR:-default} are substituted here and in args, env, cwd, url and headers; $${ is a literal ${.' },
    args: { type: 'string[]', default: [], doc: 'Arguments of command.' },
    env: { type: 'record', default: {}, doc: 'Environment variables for command, added to the gateway\'s.' },
    cwd: { type: 'string', doc: 'Working folder of command, relative to the config file (default: the gateway\'s).' },
    url: { type: 'string', doc: 'http(s) URL of a remote server (instead of command).' },
    headers: { type: 'record', default: {}, doc: 'HTTP headers sent to url, e.g. Authorization = "Bearer ${TOKEN}".' },
    transport: { type: 'string', enum: ['streamable-http', 'sse', 'stdio'], doc: 'streamable-http (default with url; "http" also accepted), sse for legacy servers, or stdio (implied by command).' },
    enabled: { type: 'boolean', default: true, doc: 'false keeps the server configured but not started.' },
    prefix: { type: 'boolean | string', default: true, doc: 'Name prefix of its tools and prompts: true = the id, false = none (names pass through), or a string.' },
    timeout: { type: 'integer', min: 1, doc: 'Request timeout for this server, ms (default [timeouts] request_ms).' },
    tool_timeout: { type: 'integer', min: 1, doc: 'tools/call timeout for this server, ms (default [timeouts] tool_ms).' },
  },
  'servers.<id>.tools': filterDocs('tool'),
  'servers.<id>.prompts': filterDocs('prompt'),
  'servers.<id>.resources': filterDocs('resource'),
} as const;

type Sections = ConfigOf<typeof sectionsSchema>;

const FILTER_KINDS = ['tools', 'prompts', 'resources'] as const;
const SERVER_KEYS: readonly string[] = [...Object.keys(gatewayConfigSchema['servers.<id>']), ...FILTER_KINDS];
/** Keys people bring from other formats, and what they mean here. */
const SERVER_KEY_HINTS: Readonly<Record<string, string>> = { type: 'transport', disabled: 'enabled', timeout_ms: 'timeout', envFile: 'env' };
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Short environment names, as promptyard-server has them. */
const envAliases: Readonly<Record<string, string>> = {
  PROMPTYARD_TRANSPORT: 'PROMPTYARD_TRANSPORT_TYPE',
  PROMPTYARD_HOST: 'PROMPTYARD_TRANSPORT_HOST',
  PROMPTYARD_PORT: 'PROMPTYARD_TRANSPORT_PORT',
  PROMPTYARD_AUTH_TOKEN: 'PROMPTYARD_TRANSPORT_AUTH_TOKEN',
  PROMPTYARD_LOG_LEVEL: 'PROMPTYARD_GATEWAY_LOG_LEVEL',
};

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** `Brave Search` → `Brave-Search`: what a JSON key becomes, and what a bad TOML id should be. */
export const normaliseServerId = (key: string): string =>
  key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');

/** `*` any run, `?` one character, anchored; everything else literal. */
const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's');

/** A name passes when some allow glob matches (or allow is empty) and no deny glob does. */
export const compileNameFilter = (filter: NameFilter): ((name: string) => boolean) => {
  const allow = filter.allow.map(globToRegExp);
  const deny = filter.deny.map(globToRegExp);
  if (allow.length === 0 && deny.length === 0) return () => true;
  return (name) => (allow.length === 0 || allow.some((glob) => glob.test(name))) && !deny.some((glob) => glob.test(name));
};

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    isTable(item) ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]])) : item,
  );

/** Stable JSON of everything that needs the backend restarted when it changes (how it is launched or reached). */
export const backendFingerprint = (backend: BackendConfig): string =>
  stableJson({
    transport: backend.transport,
    command: backend.command ?? null,
    args: backend.args,
    env: backend.env,
    cwd: backend.cwd ?? null,
    url: backend.url ?? null,
    headers: backend.headers,
  });

/** What can change on a running backend: naming, filters and timeouts. */
const settingsFingerprint = (backend: BackendConfig): string =>
  stableJson({
    prefix: backend.prefix,
    timeoutMs: backend.timeoutMs ?? null,
    toolTimeoutMs: backend.toolTimeoutMs ?? null,
    tools: backend.tools,
    prompts: backend.prompts,
    resources: backend.resources,
  });

export interface BackendDiff {
  /** Enabled now, absent or disabled before: start them. */
  added: BackendConfig[];
  /** Enabled before, absent or disabled now (the previous configs): stop them. */
  removed: BackendConfig[];
  /** Enabled in both with a different {@link backendFingerprint} (the new configs): restart them. */
  changed: BackendConfig[];
  /** Enabled in both with the same fingerprint (the new configs): keep them running. */
  unchanged: BackendConfig[];
  /** The part of `unchanged` whose prefix, filters or timeouts changed: re-list and re-map them. */
  reconfigured: BackendConfig[];
}

/** Compares two server lists by id. Disabled servers count as absent. Order follows `next`, then `previous`. */
export const diffBackends = (previous: readonly BackendConfig[], next: readonly BackendConfig[]): BackendDiff => {
  const before = new Map(previous.filter((backend) => backend.enabled).map((backend) => [backend.id, backend]));
  const diff: BackendDiff = { added: [], removed: [], changed: [], unchanged: [], reconfigured: [] };
  const seen = new Set<string>();
  for (const backend of next) {
    if (!backend.enabled) continue;
    seen.add(backend.id);
    const old = before.get(backend.id);
    if (old === undefined) diff.added.push(backend);
    else if (backendFingerprint(old) !== backendFingerprint(backend)) diff.changed.push(backend);
    else {
      diff.unchanged.push(backend);
      if (settingsFingerprint(old) !== settingsFingerprint(backend)) diff.reconfigured.push(backend);
    }
  }
  for (const backend of before.values()) if (!seen.has(backend.id)) diff.removed.push(backend);
  return diff;
};

interface Problem {
  readonly line: number;
  readonly message: string;
}

/** One server entry as read from any format, with keys named as in gateway.toml. */
interface RawServer {
  readonly key: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** How a gateway.toml key is written in the source (`transport` is `type` in JSON). */
  readonly label: (key: string) => string;
  /** The line of a key path inside the entry (`["env", "TOKEN"]`), else of the entry; 0 if unknown. */
  readonly line: (path?: readonly string[]) => number;
  /** The entry is not a table / object at all. */
  readonly malformed?: boolean;
}

interface BuildContext {
  readonly format: GatewayConfigFormat;
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

const buildBackend = (raw: RawServer, context: BuildContext, id: string): BackendConfig | undefined => {
  const { fields, label } = raw;
  const start = context.problems.length;
  const problem = (path: readonly string[], message: string): void => {
    context.problems.push({ line: raw.line(path), message: `server "${raw.key}": ${message}` });
  };

  const enabledValue = fields['enabled'];
  if (enabledValue !== undefined && typeof enabledValue !== 'boolean') problem(['enabled'], `${label('enabled')} must be true or false`);
  const enabled = typeof enabledValue === 'boolean' ? enabledValue : true;
  const substitution: SubstitutionContext = { env: context.env, lenient: !enabled, ...(context.builtins ? { builtins: context.builtins } : {}) };
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
        problem([kind, key], `unknown key "${key}" in ${kind}${hints.length > 0 ? ` (did you mean "${hints[0] as string}"?)` : ''}; allowed keys: allow, deny`);
      }
    }
    const globs = (key: 'allow' | 'deny'): string[] => {
      const list = value[key];
      if (list === undefined) return [];
      if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item !== '')) {
        problem([kind, key], `${kind}.${key} must be a list of non-empty name globs such as ["create_*", "list_?"], got ${JSON.stringify(list)}`);
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
      problem(['envFile'], `envFile ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): create it, or move the variables into env`);
    }
  }

  const transportName = text('transport');
  let declared: BackendTransport | undefined;
  if (transportName !== undefined) {
    declared = TRANSPORT_ALIASES[transportName];
    if (declared === undefined) {
      problem(['transport'], `${label('transport')} must be ${formatList(['stdio', 'streamable-http', 'sse'])} ("http" also means streamable-http), got ${JSON.stringify(transportName)}`);
    }
  }
  let transport: BackendTransport = declared ?? 'streamable-http';
  const hasCommand = fields['command'] !== undefined;
  const hasUrl = fields['url'] !== undefined;
  if (hasCommand && hasUrl) {
    problem(['url'], `has both ${label('command')} and ${label('url')}: keep command to launch a local server (stdio), or url to connect to a remote one`);
  } else if (!hasCommand && !hasUrl) {
    problem([], `has neither ${label('command')} nor ${label('url')}: set command (and args) to launch a local server, or url to connect to a remote one`);
  } else if (hasCommand) {
    if (declared !== undefined && declared !== 'stdio') {
      problem(['transport'], `${label('transport')} "${transportName ?? ''}" needs a url, but the server has a command: drop ${label('transport')} (a command speaks stdio) or replace command with url`);
    }
    transport = 'stdio';
  } else if (declared === 'stdio') {
    problem(['transport'], `${label('transport')} "stdio" needs a command, but the server has a url: drop ${label('transport')} or replace url with command`);
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
    else problem(['prefix'], `prefix ${JSON.stringify(prefixValue)} must be letters, digits, "_", "-" or "." (or true for the id, false for none)`);
  } else if (prefixValue !== undefined && prefixValue !== true) {
    problem(['prefix'], `prefix must be true (the id), false (no prefix) or a string, got ${JSON.stringify(prefixValue)}`);
  }

  const timeoutMs = milliseconds('timeout');
  const toolTimeoutMs = milliseconds('tool_timeout');
  const tools = filter('tools');
  const prompts = filter('prompts');
  const resources = filter('resources');
  if (context.problems.length > start) return undefined;
  return {
    id,
    ...(id === raw.key ? {} : { sourceId: raw.key }),
    transport,
    ...(command === undefined ? {} : { command }),
    args,
    env,
    ...(cwd === undefined ? {} : { cwd: resolve(context.base, cwd) }),
    ...(url === undefined ? {} : { url }),
    headers,
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
const checkPrefixes = (servers: readonly BackendConfig[], at: (id: string) => number, problems: Problem[]): void => {
  const byPrefix = new Map<string, string>();
  const byScheme = new Map<string, string>();
  for (const server of servers) {
    if (!server.enabled || server.prefix === false) continue;
    const other = byPrefix.get(server.prefix);
    if (other !== undefined) {
      problems.push({ line: at(server.id), message: `servers "${other}" and "${server.id}" both use the prefix "${server.prefix}": give one another prefix (prefix = "…")` });
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

/** Core reports its own problems as one error; take its lines so all problems are reported together. */
const resolveSections = (document: Record<string, unknown>, file: string, source: string, env: Readonly<Record<string, string | undefined>>, lines: string[]): Sections | undefined => {
  const aliased: Record<string, string | undefined> = { ...env };
  for (const [alias, canonical] of Object.entries(envAliases)) {
    if (aliased[alias] !== undefined && aliased[canonical] === undefined) aliased[canonical] = aliased[alias];
  }
  try {
    return resolveConfig(sectionsSchema, document, { file, source, env: aliased });
  } catch (error) {
    if (!isPromptyardError(error) || error.code !== 'CONFIG_INVALID') throw error;
    lines.push(...error.message.split('\n').slice(1).map((line) => line.trim()));
    return undefined;
  }
};

const detectFormat = (text: string, file: string | undefined): 'toml' | 'json' => {
  const extension = file === undefined ? '' : extname(file).toLowerCase();
  if (extension === '.json' || extension === '.jsonc') return 'json';
  if (extension === '.toml') return 'toml';
  return text.trimStart().startsWith('{') ? 'json' : 'toml';
};

interface ServerSource {
  readonly format: GatewayConfigFormat;
  readonly document: Record<string, unknown>;
  readonly servers: readonly RawServer[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first `[name]` or `[name.…]` header line; 0 when there is none. */
const tomlSectionLine = (text: string, name: string): number => {
  const header = new RegExp(`^\\s*\\[\\[?\\s*"?${escapeRegExp(name)}"?\\s*[.\\]]`);
  const index = text.split(/\r?\n/).findIndex((line) => header.test(line));
  return index + 1;
};

const readToml = (text: string, file: string, problems: Problem[]): ServerSource => {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${file}:${error.line}:${error.column}: ${error.message.split('\n')[0] ?? error.message}`, { cause: error });
    }
    throw error;
  }
  const { servers: table, ...rest } = document;
  const sections = [...Object.keys(sectionsSchema), 'servers'];
  for (const key of Object.keys(rest)) {
    if (key in sectionsSchema) continue;
    delete rest[key];
    const hints = closestNames(key, sections);
    problems.push({
      line: tomlSectionLine(text, key) || locateKey(text, '', key),
      message: `unknown ${isTable(document[key]) ? `section [${key}]` : `top-level key "${key}"`}${hints.length > 0 ? ` (did you mean [${hints[0] as string}]?)` : ''}; allowed sections: ${sections.map((section) => `[${section}]`).join(', ')}`,
    });
  }
  const servers: RawServer[] = [];
  if (table !== undefined && !isTable(table)) {
    problems.push({ line: locateKey(text, '', 'servers'), message: 'servers must be tables: [servers.<id>] with command or url' });
  } else {
    for (const [key, fields] of Object.entries(table ?? {})) {
      const section = `servers.${key}`;
      const line = (path: readonly string[] = []): number => {
        const [first, ...more] = path;
        if (first !== undefined && more.length > 0) {
          const nested = locateKey(text, `${section}.${first}`, more.join('.')) || locateKey(text, section, path.join('.')) || locateKey(text, `${section}.${first}`);
          if (nested > 0) return nested;
        }
        return (first === undefined ? 0 : locateKey(text, section, first)) || locateKey(text, section) || locateKey(text, 'servers', key);
      };
      if (!isTable(fields)) {
        problems.push({ line: line(), message: `server "${key}" must be a table: [servers.${key}] with command or url` });
        continue;
      }
      for (const name of Object.keys(fields)) {
        if (SERVER_KEYS.includes(name)) continue;
        const hint = SERVER_KEY_HINTS[name] ?? closestNames(name, SERVER_KEYS)[0];
        problems.push({
          line: line([name]),
          message: `server "${key}": unknown key "${name}"${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; allowed keys: ${SERVER_KEYS.join(', ')}`,
        });
      }
      servers.push({ key, fields, label: (name) => name, line });
    }
  }
  return { format: 'toml', document: rest, servers };
};

const readJson = (text: string, file: string): ServerSource => {
  const stripped = stripJsonComments(text);
  let document: unknown;
  try {
    document = JSON.parse(stripped);
  } catch (error) {
    const line = jsonErrorLine(stripped, error as Error);
    throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${line > 0 ? `${file}:${line}` : file}: ${(error as Error).message}`, { cause: error });
  }
  const missing = `expected an object with "mcpServers" (Claude Desktop, Cursor, Claude Code) or "servers" (VS Code mcp.json): add one, or write a gateway.toml`;
  if (!isTable(document)) throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${file}: ${missing}`);
  let format: GatewayConfigFormat;
  let root: string[];
  if (document['mcpServers'] !== undefined) [format, root] = ['claude', ['mcpServers']];
  else if (document['servers'] !== undefined) [format, root] = ['vscode', ['servers']];
  else if (isTable(document['mcp']) && document['mcp']['servers'] !== undefined) [format, root] = ['vscode', ['mcp', 'servers']];
  else throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${file}: ${missing}`);
  let table: unknown = document;
  for (const key of root) table = isTable(table) ? table[key] : undefined;
  if (!isTable(table)) {
    const line = locateJsonPath(text, root);
    throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${line > 0 ? `${file}:${line}` : file}: "${root.join('.')}" must be an object of server names to settings`);
  }
  const servers: RawServer[] = [];
  for (const [key, entry] of Object.entries(table)) {
    const line = (path: readonly string[] = []): number => locateJsonPath(text, [...root, key, ...path]);
    const raw = isTable(entry) ? entry : {};
    const transportKey = raw['type'] !== undefined || raw['transport'] === undefined ? 'type' : 'transport';
    const fields: Record<string, unknown> = {
      command: raw['command'],
      args: raw['args'],
      env: raw['env'],
      cwd: raw['cwd'],
      url: raw['url'],
      headers: raw['headers'],
      transport: raw[transportKey],
      ...(format === 'claude' && raw['disabled'] !== undefined ? { enabled: typeof raw['disabled'] === 'boolean' ? !raw['disabled'] : raw['disabled'] } : {}),
      ...(format === 'vscode' ? { envFile: raw['envFile'] } : {}),
    };
    const names: Readonly<Record<string, string>> = { transport: transportKey, enabled: 'disabled' };
    servers.push({
      key,
      fields,
      ...(isTable(entry) ? {} : { malformed: true }),
      label: (name) => names[name] ?? name,
      line: (path = []) => line(path.map((part) => names[part] ?? part)) || line(),
    });
  }
  return { format, document: {}, servers };
};

/**
 * Parses a gateway configuration: `gateway.toml`, a Claude Desktop / Cursor / Claude Code
 * `mcpServers` file or a VS Code `mcp.json` (JSON with comments). Defaults, then the file, then
 * `PROMPTYARD_*` environment variables for the top-level sections. All problems are reported in one
 * `CONFIG_INVALID` error, each with its file and line.
 */
export const parseGatewayConfig = (text: string, options: ParseGatewayConfigOptions = {}): GatewayConfig => {
  const env = options.env ?? process.env;
  const label = options.file ?? 'config';
  const cwd = options.cwd ?? process.cwd();
  const absoluteFile = options.file === undefined ? undefined : resolve(cwd, options.file);
  const base = absoluteFile === undefined ? cwd : dirname(absoluteFile);
  const problems: Problem[] = [];
  const source = detectFormat(text, options.file) === 'json' ? readJson(text, label) : readToml(text, label, problems);

  const sectionLines: string[] = [];
  const sections = resolveSections(source.document, label, source.format === 'toml' ? text : '', env, sectionLines);

  // VS Code resolves ${workspaceFolder} to the folder holding .vscode.
  const workspace = absoluteFile !== undefined && basename(dirname(absoluteFile)) === '.vscode' ? dirname(dirname(absoluteFile)) : options.cwd ?? base;
  const builtins = source.format === 'vscode' ? { workspaceFolder: workspace, userHome: env['HOME'] ?? env['USERPROFILE'] ?? homedir() } : undefined;
  const context: BuildContext = { format: source.format, env, base, problems, ...(builtins ? { builtins } : {}) };

  const servers: BackendConfig[] = [];
  const ids = new Map<string, string>();
  for (const raw of source.servers) {
    if (raw.malformed === true) {
      problems.push({ line: raw.line(), message: `server "${raw.key}" must be an object with "command" or "url"` });
      continue;
    }
    let id = raw.key;
    if (!ID.test(raw.key)) {
      const suggestion = normaliseServerId(raw.key);
      if (source.format !== 'toml' && suggestion !== '') id = suggestion;
      else {
        problems.push({
          line: raw.line(),
          message: `server id ${JSON.stringify(raw.key)} cannot be used as a name prefix: ${suggestion === '' ? 'rename it' : `rename it to "${suggestion}"`} (letters, digits, "_", "." and "-", starting with a letter or digit)`,
        });
        continue;
      }
    }
    const clash = ids.get(id);
    if (clash !== undefined) {
      problems.push({ line: raw.line(), message: `servers "${clash}" and "${raw.key}" both become the id "${id}": rename one` });
      continue;
    }
    ids.set(id, raw.key);
    const backend = buildBackend(raw, context, id);
    if (backend !== undefined) servers.push(backend);
  }
  const lineOf = (id: string): number => source.servers.find((raw) => raw.key === (ids.get(id) ?? id))?.line(['prefix']) ?? 0;
  checkPrefixes(servers, lineOf, problems);

  if (sections !== undefined) {
    const { separator } = sections.gateway;
    if (!NAME_CHARACTERS.test(separator)) {
      problems.push({ line: locateKey(text, 'gateway', 'separator'), message: `[gateway] separator ${JSON.stringify(separator)} must be letters, digits, "_", "-" or "." (tool names allow no others)` });
    }
    if (sections.restart.initial_ms > sections.restart.max_ms) {
      problems.push({ line: locateKey(text, 'restart', 'initial_ms'), message: `[restart] initial_ms (${sections.restart.initial_ms}) must not exceed max_ms (${sections.restart.max_ms})` });
    }
    if (!sections.transport.path.startsWith('/')) {
      problems.push({ line: locateKey(text, 'transport', 'path'), message: `[transport] path must start with "/", got ${JSON.stringify(sections.transport.path)}` });
    }
  }
  if (problems.length > 0 || sectionLines.length > 0 || sections === undefined) {
    const lines = [...sectionLines, ...problems.map((problem) => `${problem.line > 0 ? `${label}:${problem.line}` : label}: ${problem.message}`)];
    throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${lines.join('\n  ')}`);
  }

  const { gateway, timeouts, restart, transport } = sections;
  return {
    name: gateway.name,
    separator: gateway.separator,
    lazy: gateway.lazy,
    metaTools: gateway.meta_tools,
    logLevel: gateway.log_level,
    timeouts: { connectMs: timeouts.connect_ms, requestMs: timeouts.request_ms, toolMs: timeouts.tool_ms },
    restart: { initialMs: restart.initial_ms, maxMs: restart.max_ms, maxRestarts: restart.max_restarts },
    transport: {
      type: transport.type,
      host: transport.host,
      port: transport.port,
      path: transport.path,
      ...(transport.allowed_hosts === undefined ? {} : { allowedHosts: transport.allowed_hosts }),
      ...(transport.allowed_origins === undefined ? {} : { allowedOrigins: transport.allowed_origins }),
      ...(transport.auth_token === undefined ? {} : { authToken: transport.auth_token }),
      maxBodyBytes: transport.max_body_bytes,
    },
    servers,
    ...(options.file === undefined ? {} : { file: options.file }),
    format: source.format,
  };
};

/** Reads and parses a gateway config file; see {@link parseGatewayConfig}. */
export const loadGatewayConfig = async (file: string, options: { env?: Record<string, string | undefined> } = {}): Promise<GatewayConfig> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PromptyardError(
      'CONFIG_INVALID',
      code === 'ENOENT'
        ? `Config file ${file} does not exist: create it (a gateway.toml with [servers.<id>] tables, or a Claude Desktop / VS Code mcp.json), or pass another path.`
        : `Cannot read config file ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return parseGatewayConfig(text, { file, ...(options.env === undefined ? {} : { env: options.env }) });
};
