/** What one backend is and how a new config differs from the running one: the router's view of `[servers.<id>]`. */
import { isTable } from '@promptyard/core';
import { compileGlobList } from './surface/globs.js';
import type { Overrides, PinningMode } from './surface/surface-types.js';

export type BackendTransport = 'stdio' | 'streamable-http' | 'sse';

/** A server's `protocol` setting: negotiate, or pin one MCP revision. */
export type ProtocolChoice = 'auto' | '2025-11-25' | '2026-07-28';
export const PROTOCOL_CHOICES = ['auto', '2025-11-25', '2026-07-28'] as const satisfies readonly ProtocolChoice[];

export type OAuthGrant = 'authorization_code' | 'client_credentials';
export const OAUTH_GRANTS = ['authorization_code', 'client_credentials'] as const satisfies readonly OAuthGrant[];

/** `auth = "oauth"` with its `[servers.<id>.oauth]` table: the gateway as an OAuth client of that server. */
export interface OAuthSettings {
  /** `authorization_code` (default): a person logs in with `promptyard-gateway login <id>`; `client_credentials`: a machine account. */
  readonly grant: OAuthGrant;
  /** Absent: dynamic client registration (RFC 7591). */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Empty: what the server's challenge or metadata asks for. */
  readonly scopes: readonly string[];
  /** The loopback port `login` catches the redirect on (a registered redirect URI with a fixed port); absent: any free port. */
  readonly redirectPort?: number;
}

/** Globs over a backend's own names (before prefixing), picomatch syntax (`*`, `?`, `[ab]`, `{a,b}`); empty allow = all. */
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
  /** `inherit_env`: true (default) starts command with the gateway's environment minus `PROMPTYARD_*`; false with only PATH, HOME and the like. */
  readonly inheritEnv: boolean;
  /** `protocol`: the MCP revision to speak; `auto` (default) prefers 2026-07-28 over HTTP and falls back to 2025-11-25. */
  readonly protocol: ProtocolChoice;
  /** Absolute (relative paths resolve against the config file's folder). */
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** `auth = "oauth"`: the gateway is an OAuth client of this server. */
  readonly oauth?: OAuthSettings;
  readonly enabled: boolean;
  /** `prefix = true` or absent → the id; `false` → names pass through; a string → that prefix. */
  readonly prefix: string | false;
  /** Per-server request timeout (`timeout`, ms). */
  readonly timeoutMs?: number;
  /** Per-server tools/call timeout (`tool_timeout`, ms). */
  readonly toolTimeoutMs?: number;
  /** `max_definitions`: most definitions served of each of its lists (default `[limits] max_definitions`). */
  readonly maxDefinitions?: number;
  readonly tools: NameFilter;
  readonly prompts: NameFilter;
  readonly resources: NameFilter;
  /** `[servers.<id>.overrides]`: renames, descriptions, annotations and fixed arguments, for every profile. */
  readonly overrides: Overrides;
  /** `pinning`: how far its definitions are trusted once recorded (default `warn`). */
  readonly pinning: PinningMode;
}

/** The gateway's `[timeouts]` that a server's own `timeout` and `tool_timeout` override. */
export interface DefaultTimeouts {
  readonly requestMs: number;
  readonly toolMs: number;
}

export const toolTimeoutMs = (backend: BackendConfig, defaults: DefaultTimeouts): number =>
  backend.toolTimeoutMs ?? backend.timeoutMs ?? defaults.toolMs;

export const requestTimeoutMs = (backend: BackendConfig, defaults: DefaultTimeouts): number => backend.timeoutMs ?? defaults.requestMs;

/** A name passes when some allow glob matches (or allow is empty) and no deny glob does. */
export const compileNameFilter = (filter: NameFilter): ((name: string) => boolean) => {
  if (filter.allow.length === 0 && filter.deny.length === 0) return () => true;
  const allow = filter.allow.length === 0 ? () => true : compileGlobList(filter.allow);
  const deny = filter.deny.length === 0 ? () => false : compileGlobList(filter.deny);
  return (name) => allow(name) && !deny(name);
};

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    isTable(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );

/** Stable JSON of everything that needs the backend restarted when it changes (how it is launched or reached). */
export const backendFingerprint = (backend: BackendConfig): string =>
  stableJson({
    transport: backend.transport,
    command: backend.command ?? null,
    args: backend.args,
    env: backend.env,
    inheritEnv: backend.inheritEnv,
    protocol: backend.protocol,
    cwd: backend.cwd ?? null,
    url: backend.url ?? null,
    headers: backend.headers,
    oauth: backend.oauth ?? null,
    // Its lists are read again, cut to the new cap.
    maxDefinitions: backend.maxDefinitions ?? null,
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
    overrides: backend.overrides,
    pinning: backend.pinning,
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
