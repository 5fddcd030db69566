/**
 * The gateway's config file: gateway.toml, or the JSON a client already has (Claude Desktop, Cursor,
 * Claude Code `mcpServers`, VS Code `mcp.json`), with `${VAR}` substitution and `PROMPTYARD_*`
 * overrides, checked into a {@link GatewayConfig} with every problem named by file and line. The
 * sources read entries (`sources.ts`, `jsonc.ts`), the servers' entries become the router's
 * `BackendConfig`s (`servers.ts`, `oauth.ts`, `substitute.ts`); the router sees only {@link routerConfigOf}.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import {
  PromptyardError,
  clusterSection,
  isPromptyardError,
  locateKey,
  logLevels,
  resolveConfig,
  telemetrySection,
} from '@promptyard/core';
import { authSection, checkAuthSection, checkPolicies, policySection } from '@promptyard/auth';
import type { AuthSettings, PolicyRule } from '@promptyard/auth';
import { transportSection } from '@promptyard/mcp';
import type { ConfigOf, ConfigSchema } from '@promptyard/core';
import { NAME_CHARACTERS, OAUTH_GRANTS, PROTOCOL_CHOICES } from '@promptyard/router';
import type { BackendConfig, RouterConfig } from '@promptyard/router';
import { buildBackend, checkPrefixes, normaliseServerId } from './servers.js';
import type { BuildContext, Problem } from './servers.js';
import { detectFormat, readJson, readToml } from './sources.js';
import { FILTER_KINDS, MAX_TIMEOUT_MS } from './values.js';

type GatewayLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';
type GatewayConfigFormat = 'toml' | 'claude' | 'vscode';

interface GatewayTransportConfig {
  type: 'stdio' | 'http';
  host: string;
  port: number;
  path: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  authToken?: string;
  /** The URL clients reach the endpoint at (behind a proxy): the OAuth resource. */
  publicUrl?: string;
  maxBodyBytes: number;
}

/** A gateway config file, parsed: what the router reads ({@link RouterConfig}) and what the app serves with. */
export interface GatewayConfig extends RouterConfig {
  readonly logLevel: GatewayLogLevel;
  readonly transport: GatewayTransportConfig;
  /** `[auth]`: OAuth resource-server mode over HTTP; absent without an issuer. */
  readonly auth?: AuthSettings;
  /** `[[policy]]`: who may use what over HTTP; empty: every caller may use everything. */
  readonly policy: readonly PolicyRule[];
  /** `[telemetry]`: /metrics on the HTTP endpoint, or on a listener of its own; traces to an OTLP/HTTP receiver. */
  readonly telemetry: {
    readonly metrics: boolean;
    readonly metricsBind?: string;
    readonly otlpEndpoint?: string;
    readonly serviceName?: string;
  };
  /** `[cluster]`: the Redis replicas behind one load balancer share; absent: one node, in memory. */
  readonly cluster?: { readonly redisUrl: string; readonly keyPrefix: string };
  readonly file?: string;
  readonly format: GatewayConfigFormat;
}

/** The part of a gateway config the router reads; the servers are the same objects, so a reload can tell which changed. */
export const routerConfigOf = (config: GatewayConfig): RouterConfig => ({
  name: config.name,
  separator: config.separator,
  lazy: config.lazy,
  metaTools: config.metaTools,
  startupWaitMs: config.startupWaitMs,
  timeouts: config.timeouts,
  restart: config.restart,
  servers: config.servers,
});

export interface ParseGatewayConfigOptions {
  /** Where the text came from: names it in messages, decides the format by extension and is the base of relative `cwd`s. */
  readonly file?: string;
  /** For `${VAR}` substitution and `PROMPTYARD_*` overrides; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base of relative paths when there is no file; default `process.cwd()`. */
  readonly cwd?: string;
}

const sectionsSchema = {
  gateway: {
    name: { type: 'string', default: 'promptyard-gateway', doc: 'Server name reported to clients.' },
    separator: {
      type: 'string',
      default: '_',
      doc: 'Between a server prefix and a name (github_create_issue); letters, digits, "_", "-" and "." only.',
    },
    lazy: {
      type: 'boolean',
      default: false,
      doc: 'List only the meta tools in tools/list (clients find, describe and call the rest through them, paying for a schema only when they need it); every tool stays callable by name.',
    },
    meta_tools: { type: 'boolean', default: true, doc: "Serve catalog, describe, search and call tools alongside the backends' tools." },
    log_level: { type: 'string', enum: logLevels, default: 'info', doc: 'Lowest level written to stderr (PROMPTYARD_LOG_LEVEL).' },
    startup_wait_ms: {
      type: 'integer',
      min: 0,
      max: MAX_TIMEOUT_MS,
      default: 5000,
      doc: 'The gateway serves at once and servers join as they become ready; lists asked for this soon after start wait (this long at most) for servers still making their first connection. 0 = never wait.',
    },
  },
  timeouts: {
    connect_ms: {
      type: 'integer',
      min: 1,
      max: MAX_TIMEOUT_MS,
      default: 30_000,
      doc: 'Longest a backend may take to start and initialize.',
    },
    request_ms: {
      type: 'integer',
      min: 1,
      max: MAX_TIMEOUT_MS,
      default: 60_000,
      doc: "Longest a request to a backend may take (a server's `timeout` overrides it).",
    },
    tool_ms: {
      type: 'integer',
      min: 1,
      max: MAX_TIMEOUT_MS,
      default: 300_000,
      doc: "Longest a tools/call may take (a server's `tool_timeout` overrides it).",
    },
  },
  restart: {
    initial_ms: {
      type: 'integer',
      min: 1,
      max: MAX_TIMEOUT_MS,
      default: 500,
      doc: 'First delay before restarting a backend that exited; doubles on each failure.',
    },
    max_ms: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, default: 30_000, doc: 'Longest delay between restarts.' },
    max_restarts: { type: 'integer', min: 0, default: 0, doc: 'Restarts in a row before giving up on a backend (0 = never give up).' },
  },
  transport: transportSection,
  auth: authSection,
  'policy[]': policySection,
  telemetry: telemetrySection,
  cluster: clusterSection,
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
    command: {
      type: 'string',
      doc: 'Program to launch (found on PATH); the server then speaks stdio. ${VAR}, ${env:VAR} and ${VAR:-default} are substituted here and in args, env, cwd, url and headers; $${ is a literal ${.',
    },
    args: { type: 'string[]', default: [], doc: 'Arguments of command.' },
    env: { type: 'record', default: {}, doc: 'Environment variables for command, added to those it inherits (they win).' },
    inherit_env: {
      type: 'boolean',
      default: true,
      doc: "true: command inherits the gateway's environment except PROMPTYARD_* variables (the gateway's own settings and secrets); false: only PATH, HOME, USER, SHELL, TERM, LANG, LC_ALL, LOGNAME, TMPDIR, NODE_OPTIONS and NODE_EXTRA_CA_CERTS. env is added either way.",
    },
    cwd: { type: 'string', doc: "Working folder of command, relative to the config file (default: the gateway's)." },
    url: { type: 'string', doc: 'http(s) URL of a remote server (instead of command).' },
    headers: { type: 'record', default: {}, doc: 'HTTP headers sent to url, e.g. Authorization = "Bearer ${TOKEN}".' },
    transport: {
      type: 'string',
      enum: ['streamable-http', 'sse', 'stdio'],
      doc: 'streamable-http (default with url; "http" also accepted), sse for legacy servers, or stdio (implied by command).',
    },
    enabled: { type: 'boolean', default: true, doc: 'false keeps the server configured but not started.' },
    prefix: {
      type: 'boolean | string',
      default: true,
      doc: 'Name prefix of its tools and prompts: true = the id, false = none (names pass through), or a string.',
    },
    timeout: { type: 'integer', min: 1, doc: 'Request timeout for this server, ms (default [timeouts] request_ms).' },
    tool_timeout: { type: 'integer', min: 1, doc: 'tools/call timeout for this server, ms (default [timeouts] tool_ms).' },
    protocol: {
      type: 'string',
      enum: PROTOCOL_CHOICES,
      default: 'auto',
      doc: 'MCP revision: auto tries 2026-07-28 over streamable-http and falls back to 2025-11-25 (with a warning) when its handshake or listen stream fails, and speaks 2025-11-25 to commands; "2025-11-25" never tries 2026-07-28; "2026-07-28" requires it.',
    },
    auth: {
      type: 'string',
      enum: ['none', 'oauth'],
      default: 'none',
      doc: "oauth: the gateway is an OAuth client of this url server (discovery from its 401, dynamic registration or [servers.<id>.oauth] client_id, tokens stored under the user's config folder and refreshed); see [servers.<id>.oauth].",
    },
  },
  'servers.<id>.tools': filterDocs('tool'),
  'servers.<id>.prompts': filterDocs('prompt'),
  'servers.<id>.resources': filterDocs('resource'),
  'servers.<id>.oauth': {
    grant: {
      type: 'string',
      enum: OAUTH_GRANTS,
      default: 'authorization_code',
      doc: 'authorization_code: a person logs in once with promptyard-gateway login <id>; client_credentials: a machine account (needs client_id and client_secret).',
    },
    client_id: {
      type: 'string',
      doc: "The gateway's client id at the server's authorization server (default: registered dynamically, RFC 7591).",
    },
    client_secret: { type: 'string', doc: 'Its secret, for a confidential client (use ${VAR}).' },
    scopes: { type: 'string[]', default: [], doc: "Scopes to ask for (default: what the server's 401 challenge or metadata names)." },
    redirect_port: {
      type: 'integer',
      min: 1,
      max: 65_535,
      doc: "Loopback port login catches the redirect on, when the client's redirect URI is registered with a fixed port (default: any free port).",
    },
  },
} as const;

type Sections = ConfigOf<typeof sectionsSchema>;

const SERVER_KEYS: readonly string[] = [...Object.keys(gatewayConfigSchema['servers.<id>']), ...FILTER_KINDS, 'oauth'];
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Short environment names, as promptyard-server has them. */
const envAliases: Readonly<Record<string, string>> = {
  PROMPTYARD_TRANSPORT: 'PROMPTYARD_TRANSPORT_TYPE',
  PROMPTYARD_HOST: 'PROMPTYARD_TRANSPORT_HOST',
  PROMPTYARD_PORT: 'PROMPTYARD_TRANSPORT_PORT',
  PROMPTYARD_AUTH_TOKEN: 'PROMPTYARD_TRANSPORT_AUTH_TOKEN',
  PROMPTYARD_LOG_LEVEL: 'PROMPTYARD_GATEWAY_LOG_LEVEL',
};

/** Core reports its own problems as one error; take its lines so all problems are reported together. */
const resolveSections = (
  document: Record<string, unknown>,
  file: string,
  source: string,
  env: Readonly<Record<string, string | undefined>>,
  lines: string[],
): Sections | undefined => {
  const aliased: Record<string, string | undefined> = { ...env };
  for (const [alias, canonical] of Object.entries(envAliases)) {
    if (aliased[alias] !== undefined && aliased[canonical] === undefined) aliased[canonical] = aliased[alias];
  }
  try {
    return resolveConfig(sectionsSchema, document, { file, source, env: aliased });
  } catch (error) {
    if (!isPromptyardError(error) || error.code !== 'CONFIG_INVALID') throw error;
    lines.push(
      ...error.message
        .split('\n')
        .slice(1)
        .map((line) => line.trim()),
    );
    return undefined;
  }
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
  const source =
    detectFormat(text, options.file) === 'json'
      ? readJson(text, label)
      : readToml(text, label, problems, {
          sections: Object.keys(sectionsSchema).map((section) => section.replace(/\[\]$/, '')),
          serverKeys: SERVER_KEYS,
        });

  const sectionLines: string[] = [];
  const sections = resolveSections(source.document, label, source.format === 'toml' ? text : '', env, sectionLines);

  // VS Code resolves ${workspaceFolder} to the folder holding .vscode.
  const workspace =
    absoluteFile !== undefined && basename(dirname(absoluteFile)) === '.vscode' ? dirname(dirname(absoluteFile)) : (options.cwd ?? base);
  const builtins =
    source.format === 'vscode' ? { workspaceFolder: workspace, userHome: env['HOME'] ?? env['USERPROFILE'] ?? homedir() } : undefined;
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
      problems.push({
        line: locateKey(text, 'gateway', 'separator'),
        message: `[gateway] separator ${JSON.stringify(separator)} must be letters, digits, "_", "-" or "." (tool names allow no others)`,
      });
    }
    if (sections.restart.initial_ms > sections.restart.max_ms) {
      problems.push({
        line: locateKey(text, 'restart', 'initial_ms'),
        message: `[restart] initial_ms (${sections.restart.initial_ms}) must not exceed max_ms (${sections.restart.max_ms})`,
      });
    }
    if (!sections.transport.path.startsWith('/')) {
      problems.push({
        line: locateKey(text, 'transport', 'path'),
        message: `[transport] path must start with "/", got ${JSON.stringify(sections.transport.path)}`,
      });
    }
  }
  const auth = sections === undefined ? undefined : checkAuthSection(sections.auth);
  for (const message of auth?.problems ?? []) problems.push({ line: locateKey(text, 'auth'), message });
  const policy = sections === undefined ? undefined : checkPolicies(sections['policy[]'], { gateway: true });
  for (const message of policy?.problems ?? []) problems.push({ line: locateKey(text, 'policy'), message });
  if (problems.length > 0 || sectionLines.length > 0 || sections === undefined) {
    const lines = [
      ...sectionLines,
      ...problems.map((problem) => `${problem.line > 0 ? `${label}:${problem.line}` : label}: ${problem.message}`),
    ];
    throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${lines.join('\n  ')}`);
  }

  const { gateway, timeouts, restart, transport, telemetry, cluster } = sections;
  return {
    name: gateway.name,
    separator: gateway.separator,
    lazy: gateway.lazy,
    metaTools: gateway.meta_tools,
    logLevel: gateway.log_level,
    startupWaitMs: gateway.startup_wait_ms,
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
      ...(transport.public_url === undefined ? {} : { publicUrl: transport.public_url }),
      maxBodyBytes: transport.max_body_bytes,
    },
    ...(auth?.settings === undefined ? {} : { auth: auth.settings }),
    policy: policy?.rules ?? [],
    telemetry: {
      metrics: telemetry.metrics,
      ...(telemetry.metrics_bind === undefined ? {} : { metricsBind: telemetry.metrics_bind }),
      ...(telemetry.otlp_endpoint === undefined ? {} : { otlpEndpoint: telemetry.otlp_endpoint }),
      ...(telemetry.service_name === undefined ? {} : { serviceName: telemetry.service_name }),
    },
    ...(cluster.redis_url === undefined ? {} : { cluster: { redisUrl: cluster.redis_url, keyPrefix: cluster.key_prefix } }),
    servers,
    ...(options.file === undefined ? {} : { file: options.file }),
    format: source.format,
  };
};

/** Reads and parses a gateway config file; see {@link parseGatewayConfig}. */
export const loadGatewayConfig = async (
  file: string,
  options: { env?: Record<string, string | undefined> } = {},
): Promise<GatewayConfig> => {
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
