/**
 * The gateway's config file: gateway.toml, or the JSON a client already has (Claude Desktop, Cursor,
 * Claude Code `mcpServers`, VS Code `mcp.json`), with `${VAR}` substitution and `PROMPTYARD_*`
 * overrides, checked into a {@link GatewayConfig} with every problem named by file and line. Here:
 * every key (`schema.ts`), reading the formats (`sources.ts`, `jsonc.ts`), one server entry's fields
 * (`server-entry.ts`, `substitute.ts`, `oauth.ts`, `overrides.ts`) and the router's `BackendConfig`s
 * made of them (`servers.ts`), the profiles (`profiles.ts`), glob and line checks (`policy-globs.ts`,
 * `toml-lines.ts`). The router sees only {@link routerConfigOf}.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { PromptyardError, isPromptyardError, locateKey, resolveConfig } from '@promptyard/core';
import { checkAuthSection, checkPolicies } from '@promptyard/auth';
import type { AuthSettings, PolicyRule } from '@promptyard/auth';
import type { LogFormat } from '@promptyard/core';
import { NAME_CHARACTERS } from '@promptyard/router';
import type { BackendConfig, ProfileConfig, RouterConfig } from '@promptyard/router';
import { readConsole } from './console.js';
import type { ConsoleConfig } from './console.js';
import { checkPolicyGlobs } from './policy-globs.js';
import { readProfiles } from './profiles.js';
import { SERVER_KEYS, sectionsSchema } from './schema.js';
import type { Sections } from './schema.js';
import type { BuildContext, Problem } from './server-entry.js';
import { buildServers } from './servers.js';
import { gatewayEnvWarnings, envAliases } from './environment.js';
import { detectFormat, readJson, readToml } from './sources.js';
import { locateTomlPath } from './toml-lines.js';
import type { ServerSource } from './sources.js';

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
  /** `[gateway] log_format`: how stderr logs are written. */
  readonly logFormat: LogFormat;
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
  /** `[audit] file`: where one JSON line per decision goes, absolute, or `-` for stderr; absent: no audit trail. */
  readonly audit?: { readonly file: string };
  /** `[console]` when enabled: the operator console at `/console` on the HTTP endpoint. */
  readonly console?: ConsoleConfig;
  /** `[gateway] pins_file`, absolute; absent: the default file in the user's state folder (without `[cluster]`). */
  readonly pinsFile?: string;
  readonly file?: string;
  readonly format: GatewayConfigFormat;
  /** What the environment holds that the gateway does not read (`PROMPTYARD_*` typos), to be logged at start. */
  readonly warnings?: readonly string[];
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
  limits: config.limits,
  servers: config.servers,
  profiles: config.profiles,
});

export interface ParseGatewayConfigOptions {
  /** Where the text came from: names it in messages, decides the format by extension and is the base of relative `cwd`s. */
  readonly file?: string;
  /** For `${VAR}` substitution and `PROMPTYARD_*` overrides; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base of relative paths when there is no file; default `process.cwd()`. */
  readonly cwd?: string;
}

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

const readSource = (text: string, file: string | undefined, label: string, problems: Problem[]): ServerSource =>
  detectFormat(text, file) === 'json'
    ? readJson(text, label)
    : readToml(text, label, problems, {
        sections: Object.keys(sectionsSchema).map((section) => section.replace(/\[\]$/, '')),
        serverKeys: SERVER_KEYS,
      });

/** Where relative paths resolve, and what VS Code's `${workspaceFolder}` and `${userHome}` mean. */
const buildContext = (
  format: GatewayConfigFormat,
  options: ParseGatewayConfigOptions,
  env: Readonly<Record<string, string | undefined>>,
  problems: Problem[],
): BuildContext => {
  const cwd = options.cwd ?? process.cwd();
  const absoluteFile = options.file === undefined ? undefined : resolve(cwd, options.file);
  const base = absoluteFile === undefined ? cwd : dirname(absoluteFile);
  // VS Code resolves ${workspaceFolder} to the folder holding .vscode.
  const workspace =
    absoluteFile !== undefined && basename(dirname(absoluteFile)) === '.vscode' ? dirname(dirname(absoluteFile)) : (options.cwd ?? base);
  const builtins =
    format === 'vscode' ? { workspaceFolder: workspace, userHome: env['HOME'] ?? env['USERPROFILE'] ?? homedir() } : undefined;
  return { format, env, base, problems, ...(builtins ? { builtins } : {}) };
};

/** What the schema cannot say about the sections. */
const checkSections = (sections: Sections, text: string, problems: Problem[]): void => {
  const { separator, pins_file: pinsFile } = sections.gateway;
  if (pinsFile?.trim() === '')
    problems.push({
      line: locateKey(text, 'gateway', 'pins_file'),
      message: '[gateway] pins_file must be a path: remove it for the default',
    });
  if (sections.audit.file?.trim() === '')
    problems.push({
      line: locateKey(text, 'audit', 'file'),
      message: '[audit] file must be a path, or "-" for stderr: remove it for no audit trail',
    });
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
};

interface Access {
  readonly auth: AuthSettings | undefined;
  readonly policy: readonly PolicyRule[];
  readonly console: ConsoleConfig | undefined;
}

/** `[auth]` and `[[policy]]`, checked by the auth package; their problems point at the section. */
const readAccess = (sections: Sections, text: string, problems: Problem[]): Access => {
  const auth = checkAuthSection(sections.auth);
  for (const message of auth.problems) problems.push({ line: locateKey(text, 'auth'), message });
  const policy = checkPolicies(sections['policy[]'], { gateway: true });
  for (const message of policy.problems) problems.push({ line: locateKey(text, 'policy'), message });
  checkPolicyGlobs(sections['policy[]'], text, problems);
  return { auth: auth.settings, policy: policy.rules, console: readConsole(sections, policy.rules, text, problems) };
};

/** What the file declares besides its sections, and where its relative paths resolve. */
interface Declared {
  readonly servers: readonly BackendConfig[];
  readonly profiles: readonly ProfileConfig[];
  readonly base: string;
}

const toGatewayConfig = (
  { gateway, timeouts, restart, limits, transport, telemetry, cluster, audit }: Sections,
  access: Access,
  { servers, profiles, base }: Declared,
  file: string | undefined,
  format: GatewayConfigFormat,
): GatewayConfig => ({
  name: gateway.name,
  separator: gateway.separator,
  lazy: gateway.lazy,
  metaTools: gateway.meta_tools,
  logLevel: gateway.log_level,
  logFormat: gateway.log_format,
  startupWaitMs: gateway.startup_wait_ms,
  timeouts: { connectMs: timeouts.connect_ms, requestMs: timeouts.request_ms, toolMs: timeouts.tool_ms },
  restart: { initialMs: restart.initial_ms, maxMs: restart.max_ms, maxRestarts: restart.max_restarts },
  limits: { maxMessageBytes: limits.max_message_bytes, maxDefinitions: limits.max_definitions },
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
  ...(access.auth === undefined ? {} : { auth: access.auth }),
  policy: access.policy,
  ...(access.console === undefined ? {} : { console: access.console }),
  telemetry: {
    metrics: telemetry.metrics,
    ...(telemetry.metrics_bind === undefined ? {} : { metricsBind: telemetry.metrics_bind }),
    ...(telemetry.otlp_endpoint === undefined ? {} : { otlpEndpoint: telemetry.otlp_endpoint }),
    ...(telemetry.service_name === undefined ? {} : { serviceName: telemetry.service_name }),
  },
  ...(cluster.redis_url === undefined ? {} : { cluster: { redisUrl: cluster.redis_url, keyPrefix: cluster.key_prefix } }),
  ...(audit.file === undefined ? {} : { audit: { file: audit.file === '-' ? '-' : resolve(base, audit.file) } }),
  ...(gateway.pins_file === undefined ? {} : { pinsFile: resolve(base, gateway.pins_file) }),
  servers,
  profiles,
  ...(file === undefined ? {} : { file }),
  format,
});

/**
 * Parses a gateway configuration: `gateway.toml`, a Claude Desktop / Cursor / Claude Code
 * `mcpServers` file or a VS Code `mcp.json` (JSON with comments). Defaults, then the file, then
 * `PROMPTYARD_*` environment variables for the top-level sections. All problems are reported in one
 * `CONFIG_INVALID` error, each with its file and line.
 */
export const parseGatewayConfig = (text: string, options: ParseGatewayConfigOptions = {}): GatewayConfig => {
  const env = options.env ?? process.env;
  const label = options.file ?? 'config';
  const problems: Problem[] = [];
  const source = readSource(text, options.file, label, problems);
  const sectionLines: string[] = [];
  const sections = resolveSections(source.document, label, source.format === 'toml' ? text : '', env, sectionLines);
  const context = buildContext(source.format, options, env, problems);
  const servers = buildServers(source.servers, context);
  const profiles = readProfiles(source.profiles, {
    serverIds: source.servers.map((raw) => raw.key),
    servers,
    line: (path) => locateTomlPath(text, path),
    problems,
  });
  if (sections !== undefined) checkSections(sections, text, problems);
  const access = sections === undefined ? undefined : readAccess(sections, text, problems);
  if (problems.length > 0 || sectionLines.length > 0 || sections === undefined || access === undefined) {
    const lines = [
      ...sectionLines,
      ...problems.map((problem) => `${problem.line > 0 ? `${label}:${problem.line}` : label}: ${problem.message}`),
    ];
    throw new PromptyardError('CONFIG_INVALID', `Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const warnings = gatewayEnvWarnings(env, text);
  return {
    ...toGatewayConfig(sections, access, { servers, profiles, base: context.base }, options.file, source.format),
    ...(warnings.length === 0 ? {} : { warnings }),
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
