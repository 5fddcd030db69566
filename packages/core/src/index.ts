export type {
  CompileOptions,
  CompiledTemplate,
  EmbeddedResourceContent,
  ImageContent,
  PromptArgument,
  PromptContent,
  PromptEntry,
  PromptMessage,
  RenderOptions,
  RenderedPrompt,
  SourceLocation,
  TemplateAnalysis,
  TemplateEngine,
  TextContent,
} from './types.js';
export { PromptyardError, describeError, isInvalidParams, isPromptyardError } from './errors.js';
export type { PromptyardErrorCode, PromptyardErrorOptions } from './errors.js';
export { createLogger, isLogLevel, logLevelAtLeast, logLevels, silentLogger } from './logger.js';
export type { LogFields, LogLevel, LogRecord, Logger, LoggerOptions } from './logger.js';
export { createCatalog, encodeCursor, findOrSuggest } from './catalog.js';
export type { Catalog, CatalogChange, CatalogConflict, CatalogDelta, CatalogListOptions, CatalogOptions, CatalogOwner, CatalogPage, Named } from './catalog.js';
export { envName, loadConfig, locateKey, resolveConfig, transportSection } from './config.js';
export type { ConfigOf, ConfigSchema, FieldSpec, LoadConfigOptions, LoadedConfig, SectionSpec } from './config.js';
export { closestNames, formatList } from './suggest.js';
export { createPromptService } from './prompt-service.js';
export type { CompletionResult, PromptLimits, PromptService, PromptServiceOptions } from './prompt-service.js';
export { textResult } from './tools.js';
export { createPromptTools } from './prompt-tools.js';
export type { PromptSearch, PromptToolsOptions } from './prompt-tools.js';
export { createPromptResources, promptUri } from './prompt-resources.js';
export type { PromptResourcesOptions } from './prompt-resources.js';
export { promptCard } from './prompt-cards.js';
export type { ResourceContents, ResourceInfo, ResourceProvider, ResourceProviderFactory, ResourceTemplateInfo } from './resources.js';
export type { ToolAnnotations, ToolContext, ToolDefinition, ToolFactory, ToolInputSchema, ToolPropertySchema, ToolResult } from './tools.js';
export { validateToolArguments } from './tool-arguments.js';
export { createToolService } from './tool-service.js';
export type { ToolService, ToolServiceOptions } from './tool-service.js';
export { createMcpServerBlueprint } from './mcp/server.js';
export type { ListKind, McpServerBlueprint, McpServerOptions, StdioRelay } from './mcp/server.js';
export { serveStdio } from './mcp/stdio.js';
export type { StdioHandle } from './mcp/stdio.js';
export { isLoopbackHost, serveHttp } from './mcp/http.js';
export type { HttpHandle, HttpServeOptions } from './mcp/http.js';
export { createRateLimiter } from './mcp/rate-limit.js';
export type { RateLimiter, RateLimitOptions } from './mcp/rate-limit.js';
export { handleShutdown, parseServeFlags } from './cli.js';
export type { ServeFlags, ServeFlagValues, Shutdown, ShutdownOptions } from './cli.js';
