/**
 * What a caller sees of the backends, as configured: overrides of a server's tools and prompts, the
 * profiles (curated surfaces served at `/mcp/<name>` and with `--profile`), and how much a server's
 * definitions are trusted once pinned.
 */

/** `[servers.<id>.overrides.tools.<name>]`: what the gateway changes of one tool before serving it. */
export interface ToolOverride {
  /** The tool's new name on its server, before the prefix (`search_issues` → `find_issues`, served `github_find_issues`). */
  readonly name?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** Merged over the tool's own annotations (`readOnlyHint = true`). */
  readonly annotations?: Readonly<Record<string, unknown>> | undefined;
  /** Arguments given a fixed value: removed from the input schema, injected into every call. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
}

/** `[servers.<id>.overrides.prompts.<name>]`. */
export interface PromptOverride {
  readonly name?: string | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
}

/** Overrides by the item's own name on its server (before any rename or prefix). */
export interface Overrides {
  readonly tools: Readonly<Record<string, ToolOverride>>;
  readonly prompts: Readonly<Record<string, PromptOverride>>;
}

export const noOverrides: Overrides = { tools: {}, prompts: {} };

/** `[profiles.<name>.servers.<id>]`: one server in a profile, and which of its items the profile shows. */
export interface ProfileServer {
  readonly server: string;
  /**
   * Globs (picomatch: `*`, `?`, `[ab]`, `{a,b}`) over the server's own names, before the prefix; a
   * `!glob` excludes. Only exclusions: everything else. Default `["*"]`; empty: none.
   */
  readonly tools: readonly string[];
  readonly prompts: readonly string[];
  /** Globs over resource URIs (and template URI templates) or names. */
  readonly resources: readonly string[];
  /** Applied over the server's own overrides, for this profile only. */
  readonly overrides: Overrides;
}

/** `[profiles.<name>]`: a curated surface of some servers. */
export interface ProfileConfig {
  /** `[a-z0-9][a-z0-9_-]*`: served at `/mcp/<name>`. `default` is the whole gateway and cannot be configured. */
  readonly name: string;
  readonly description?: string | undefined;
  /** In the order written; servers not named are not in the profile. */
  readonly servers: readonly ProfileServer[];
}

/** The profile every client sees on the plain endpoint (`/mcp`, stdio without `--profile`): everything. */
export const DEFAULT_PROFILE = 'default';

/**
 * `pinning` of a server: `off` serves definitions as they come; `warn` (default) records each tool's
 * and prompt's definition on first sight and warns when one changes; `enforce` quarantines a changed
 * or new definition until `promptyard-gateway pins approve`.
 */
export type PinningMode = 'off' | 'warn' | 'enforce';
export const PINNING_MODES = ['off', 'warn', 'enforce'] as const satisfies readonly PinningMode[];
