/**
 * The catalog handlers: promptyard-server's prompt, tool and resource services described as
 * `McpHandlers` — the wire form of entries, list pages cut to a size budget and kept per catalog
 * version, and the content digests replicas compare.
 */
import type {
  Catalog,
  Logger,
  PromptArgument,
  PromptEntry,
  PromptService,
  ResourceService,
  ToolDefinition,
  ToolService,
} from '@promptyard/core';
import { createContentDigest, type ContentDigest } from './content-digest.js';
import type { JsonObject, ListKind, ListPage, McpHandlers, SerializedListPage } from '../handlers.js';

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

/**
 * A list page also ends before ~96 KB of JSON. Measured on 10,000 prompts (~400 bytes each in a
 * listing) with the SDK client over stdio, full paged list: 300-item pages (~118 KB) 85–93 ms,
 * 500-item pages (~197 KB) 144–158 ms — past V8's 128 KB regular-object limit every message string
 * is a large object, and the whole listing got ~1.6× slower.
 */
const pageBudgetChars = 96 * 1024;

/**
 * Page boundaries found once per catalog version and cursor (weighing every entry as JSON), then
 * shared by every request. A page keeps its entries, not their wire form: mapping 250 entries again
 * costs ~0.1 ms a page, while keeping the mapped copies of every page held ~0.4 KB a prompt
 * (measured: 10,000 prompts listed in full, bench/prompts.bench.ts).
 *
 * A page's JSON text, asked for by the stdio fast path, is kept once made (until the catalog
 * changes): serialising a 96 KB page was ~0.5 ms of the server's ~0.8 ms per page (CPU profile of
 * full listings of 10,000 prompts), while the text of every page holds ~0.4 KB a prompt — a string,
 * one object a page, where the mapped copies were a dozen objects a prompt for the collector to walk.
 */
const createPageCache = <E extends { readonly name: string }>(
  catalog: Catalog<E>,
  map: (entry: E) => JsonObject,
  pageSize: number | undefined,
) => {
  const pages = new Map<string, { readonly entries: readonly E[]; readonly nextCursor: string | undefined; json?: string }>();
  let cachedVersion = -1;
  const find = (cursor: string | undefined) => {
    if (cachedVersion !== catalog.version) {
      pages.clear();
      cachedVersion = catalog.version;
    }
    const key = cursor ?? '';
    let page = pages.get(key);
    if (page === undefined) {
      const weigh = (entry: E): number => JSON.stringify(map(entry)).length;
      const listed = catalog.list({ cursor, pageSize, budget: { weigh, maxWeight: pageBudgetChars } });
      page = { entries: listed.items, nextCursor: listed.nextCursor };
      if (pages.size < 1000) pages.set(key, page);
    }
    return page;
  };
  return {
    page: (cursor: string | undefined): ListPage => {
      const page = find(cursor);
      return { items: page.entries.map(map), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    },
    serialized: (cursor: string | undefined): SerializedListPage => {
      const page = find(cursor);
      page.json ??= JSON.stringify(page.entries.map(map));
      return { items: page.json, nextCursor: page.nextCursor };
    },
  };
};

/**
 * promptyard-server's catalogs as MCP handlers: paged `prompts/list` and `tools/list`, `prompts/get`
 * and `tools/call` through the services (defaults, limits, deadlines), resources routed by scheme,
 * completion of prompt arguments and resource templates, and the server's warnings as log notifications.
 */
export const createCatalogHandlers = (options: CatalogHandlersOptions): McpHandlers => {
  const { logger, prompts, tools, resources, pageSize } = options;
  const promptPages = createPageCache(prompts.catalog, toPrompt, pageSize);
  const toolPage = tools === undefined ? undefined : createPageCache(tools.catalog, toTool, pageSize).page;
  const empty = { completion: { values: [], total: 0, hasMore: false } };
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
    complete: async ({ ref, argument, context }) => {
      if (ref.type === 'ref/resource')
        return { completion: (await resources?.complete(ref.uri ?? '', argument.name, argument.value)) ?? empty.completion };
      if (ref.type !== 'ref/prompt') return empty;
      const result = prompts.complete(ref.name ?? '', argument.name, argument.value, context?.arguments ?? {});
      return { completion: { values: [...result.values], total: result.total, hasMore: result.hasMore } };
    },
    // Warnings reach live clients as notifications/message; a client's logging/setLevel lowers the bar.
    logs: {
      defaultLevel: 'warning',
      subscribe: (listener) =>
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
        ),
    },
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
