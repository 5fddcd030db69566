/**
 * The catalog handlers: promptyard-server's prompt, tool and resource services described as
 * `McpHandlers` — the wire form of entries, list pages cut to a size budget and kept per catalog
 * version, and the content digests replicas compare.
 */
import type { Logger, PromptArgument, PromptEntry, PromptService, ResourceService, ToolDefinition, ToolService } from '@promptyard/core';
import { createContentDigest, type ContentDigest } from './content-digest.js';
import type { ClientLogRecord, CompleteParams, JsonObject, ListKind, McpHandlers } from '../handlers.js';
import { createPageCache } from './page-cache.js';

export interface CatalogHandlersOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
  readonly logger: Logger;
  readonly prompts: PromptService;
  /** When given, the server declares `tools` and answers `tools/list` and `tools/call`. */
  readonly tools?: ToolService | undefined;
  /** When given, the server declares `resources` and answers `resources/list`, `resources/templates/list` and `resources/read`. */
  readonly resources?: ResourceService | undefined;
  /** `prompts/list` and `tools/list` page size (the catalogs' own default otherwise). */
  readonly pageSize?: number | undefined;
}

/** The wire form of each argument object, made once: entries share their argument objects. */
const wireArguments = new WeakMap<PromptArgument, JsonObject>();
const toArgument = (argument: PromptArgument): JsonObject => {
  let wire = wireArguments.get(argument);
  if (wire === undefined) {
    wire = {
      name: argument.name,
      ...(argument.title === undefined ? {} : { title: argument.title }),
      ...(argument.description === undefined ? {} : { description: argument.description }),
      required: argument.required,
    };
    wireArguments.set(argument, wire);
  }
  return wire;
};

// Made for every listed entry on every list request (see createPageCache), so it shares what it
// can: the argument objects above and the entry's own `meta` (results are serialised, never changed).
const toPrompt = (entry: PromptEntry): JsonObject => ({
  name: entry.name,
  ...(entry.title === undefined ? {} : { title: entry.title }),
  description: entry.description,
  arguments: entry.arguments.map(toArgument),
  ...(entry.meta === undefined ? {} : { _meta: { ...entry.meta } }),
});

const toTool = (tool: ToolDefinition): JsonObject => ({
  name: tool.name,
  ...(tool.title === undefined ? {} : { title: tool.title }),
  description: tool.description,
  inputSchema: tool.inputSchema,
  ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
});

const empty = { completion: { values: [], total: 0, hasMore: false } };

/** Completion of a prompt's arguments and of a resource template's variables. */
const complete = async (prompts: PromptService, resources: ResourceService | undefined, params: CompleteParams): Promise<JsonObject> => {
  const { ref, argument, context } = params;
  if (ref.type === 'ref/resource')
    return { completion: (await resources?.complete(ref.uri ?? '', argument.name, argument.value)) ?? empty.completion };
  if (ref.type !== 'ref/prompt') return empty;
  const result = prompts.complete(ref.name ?? '', argument.name, argument.value, context?.arguments ?? {});
  return { completion: { values: [...result.values], total: result.total, hasMore: result.hasMore } };
};

/** The server's log records for clients; returns the stop. */
const forwardRecords = (logger: Logger, listener: (record: ClientLogRecord) => void): (() => void) =>
  logger.subscribe((record) =>
    listener({
      level: record.level,
      logger: record.scope,
      // Built only for a connection that hears the record: most are below its level.
      get data() {
        const data: Record<string, unknown> = { message: record.message };
        for (const [key, value] of Object.entries(record.fields)) if (value !== undefined) data[key] = value;
        return data;
      },
    }),
  );

/**
 * promptyard-server's catalogs as MCP handlers: paged `prompts/list` and `tools/list`, `prompts/get`
 * and `tools/call` through the services (defaults, limits, deadlines), resources routed by scheme,
 * completion of prompt arguments and resource templates, and the server's warnings as log notifications.
 */
export const createCatalogHandlers = (options: CatalogHandlersOptions): McpHandlers => {
  const { logger, prompts, tools, resources, pageSize } = options;
  const promptPages = createPageCache(prompts.catalog, toPrompt, pageSize);
  const toolPage = tools === undefined ? undefined : createPageCache(tools.catalog, toTool, pageSize).page;
  // Made on first use: only a cluster asks.
  let promptDigest: ContentDigest | undefined;
  let toolDigest: ContentDigest | undefined;
  return {
    name: options.name,
    version: options.version,
    instructions: options.instructions,
    logger,
    prompts: {
      list: promptPages.page,
      serializedPage: promptPages.serialized,
      get: (name, args, context) =>
        prompts.get(name, args, context.signal).then((rendered) => ({
          ...(rendered.description === undefined ? {} : { description: rendered.description }),
          messages: rendered.messages.map((message) => ({ role: message.role, content: { ...message.content } })),
        })),
      getNeedsSignalOnly: true,
    },
    ...(tools === undefined || toolPage === undefined
      ? {}
      : {
          tools: {
            list: toolPage,
            // Unknown tools are protocol errors (-32602); everything else, invalid arguments included,
            // comes back as an `isError` result the model can read and act on.
            call: (name, args, context) =>
              tools.call(name, args, context.signal).then((result) => ({
                content: result.content.map((item) => ({ ...item })),
                ...(result.isError === true ? { isError: true } : {}),
              })),
          },
        }),
    ...(resources === undefined
      ? {}
      : {
          resources: {
            listChanged: false,
            list: () => ({ items: resources.list().map((resource) => ({ ...resource })) }),
            templates: () => ({ items: resources.templates().map((template) => ({ ...template })) }),
            read: async (uri, context) => ({ contents: (await resources.read(uri, context.signal)).map((item) => ({ ...item })) }),
          },
        }),
    complete: (params) => complete(prompts, resources, params),
    // Warnings reach live clients as notifications/message; a client's logging/setLevel lowers the bar.
    logs: { defaultLevel: 'warning', subscribe: (listener) => forwardRecords(logger, listener) },
    fingerprint: (list) => {
      if (list === 'prompts')
        return (promptDigest ??= createContentDigest(prompts.catalog, (entry) =>
          JSON.stringify([toPrompt(entry), entry.text ?? '']),
        )).value();
      if (list === 'tools' && tools !== undefined)
        return (toolDigest ??= createContentDigest(tools.catalog, (tool) => JSON.stringify(toTool(tool)))).value();
      return undefined;
    },
    onListChanged: (listener: (list: ListKind) => void) => {
      const stopPrompts = prompts.catalog.onChange(() => listener('prompts'));
      const stopTools = tools?.catalog.onChange(() => listener('tools'));
      return () => {
        stopPrompts();
        stopTools?.();
      };
    },
  };
};
