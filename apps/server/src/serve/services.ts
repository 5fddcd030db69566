import { createCatalog, createResourceService, createToolService } from '@promptyard/core';
import type { Logger, ResourceService, SkillTree, ToolDefinition, ToolService } from '@promptyard/core';
import { createPromptResources, createPromptSearch, createPromptTools, createSkillTools } from '@promptyard/prompts';
import { createBuiltinResources, createBuiltinTools, unlistedBuiltinTools } from './builtins.js';
import type { ResolvedConfig } from '../config.js';
import type { Library } from '../library/library.js';
import type { ProviderPackage } from '../providers.js';

/** What the tools and resources are made of: the library, its skills and the provider packages. */
export interface ServiceParts {
  readonly library: Library;
  readonly skillTree: SkillTree | undefined;
  readonly packages: readonly ProviderPackage[];
}

/** Built-in tools, then the prompts' fallback tools, then each provider's; undefined when there is none, listed or hidden. */
export const createServedTools = (resolved: ResolvedConfig, logger: Logger, parts: ServiceParts): ToolService | undefined => {
  const { config } = resolved;
  const { fallback } = config;
  const { library, skillTree } = parts;
  const toolCatalog = createCatalog<ToolDefinition>({ kind: 'tool', defaultPageSize: config.prompts.page_size });
  toolCatalog.onConflict(({ name, kept, shadowed }) =>
    logger.warn('duplicate tool name: the first wins (built-in, prompt tools, then [[providers]] in order)', {
      tool: name,
      served: kept,
      ignored: shadowed,
    }),
  );
  toolCatalog.owner('builtin').replace(createBuiltinTools(resolved));
  if (fallback.tools) {
    toolCatalog.owner('prompts').replace([
      ...createPromptTools({
        prompts: library.prompts,
        maxOutputBytes: fallback.max_output_bytes,
        search: createPromptSearch({ catalog: library.catalog }),
      }),
      ...(skillTree === undefined ? [] : createSkillTools({ tree: skillTree, maxOutputBytes: fallback.max_output_bytes })),
    ]);
  }
  for (const loaded of parts.packages)
    if (loaded.tools !== undefined) toolCatalog.owner(`provider ${loaded.label}`).replace(loaded.tools.tools);
  // A search tool hidden for want of its key still declares `tools`, so a call to it is told which setting enables it.
  const unlisted = unlistedBuiltinTools(resolved);
  if (toolCatalog.size === 0 && unlisted.length === 0) return undefined;
  return createToolService({
    catalog: toolCatalog,
    logger: logger.child('tools'),
    timeoutMs: config.timeouts.tool_ms,
    maxResponseBytes: config.limits.max_response_bytes,
    unlisted,
  });
};

/** The prompts as resources (`[fallback] resources`), the built-in providers, then each provider package's. */
export const createServedResources = (resolved: ResolvedConfig, parts: ServiceParts): ResourceService | undefined => {
  const { fallback, timeouts } = resolved.config;
  const providers = [
    ...(fallback.resources ? [createPromptResources({ prompts: parts.library.prompts, maxOutputBytes: fallback.max_output_bytes })] : []),
    ...createBuiltinResources(resolved),
    ...parts.packages.flatMap((loaded) => (loaded.resources === undefined ? [] : [loaded.resources])),
  ];
  // Two providers of one scheme are refused here, at start-up.
  return providers.length === 0 ? undefined : createResourceService(providers, { timeoutMs: timeouts.resource_ms });
};
