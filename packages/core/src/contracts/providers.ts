/**
 * The contracts other packages meet on, free of the MCP SDK and of any library: the prompt and
 * template shapes (`types.ts`), prompt sources, skills, resource providers and tools, the provider
 * factories a package exports (here), and what the deployment packages implement: identity (auth),
 * metrics (telemetry) and cluster state (cluster).
 */
import type { Logger } from '../logging/logger.js';
import type { PromptSource } from './prompt-sources.js';
import type { ResourceProvider } from './resources.js';
import type { ToolProvider } from './tools.js';
import type { TemplateEngine } from './types.js';

/**
 * What a provider package exports, and what the server hands its factories. A user enables a package
 * with `[[providers]] package = "<name>"` in promptyard.toml; the server calls every factory the
 * package exports with the entry's `options` table and a context. Provider packages take
 * `@promptyard/core` as a peer dependency and use its types alone.
 */

/** The `options` table of a `[[providers]]` entry. */
export type ProviderOptions = Readonly<Record<string, string>>;

export interface ProviderContext {
  /** Logs on the server's stderr, scoped to the package. */
  readonly logger: Logger;
  /** The folder of the config file that enabled the provider: relative paths in options resolve here. */
  readonly baseDir: string;
  /**
   * The server's template engines by name (`liquid`, `jinja`, `plain`, `arguments`), with its time and size
   * limits: a prompt source renders with these so its prompts behave like the server's own.
   */
  readonly engines: Readonly<Record<string, TemplateEngine>>;
}

export type ResourceProviderFactory<Options = ProviderOptions> = (options: Options, context: ProviderContext) => ResourceProvider;
export type ToolProviderFactory<Options = ProviderOptions> = (options: Options, context: ProviderContext) => ToolProvider;
export type PromptSourceFactory<Options = ProviderOptions> = (options: Options, context: ProviderContext) => PromptSource;

/** The named exports the server looks for in a provider package; any one of them makes it a provider. */
export interface ProviderModule<Options = ProviderOptions> {
  readonly createResourceProvider?: ResourceProviderFactory<Options>;
  readonly createToolProvider?: ToolProviderFactory<Options>;
  readonly createPromptSource?: PromptSourceFactory<Options>;
  /** The first name of `createResourceProvider`, still honoured. */
  readonly createProvider?: ResourceProviderFactory<Options>;
}
