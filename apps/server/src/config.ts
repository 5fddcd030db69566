import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { clusterSection, loadConfig, logFormats, logLevels, telemetrySection } from '@promptyard/core';
import { authSection, policySection, resolveAuthSettings, resolvePolicies } from '@promptyard/auth';
import type { AuthSettings, PolicyRule } from '@promptyard/auth';
import { transportSection } from '@promptyard/mcp';
import type { ServeFlags } from '@promptyard/mcp';
import { perplexityBaseUrl, perplexityModels, serperBaseUrl } from '@promptyard/web-search';
import { jinaReaderUrl } from '@promptyard/resources';
import type { ConfigOf } from '@promptyard/core';
import { envAliases, locateServerConfig, serverEnvWarnings } from './config-file.js';
import { gitConfigSections, gitPromptKeys, resolveGitSettings } from './library/git-config.js';
import type { GitSettings } from './library/git-config.js';

/** `promptyard.toml`: every key, its type and default. docs/reference/configuration.md mirrors it. */
export const configSchema = {
  server: {
    name: { type: 'string', default: 'promptyard', doc: 'Server name reported to clients.' },
    version: { type: 'string', doc: 'Version reported to clients (default: the package version).' },
    instructions: { type: 'string', doc: 'Instructions sent to clients at initialization.' },
    log_level: { type: 'string', enum: logLevels, default: 'info', doc: 'Lowest level written to stderr.' },
    log_format: { type: 'string', enum: logFormats, default: 'text', doc: 'stderr log format: text or json (PROMPTYARD_LOG_FORMAT).' },
  },
  transport: transportSection,
  'transport.rate_limit': {
    enabled: { type: 'boolean', doc: 'Per-client rate limiting (default: off on a loopback bind, on otherwise).' },
    requests_per_minute: { type: 'integer', min: 1, default: 100, doc: 'Sustained requests per minute per client.' },
    burst: { type: 'integer', min: 1, default: 20, doc: 'Requests a client may send at once.' },
    trusted_proxies: {
      type: 'string[]',
      separator: 'comma',
      default: [],
      doc: 'Addresses of the proxies in front of the server (nginx): a request from one counts against the client its X-Forwarded-For names, not against the proxy.',
    },
  },
  auth: authSection,
  'policy[]': policySection,
  telemetry: telemetrySection,
  cluster: clusterSection,
  prompts: {
    folders: { type: 'string[]', separator: 'path', default: [], doc: 'Folders of Markdown prompts, searched recursively.' },
    libraries: { type: 'string[]', separator: 'path', default: [], doc: 'twig.toml library folders outside the prompt folders.' },
    watch: { type: 'boolean', default: true, doc: 'Hot reload: watch the folders and notify clients of changes.' },
    page_size: {
      type: 'integer',
      min: 1,
      max: 5000,
      default: 500,
      doc: 'Most prompts per prompts/list page; a page also ends before ~96 KB of JSON.',
    },
    debounce_ms: { type: 'integer', min: 0, max: 10_000, default: 25, doc: 'Quiet time before a burst of file changes is applied.' },
    follow_external_symlinks: {
      type: 'boolean',
      default: false,
      doc: 'Serve (and embed) files and folders whose symlinks lead outside their prompt folder; off: such a link is skipped with a warning.',
    },
    ...gitPromptKeys,
  },
  ...gitConfigSections,
  skills: {
    folders: {
      type: 'string[]',
      separator: 'path',
      default: [],
      doc: 'Folders of Agent Skills (each skill a folder holding SKILL.md), served through the MCP skills extension (default: discovery).',
    },
    prefix: {
      type: 'string',
      default: 'skill:',
      doc: 'Prefix of the prompts these skills are also served as, for clients without the skills extension.',
    },
  },
  discovery: {
    enabled: {
      type: 'boolean',
      default: true,
      doc: 'With no prompt folders configured, serve the well-known folders of the project and the home folder.',
    },
    project: { type: 'boolean', default: true, doc: 'Search the current directory (the project).' },
    home: { type: 'boolean', default: true, doc: 'Search the home folder; project prompts win on a name clash.' },
    home_dir: { type: 'string', doc: 'The home folder searched (default: PROMPTYARD_HOME, else HOME).' },
    formats: {
      type: 'string[]',
      separator: 'comma',
      default: ['claude-commands', 'claude-skills', 'copilot', 'continue', 'gemini', 'codex', 'speckit', 'prompty'],
      doc: 'Formats searched: claude-commands, claude-skills, copilot, continue, gemini, codex, speckit, prompty.',
    },
  },
  'discovery.prefixes': {
    claude: { type: 'string', default: 'claude:', doc: 'Prefix of Claude Code command and skill names.' },
    copilot: { type: 'string', default: 'copilot:', doc: 'Prefix of Copilot / VS Code prompt names.' },
    continue: { type: 'string', default: 'continue:', doc: 'Prefix of Continue prompt names.' },
    gemini: { type: 'string', default: 'gemini:', doc: 'Prefix of Gemini CLI command names.' },
    codex: { type: 'string', default: 'codex:', doc: 'Prefix of Codex prompt names.' },
    speckit: { type: 'string', default: 'speckit:', doc: 'Prefix of spec-kit command names.' },
    prompty: { type: 'string', default: 'prompty:', doc: 'Prefix of Prompty prompt names.' },
  },
  fallback: {
    tools: {
      type: 'boolean',
      default: false,
      doc: 'Serve list_prompts, get_prompt and search_prompts, for clients that show tools but not prompts.',
    },
    resources: {
      type: 'boolean',
      default: false,
      doc: 'Serve every prompt as a resource prompt://{name}, for clients that show resources but not prompts.',
    },
    max_output_bytes: {
      type: 'integer',
      min: 1024,
      default: 40_000,
      doc: 'Larger fallback tool results and prompt resources are cut, with a note.',
    },
  },
  limits: {
    max_file_bytes: { type: 'integer', min: 1, default: 102_400, doc: 'Prompt files larger than this are skipped with a warning.' },
    max_argument_chars: { type: 'integer', min: 1, default: 10_000, doc: 'Longer argument values are truncated with a warning.' },
    max_response_bytes: {
      type: 'integer',
      min: 1,
      default: 1_048_576,
      doc: 'Largest rendered prompt returned; larger tool results are cut with a note.',
    },
  },
  timeouts: {
    prompt_ms: { type: 'integer', min: 1, default: 5000, doc: 'Longest a prompt may take to render.' },
    resource_ms: { type: 'integer', min: 1, default: 10_000, doc: 'Longest a resource read may take.' },
    tool_ms: {
      type: 'integer',
      min: 1,
      default: 30_000,
      doc: 'Longest a tool call may take (a tool with a longer limit of its own, such as deep research, gets that).',
    },
  },
  'tools.web_search': {
    enabled: {
      type: 'boolean',
      default: true,
      doc: 'Serve web_search (Google results through Serper; the key comes from SERPER_API_KEY).',
    },
    base_url: { type: 'string', default: serperBaseUrl, doc: 'Serper API base URL; SERPER_BASE_URL overrides it (proxies, tests).' },
    results: { type: 'integer', min: 1, max: 100, default: 10, doc: 'Results asked for when a call does not pass num.' },
    timeout_ms: { type: 'integer', min: 1, default: 30_000, doc: 'Longest one Serper request may take, a Retry-After wait included.' },
    max_output_bytes: {
      type: 'integer',
      min: 1024,
      default: 40_000,
      doc: "Larger outputs are cut at a result boundary, with a note (≈10k tokens, well under clients' 25k-token limit).",
    },
  },
  'resources.url': {
    enabled: { type: 'boolean', default: true, doc: 'Serve url:{+url}, a web page as Markdown.' },
    mode: {
      type: 'string',
      enum: ['jina', 'local'],
      default: 'jina',
      doc: 'jina: read through Jina Reader; local: fetch here behind the SSRF guard and convert (no third party sees the URL). PROMPTYARD_URL_MODE.',
    },
    reader_url: {
      type: 'string',
      default: jinaReaderUrl,
      doc: 'Jina Reader base URL; JINA_READER_URL overrides it. The key comes from JINA_API_KEY.',
    },
    return_format: {
      type: 'string',
      enum: ['content', 'markdown', 'html', 'text'],
      doc: "Sent as X-Return-Format (default: the reader's, Readability-filtered Markdown).",
    },
    reader_timeout_s: { type: 'integer', min: 1, max: 180, doc: 'Sent as X-Timeout: seconds the reader waits for the page.' },
    no_cache: { type: 'boolean', default: false, doc: 'Send X-No-Cache: true (the reader fetches the page afresh).' },
    allow: {
      type: 'string[]',
      separator: 'comma',
      default: [],
      doc: 'Hosts or CIDRs exempt from the SSRF guard in local mode; PROMPTYARD_URL_ALLOW (comma-separated).',
    },
    timeout_ms: { type: 'integer', min: 1, default: 10_000, doc: 'Longest one page fetch may take.' },
    max_bytes: { type: 'integer', min: 1024, default: 5_242_880, doc: 'Larger pages are refused (local) or cut (jina).' },
    content_types: {
      type: 'string[]',
      separator: 'comma',
      default: ['text/', 'application/xhtml+xml', 'application/json'],
      doc: 'Content types (prefixes) converted in local mode.',
    },
    cache_ttl_s: { type: 'integer', min: 0, default: 300, doc: 'Seconds a page is served from memory before it is fetched again.' },
  },
  'providers[]': {
    package: {
      type: 'string',
      doc: "A provider package to load (resolved from the config file's folder); it exports createResourceProvider, createToolProvider and/or createPromptSource.",
    },
    options: { type: 'record', default: {}, doc: "Options passed to the package's factories (a table of strings)." },
    kinds: { type: 'string[]', doc: 'Which of resources, tools and prompts to take from the package (default: every kind it exports).' },
  },
  'resources.doc': {
    enabled: {
      type: 'boolean',
      default: true,
      doc: "Serve doc://{library} (a library's llms.txt) and doc://{library}/full (llms-full.txt).",
    },
    libraries: {
      type: 'record',
      default: {},
      doc: 'Library name → llms.txt URL, added to and overriding the built-in map; "<name>/full" sets its llms-full.txt.',
    },
    cache_dir: {
      type: 'string',
      doc: 'Where fetched docs are kept across restarts (default: $XDG_CACHE_HOME or ~/.cache, then promptyard/doc).',
    },
    ttl_s: {
      type: 'integer',
      min: 0,
      default: 3600,
      doc: 'Seconds a fetched file is served before it is revalidated (ETag / If-None-Match).',
    },
    max_bytes: { type: 'integer', min: 1024, default: 10_485_760, doc: 'Larger files are refused.' },
    timeout_ms: { type: 'integer', min: 1, default: 30_000, doc: 'Longest one fetch may take.' },
  },
  'resources.project': {
    command: {
      type: 'string',
      default: 'codeweaver',
      doc: 'Code-map command run as <command> -input <folder> -output <tempfile> (codeweaver, also found as codeweawer), or "builtin".',
    },
    paths: { type: 'record', default: {}, doc: 'Project name → folder served as project://{name}; relative to the config file.' },
    timeout_ms: { type: 'integer', min: 1, default: 60_000, doc: 'Longest the command may run.' },
    max_bytes: { type: 'integer', min: 1024, default: 1_000_000, doc: 'Larger code maps are cut, with a note.' },
    max_file_bytes: { type: 'integer', min: 1, default: 100_000, doc: 'The builtin renderer lists larger files without their content.' },
  },
  'tools.perplexity_summary_search': {
    enabled: {
      type: 'boolean',
      default: true,
      doc: 'Serve perplexity_summary_search (Perplexity Sonar; the key comes from PERPLEXITY_API_KEY).',
    },
    base_url: {
      type: 'string',
      default: perplexityBaseUrl,
      doc: 'Perplexity API base URL; PERPLEXITY_BASE_URL overrides it (proxies, tests).',
    },
    model: { type: 'string', enum: perplexityModels, default: 'sonar', doc: 'Model used when a call does not pass one.' },
    timeout_ms: { type: 'integer', min: 1, default: 30_000, doc: 'Longest one Perplexity request may take, a Retry-After wait included.' },
    deep_research_timeout_ms: {
      type: 'integer',
      min: 1,
      default: 300_000,
      doc: 'The same for sonar-deep-research, which runs for minutes.',
    },
    max_output_bytes: { type: 'integer', min: 1024, default: 40_000, doc: 'Larger outputs are cut at a source boundary, with a note.' },
  },
} as const;

type ServerConfig = ConfigOf<typeof configSchema>;

/** The flags over the file: the serving ones (`--transport`, `--log-format` …) and the server's own. */
export interface Overrides extends Readonly<ServeFlags> {
  readonly prompts?: readonly string[];
  readonly watch?: boolean;
  /** `--frozen`: serve the lock file's commits. */
  readonly frozen?: boolean;
}

export interface ResolvedConfig {
  readonly config: ServerConfig;
  /** The config file read: `--config`, `$PROMPTYARD_CONFIG` or `./promptyard.toml`; absent: none. */
  readonly file?: string;
  /** What the environment holds that the server does not read (`PROMPTYARD_*` typos). */
  readonly warnings: readonly string[];
  /** Prompt folders and libraries as absolute paths. */
  readonly folders: readonly string[];
  readonly libraries: readonly string[];
  /** `[skills] folders` as absolute paths. */
  readonly skillFolders: readonly string[];
  /** Where discovery looks: the project (the working directory), the home folder and `$CODEX_HOME`. */
  readonly cwd: string;
  readonly home: string | undefined;
  readonly codexHome: string | undefined;
  /** `project://` names → absolute folders. */
  readonly projects: Readonly<Record<string, string>>;
  /** Where `doc://` keeps fetched files, absolute. */
  readonly docCacheDir: string;
  /** `[auth]` checked: OAuth resource-server mode over HTTP; absent without an issuer. */
  readonly auth: AuthSettings | undefined;
  /** `[[policy]]` checked: who may use what over HTTP; empty: every caller may use everything. */
  readonly policy: readonly PolicyRule[];
  /** `[[prompts.git]]`, `[[skills.git]]` and what serving them needs. */
  readonly git: GitSettings;
  /** API keys, from the environment only: a config file is too easily committed. */
  readonly keys: { readonly serper?: string; readonly perplexity?: string; readonly jina?: string };
}

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

const absolute = (path: string, base: string): string => (isAbsolute(path) ? path : resolve(base, path));

/** The file's and the environment's values with the flags over them, and the upstream URLs tests and proxies set in the environment. */
const withOverrides = (values: ServerConfig, env: Readonly<Record<string, string | undefined>>, overrides: Overrides): ServerConfig => ({
  ...values,
  server: {
    ...values.server,
    ...(overrides.logLevel === undefined ? {} : { log_level: overrides.logLevel }),
    ...(overrides.logFormat === undefined ? {} : { log_format: overrides.logFormat }),
  },
  transport: {
    ...values.transport,
    ...(overrides.transport === undefined ? {} : { type: overrides.transport }),
    ...(overrides.host === undefined ? {} : { host: overrides.host }),
    ...(overrides.port === undefined ? {} : { port: overrides.port }),
  },
  'tools.web_search': {
    ...values['tools.web_search'],
    ...(nonEmpty(env['SERPER_BASE_URL']) ? { base_url: env['SERPER_BASE_URL'] } : {}),
  },
  'tools.perplexity_summary_search': {
    ...values['tools.perplexity_summary_search'],
    ...(nonEmpty(env['PERPLEXITY_BASE_URL']) ? { base_url: env['PERPLEXITY_BASE_URL'] } : {}),
  },
  'resources.url': { ...values['resources.url'], ...(nonEmpty(env['JINA_READER_URL']) ? { reader_url: env['JINA_READER_URL'] } : {}) },
  prompts: {
    ...values.prompts,
    ...(overrides.prompts === undefined || overrides.prompts.length === 0 ? {} : { folders: overrides.prompts }),
    ...(overrides.watch === undefined ? {} : { watch: overrides.watch }),
  },
});

/** Defaults < the config file (see config-file.ts for which) < `PROMPTYARD_*` environment < flags. */
export const resolveServerConfig = async (options: {
  readonly file?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly overrides: Overrides;
}): Promise<ResolvedConfig> => {
  const env: Record<string, string | undefined> = { ...options.env };
  for (const [alias, canonical] of Object.entries(envAliases)) {
    if (env[alias] !== undefined && env[canonical] === undefined) env[canonical] = env[alias];
  }
  const file = locateServerConfig(options.file, options.cwd);
  const loaded = await loadConfig(configSchema, { file, env });
  const { overrides } = options;
  const config = withOverrides(loaded.values, env, overrides);
  // Paths written in the file are relative to the file; from flags or the environment, to the cwd.
  const fromFile = (key: 'folders' | 'libraries'): boolean =>
    file !== undefined &&
    env[`PROMPTYARD_PROMPTS_${key.toUpperCase()}`] === undefined &&
    !(key === 'folders' && (overrides.prompts?.length ?? 0) > 0);
  const base = (key: 'folders' | 'libraries'): string => (fromFile(key) && file !== undefined ? dirname(file) : options.cwd);
  return {
    config,
    auth: resolveAuthSettings(config.auth),
    policy: resolvePolicies(config['policy[]'], { gateway: false }),
    ...(file === undefined ? {} : { file }),
    warnings: serverEnvWarnings(options.env, configSchema, config.git.webhook_secret_env),
    folders: config.prompts.folders.map((folder) => absolute(folder, base('folders'))),
    libraries: config.prompts.libraries.map((folder) => absolute(folder, base('libraries'))),
    skillFolders: config.skills.folders.map((folder) =>
      absolute(folder, file !== undefined && env['PROMPTYARD_SKILLS_FOLDERS'] === undefined ? dirname(file) : options.cwd),
    ),
    cwd: options.cwd,
    home: ((home) => (home === undefined ? undefined : absolute(home, options.cwd)))(
      [config.discovery.home_dir, env['HOME'], env['USERPROFILE']].find(nonEmpty),
    ),
    projects: Object.fromEntries(
      Object.entries(config['resources.project'].paths).map(([name, folder]) => [
        name,
        absolute(folder, file !== undefined && env['PROMPTYARD_RESOURCES_PROJECT_PATHS'] === undefined ? dirname(file) : options.cwd),
      ]),
    ),
    docCacheDir: ((configured) =>
      configured === undefined
        ? join(
            nonEmpty(env['XDG_CACHE_HOME'])
              ? absolute(env['XDG_CACHE_HOME'], options.cwd)
              : join(env['HOME'] ?? env['USERPROFILE'] ?? tmpdir(), '.cache'),
            'promptyard',
            'doc',
          )
        : absolute(
            configured,
            file !== undefined && env['PROMPTYARD_RESOURCES_DOC_CACHE_DIR'] === undefined ? dirname(file) : options.cwd,
          ))(config['resources.doc'].cache_dir),
    git: resolveGitSettings(config, { file, cwd: options.cwd, env, frozen: overrides.frozen }),
    codexHome: nonEmpty(env['CODEX_HOME']) ? absolute(env['CODEX_HOME'], options.cwd) : undefined,
    keys: {
      ...(nonEmpty(env['SERPER_API_KEY']) ? { serper: env['SERPER_API_KEY'] } : {}),
      ...(nonEmpty(env['PERPLEXITY_API_KEY']) ? { perplexity: env['PERPLEXITY_API_KEY'] } : {}),
      ...(nonEmpty(env['JINA_API_KEY']) ? { jina: env['JINA_API_KEY'] } : {}),
    },
  };
};
