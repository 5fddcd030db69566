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
} from './contracts/types.js';
export type { Diagnostic, DiagnosticCode, DiagnosticSeverity, DiagnosticSink } from './contracts/diagnostics.js';
export { PromptyardError, describeError, isInvalidParams, isPromptyardError } from './errors/errors.js';
export type { PromptyardErrorCode, PromptyardErrorOptions } from './errors/errors.js';
export type {
  AccessDecision,
  AccessKind,
  AccessPolicy,
  ApprovalRule,
  AuthOutcome,
  AuthRefusal,
  Authenticator,
  Identity,
} from './contracts/identity.js';
export { createLogger, isLogFormat, isLogLevel, logFormats, logLevelAtLeast, logLevels, silentLogger } from './logging/logger.js';
export type { LogFields, LogFormat, LogLevel, LogRecord, Logger, LoggerOptions } from './logging/logger.js';
export { createCatalog, findOrSuggest } from './catalog/catalog.js';
export type { Catalog, CatalogChange, CatalogConflict, CatalogDelta, CatalogOptions, CatalogOwner, Named } from './catalog/catalog.js';
export type { CatalogListOptions, CatalogPage } from './catalog/catalog-pages.js';
export { loadConfig, resolveConfig } from './config/config.js';
export type { LoadConfigOptions, LoadedConfig } from './config/config.js';
export { envName, isTable } from './config/config-fields.js';
export type { ConfigOf, ConfigSchema, FieldSpec, SectionSpec } from './config/config-fields.js';
export { locateKey } from './config/config-sections.js';
export { configJsonSchema } from './config/json-schema.js';
export type {
  ConfigJsonSchemaOptions,
  DocumentedFieldSpec,
  DocumentedSchema,
  DocumentedSection,
  JsonSchema,
} from './config/json-schema.js';
export { findUnknownEnv, schemaEnvNames } from './config/config-env.js';
export type { UnknownEnvOptions } from './config/config-env.js';
export { describeTomlError, tomlErrorLine, tomlErrorReason, tomlErrorSnippet } from './config/toml-errors.js';
export { closestNames, didYouMean, formatList } from './text/suggest.js';
export { namesWithinEdits } from './text/suggest.js';
export type { HintForm } from './text/suggest.js';
export { capText, cutNote, truncateUtf8 } from './text/text.js';
export { isoTime } from './text/iso-time.js';
export { canonicalDigest, canonicalJson, sha256Hex } from './text/digest.js';
export { AUDIT_DECISIONS } from './contracts/audit.js';
export type { AuditDecision, AuditEntry, AuditTrail } from './contracts/audit.js';
export { writeFileAtomically } from './files/write-atomically.js';
export { isPathInside, locateReal, resolveInside, resolveInsideSync } from './paths/paths.js';
export type { RealLocation } from './paths/paths.js';
export { createPromptService } from './prompts/prompt-service.js';
export type { PromptService, PromptServiceOptions } from './prompts/prompt-service.js';
export type { PromptLimits } from './prompts/prompt-service.js';
export type { CompletionResult } from './prompts/prompt-completion.js';
export type { PromptSource, PromptSourceDelta } from './contracts/prompt-sources.js';
export type { SkillTree, SkillTreeEntry } from './contracts/skills.js';
export type { ResourceContents, ResourceInfo, ResourceProvider, ResourceTemplateInfo } from './contracts/resources.js';
export { createResourceService } from './resources/resource-service.js';
export type { ResourceCompletion, ResourceService, ResourceServiceOptions } from './resources/resource-service.js';
export { isValidToolName, textResult } from './contracts/tools.js';
export type {
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolFactory,
  ToolInputSchema,
  ToolPropertySchema,
  ToolProvider,
  ToolResult,
} from './contracts/tools.js';
export { validateToolArguments } from './tools/tool-arguments.js';
export { createToolService } from './tools/tool-service.js';
export type { ToolService, ToolServiceOptions, UnlistedTool } from './tools/tool-service.js';
export type {
  PromptSourceFactory,
  ProviderContext,
  ProviderModule,
  ProviderOptions,
  ResourceProviderFactory,
  ToolProviderFactory,
} from './contracts/providers.js';
export { clusterSection, standaloneStreamId } from './contracts/cluster.js';
export type {
  ChangeBus,
  ChangeEvent,
  Cluster,
  ClusterStatus,
  JsonRpcMessage,
  SessionEvent,
  SessionEventStore,
  SessionRecord,
  SharedMap,
} from './contracts/cluster.js';
export { outcomeOfCode, telemetrySection } from './contracts/metrics.js';
export type { BackendSample, Metrics, MetricsScrape, RequestDone, RequestOutcome } from './contracts/metrics.js';
