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
export type { AccessDecision, AccessKind, AccessPolicy, AuthOutcome, AuthRefusal, Authenticator, Identity } from './identity.js';
export { createLogger, isLogLevel, logLevelAtLeast, logLevels, silentLogger } from './logger.js';
export type { LogFields, LogLevel, LogRecord, Logger, LoggerOptions } from './logger.js';
export { createCatalog, findOrSuggest } from './catalog.js';
export type {
  Catalog,
  CatalogChange,
  CatalogConflict,
  CatalogDelta,
  CatalogListOptions,
  CatalogOptions,
  CatalogOwner,
  CatalogPage,
  Named,
} from './catalog.js';
export { envName, loadConfig, locateKey, resolveConfig } from './config.js';
export type { ConfigOf, ConfigSchema, FieldSpec, LoadConfigOptions, LoadedConfig, SectionSpec } from './config.js';
export { closestNames, didYouMean, formatList } from './suggest.js';
export type { HintForm } from './suggest.js';
export { capText, cutNote, truncateUtf8 } from './text.js';
export { isPathInside, locateReal, resolveInside, resolveInsideSync } from './paths.js';
export type { RealLocation } from './paths.js';
export { createPromptService } from './prompt-service.js';
export type { CompletionResult, PromptLimits, PromptService, PromptServiceOptions } from './prompt-service.js';
export type { PromptSource, PromptSourceDelta } from './prompt-sources.js';
export type { SkillTree, SkillTreeEntry } from './skills.js';
export type { ResourceContents, ResourceInfo, ResourceProvider, ResourceTemplateInfo } from './resources.js';
export { createResourceService } from './resource-service.js';
export type { ResourceCompletion, ResourceService, ResourceServiceOptions } from './resource-service.js';
export { isValidToolName, textResult } from './tools.js';
export type {
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolFactory,
  ToolInputSchema,
  ToolPropertySchema,
  ToolProvider,
  ToolResult,
} from './tools.js';
export { validateToolArguments } from './tool-arguments.js';
export { createToolService } from './tool-service.js';
export type { ToolService, ToolServiceOptions } from './tool-service.js';
export type {
  PromptSourceFactory,
  ProviderContext,
  ProviderModule,
  ProviderOptions,
  ResourceProviderFactory,
  ToolProviderFactory,
} from './providers.js';
export { clusterSection, standaloneStreamId } from './cluster.js';
export type {
  ChangeBus,
  ChangeEvent,
  Cluster,
  ClusterStatus,
  JsonRpcMessage,
  SessionEvent,
  SessionEventStore,
  SessionRecord,
} from './cluster.js';
export { outcomeOfCode, telemetrySection } from './metrics.js';
export type { BackendSample, Metrics, MetricsScrape, RequestDone, RequestOutcome } from './metrics.js';
