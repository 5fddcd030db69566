import { clusterSection, logFormats, logLevels, telemetrySection } from '@promptyard/core';
import type { ConfigOf, ConfigSchema, DocumentedSchema, DocumentedSection } from '@promptyard/core';
import { authSection, policySection } from '@promptyard/auth';
import { transportSection } from '@promptyard/mcp';
import { consoleSection } from './console.js';
import { OAUTH_GRANTS, PINNING_MODES, PROTOCOL_CHOICES } from '@promptyard/router';
import { ANNOTATION_TYPES, FILTER_KINDS, MAX_DEFINITIONS, MAX_TIMEOUT_MS, TRANSPORT_ALIASES } from './values.js';

/** The gateway's HTTP port unless one is configured; promptyard-server's is 3000. */
const GATEWAY_DEFAULT_PORT = 3100;

/** The sections besides `[servers]`: what core's `resolveConfig` checks. */
export const sectionsSchema = {
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
    log_format: {
      type: 'string',
      enum: logFormats,
      default: 'text',
      doc: 'stderr log format: text, or json (one object a line) for log collectors (PROMPTYARD_LOG_FORMAT).',
    },
    startup_wait_ms: {
      type: 'integer',
      min: 0,
      max: MAX_TIMEOUT_MS,
      default: 5000,
      doc: 'The gateway serves at once and servers join as they become ready; lists asked for this soon after start wait (this long at most) for servers still making their first connection. 0 = never wait.',
    },
    pins_file: {
      type: 'string',
      doc: "Where the pinned tool and prompt definitions are kept without [cluster], relative to the config file (default: a file for this config in the user's state folder, beside the OAuth tokens).",
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
  limits: {
    max_message_bytes: {
      type: 'integer',
      min: 1024,
      default: 10_485_760,
      doc: 'Largest message read from a backend (a stdio line, an HTTP body, an SSE event), in bytes. A larger one is dropped while it is read, the request it answers fails with an error naming this limit, and it is counted in /health and the metrics; the gateway holds at most this much per open backend stream.',
    },
    max_definitions: {
      type: 'integer',
      min: 1,
      max: MAX_DEFINITIONS,
      default: 10_000,
      doc: "Most definitions served of each list of one server (its tools, prompts, resources and resource templates, each counted alone; a server's `max_definitions` overrides it). Past it the list is cut to its first this many, pages past it are not asked for, and the server is shown degraded (/health, status, the console) with a warning in the log naming this limit.",
    },
  },
  // Its own default port, so a gateway and a server started with their defaults do not collide.
  transport: {
    ...transportSection,
    port: { ...transportSection.port, default: GATEWAY_DEFAULT_PORT },
  },
  auth: authSection,
  'policy[]': policySection,
  telemetry: telemetrySection,
  cluster: clusterSection,
  console: consoleSection,
  audit: {
    file: {
      type: 'string',
      doc: 'Append one JSON line per decision (who called which tool or prompt, the arguments\' digest, allowed / denied / quarantined / approved / declined / failed) to this file, relative to the config file, reopened on SIGHUP; "-" writes them to stderr; unset: no audit trail. Argument values are never written (PROMPTYARD_AUDIT_FILE).',
    },
  },
} as const satisfies ConfigSchema;

const filterDocs = (what: string) =>
  ({
    allow: {
      type: 'string[]',
      default: [],
      doc: `Globs (*, ?, [ab], {a,b}, !not) of the server's own ${what} names to serve; empty serves all.`,
    },
    deny: { type: 'string[]', default: [], doc: `Globs of ${what} names to hide, applied after allow.` },
  }) as const;

const promptOverrideDocs = {
  name: {
    type: 'string',
    doc: 'Its new name on the server, before the prefix (letters, digits, "_", "-" and "."); calls to the new name reach the original.',
  },
  title: { type: 'string', doc: 'Replaces its title.' },
  description: { type: 'string', doc: 'Replaces its description, e.g. one the model misreads.' },
} as const;

const toolOverrideDocs = {
  ...promptOverrideDocs,
  annotations: {
    type: 'table',
    fields: Object.fromEntries(Object.entries(ANNOTATION_TYPES).map(([key, type]) => [key, { type }])) as DocumentedSection,
    doc: 'Merged over its own annotations: title (string), readOnlyHint, destructiveHint, idempotentHint, openWorldHint (true or false).',
  },
  arguments: {
    type: 'table',
    doc: 'Arguments given a fixed value (owner = "acme"): removed from the input schema clients see and set on every call.',
  },
} as const;

/**
 * Every key of `gateway.toml`: section → key → { type, default?, doc }. The sections without `<id>`
 * are also the schema core's `resolveConfig` checks; docs/reference/configuration.md mirrors this object.
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
      enum: Object.keys(TRANSPORT_ALIASES),
      doc: 'streamable-http (default with url; "http" also accepted), sse for legacy servers, or stdio (implied by command).',
    },
    enabled: { type: 'boolean', default: true, doc: 'false keeps the server configured but not started.' },
    prefix: {
      type: 'boolean | string',
      default: true,
      doc: 'Name prefix of its tools and prompts: true = the id, false = none (names pass through), or a string.',
    },
    timeout: { type: 'integer', min: 1, max: MAX_TIMEOUT_MS, doc: 'Request timeout for this server, ms (default [timeouts] request_ms).' },
    tool_timeout: {
      type: 'integer',
      min: 1,
      max: MAX_TIMEOUT_MS,
      doc: 'tools/call timeout for this server, ms (default [timeouts] tool_ms).',
    },
    max_definitions: {
      type: 'integer',
      min: 1,
      max: MAX_DEFINITIONS,
      doc: 'Most definitions served of each of its lists (default [limits] max_definitions).',
    },
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
    pinning: {
      type: 'string',
      enum: PINNING_MODES,
      default: 'warn',
      doc: "off: serve definitions as they come; warn: record a SHA-256 of each tool's and prompt's definition on first sight and warn when one changes; enforce: a changed or new definition is hidden and its calls refused until promptyard-gateway pins approve.",
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
  'servers.<id>.overrides.tools.<tool>': toolOverrideDocs,
  'servers.<id>.overrides.prompts.<prompt>': promptOverrideDocs,
  'profiles.<name>': {
    description: { type: 'string', doc: 'What the profile is for, in words for the people who choose one.' },
  },
  'profiles.<name>.servers.<id>': {
    tools: {
      type: 'string[]',
      default: ['*'],
      doc: "Globs (*, ?, [ab], {a,b}; !glob excludes) of the server's own tool names the profile shows; [] shows none.",
    },
    prompts: { type: 'string[]', default: ['*'], doc: "Globs of the server's own prompt names the profile shows; [] shows none." },
    resources: {
      type: 'string[]',
      default: ['*'],
      doc: 'Globs of the resource URIs (templates: their URI template) or names the profile shows; [] shows none.',
    },
  },
  'profiles.<name>.servers.<id>.overrides': {
    tools: {
      type: 'table',
      entries: toolOverrideDocs,
      doc: "[profiles.<name>.servers.<id>.overrides.tools.<tool>] tables with the keys of [servers.<id>.overrides.tools.<tool>], applied over the server's own overrides for this profile only.",
    },
    prompts: {
      type: 'table',
      entries: promptOverrideDocs,
      doc: '[profiles.<name>.servers.<id>.overrides.prompts.<prompt>] tables with the keys of [servers.<id>.overrides.prompts.<prompt>], for this profile only.',
    },
  },
} as const satisfies DocumentedSchema;

export type Sections = ConfigOf<typeof sectionsSchema>;

export const TOOL_OVERRIDE_KEYS: readonly string[] = Object.keys(toolOverrideDocs);
export const PROMPT_OVERRIDE_KEYS: readonly string[] = Object.keys(promptOverrideDocs);
export const PROFILE_KEYS: readonly string[] = [...Object.keys(gatewayConfigSchema['profiles.<name>']), 'servers'];
export const PROFILE_SERVER_KEYS: readonly string[] = [...Object.keys(gatewayConfigSchema['profiles.<name>.servers.<id>']), 'overrides'];

export const SERVER_KEYS: readonly string[] = [...Object.keys(gatewayConfigSchema['servers.<id>']), ...FILTER_KINDS, 'oauth', 'overrides'];
