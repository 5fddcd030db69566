/** setTimeout's limit: larger delays fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** `max_definitions` at most: a million definitions is far past any real server, and still a bound. */
export const MAX_DEFINITIONS = 1_000_000;

export const FILTER_KINDS = ['tools', 'prompts', 'resources'] as const;

/** What a gateway.toml server id must look like: it becomes the name prefix. */
export const SERVER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** What a profile name must look like: it is a path segment of its endpoint. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The transports a server's `transport` names, with the spellings other formats use. */
export const TRANSPORT_ALIASES = {
  stdio: 'stdio',
  'streamable-http': 'streamable-http',
  http: 'streamable-http',
  streamableHttp: 'streamable-http',
  streamable_http: 'streamable-http',
  sse: 'sse',
} as const;

/** The MCP tool annotations and the type each holds. */
export const ANNOTATION_TYPES = {
  title: 'string',
  readOnlyHint: 'boolean',
  destructiveHint: 'boolean',
  idempotentHint: 'boolean',
  openWorldHint: 'boolean',
} as const;
