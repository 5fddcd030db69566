import type { LoggingLevel, McpServerFactory, Server, Tool } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog.js';
import type { Logger, LogLevel, LogRecord } from '../logger.js';
import { logLevelAtLeast } from '../logger.js';
import { PromptyardError } from '../errors.js';
import type { PromptService } from '../prompt-service.js';
import type { ResourceProvider } from '../resources.js';
import type { ToolService } from '../tool-service.js';
import type { ToolDefinition } from '../tools.js';
import type { PromptEntry } from '../types.js';
import { toProtocolError } from './errors.js';
import { loadServerSdk } from './sdk.js';

export interface McpServerOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly logger: Logger;
  readonly prompts: PromptService;
  /** When given, the server declares `tools` and answers `tools/list` and `tools/call`. */
  readonly tools?: ToolService;
  /** When given, the server declares `resources` and answers `resources/list`, `resources/templates/list` and `resources/read`. */
  readonly resources?: readonly ResourceProvider[];
  /** `prompts/list` and `tools/list` page size. */
  readonly pageSize?: number;
}

/** What the serving entries need: a factory for fresh instances, and change events to push. */
export interface McpServerBlueprint {
  /** Builds one instance; `live` instances (stdio, sessions) push notifications until closed. */
  create(options: { readonly live: boolean }): Server;
  readonly factory: (live: boolean) => McpServerFactory;
  /** Fires when a served list changes, for entries that publish changes themselves. */
  onListChanged(listener: (list: ListKind) => void): () => void;
  /**
   * Offered every message a stdio client sends, before the SDK sees it: a proxy answers the hot
   * path (a gateway's `tools/call` to a stdio backend) by relaying bytes. Returns true when it took
   * the message; `reply` writes a message to the client.
   */
  readonly relay?: StdioRelay;
  /** Fires when a subscribable resource changed (`notifications/resources/updated`), for stateless entries. */
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  readonly logger: Logger;
}

export interface StdioRelay {
  offer(message: Readonly<Record<string, unknown>>, reply: (message: Readonly<Record<string, unknown>>) => void): boolean;
}

/** The lists whose changes are announced with `notifications/<list>/list_changed`. */
export type ListKind = 'prompts' | 'tools' | 'resources';

const toMcpLevel = (level: LogLevel): LoggingLevel => level;

const toPrompt = (entry: PromptEntry) => ({
  name: entry.name,
  ...(entry.title === undefined ? {} : { title: entry.title }),
  description: entry.description,
  arguments: entry.arguments.map((argument) => ({
    name: argument.name,
    ...(argument.title === undefined ? {} : { title: argument.title }),
    ...(argument.description === undefined ? {} : { description: argument.description }),
    required: argument.required,
  })),
  ...(entry.meta === undefined ? {} : { _meta: { ...entry.meta } }),
});

const toTool = (tool: ToolDefinition): Tool => ({
  name: tool.name,
  ...(tool.title === undefined ? {} : { title: tool.title }),
  description: tool.description,
  // Our schema subset is JSON Schema; the SDK types it as JSON values.
  inputSchema: tool.inputSchema as unknown as Tool['inputSchema'],
  ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
});

interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** List results (prompts/list, tools/list) serialised once per catalog version and page, then shared. */
const createPageCache = <E extends { readonly name: string }, T>(catalog: Catalog<E>, map: (entry: E) => T, pageSize: number | undefined) => {
  const pages = new Map<string, Page<T>>();
  let cachedVersion = -1;
  return (cursor: string | undefined): Page<T> => {
    if (cachedVersion !== catalog.version) {
      pages.clear();
      cachedVersion = catalog.version;
    }
    const key = cursor ?? '';
    let page = pages.get(key);
    if (page === undefined) {
      const listed = catalog.list({ cursor, pageSize });
      page = { items: listed.items.map(map), ...(listed.nextCursor === undefined ? {} : { nextCursor: listed.nextCursor }) };
      if (pages.size < 1000) pages.set(key, page);
    }
    return page;
  };
};

/**
 * The one place a catalog meets an MCP server: list/get/complete handlers, the `listChanged`,
 * `completions` and `logging` capabilities, and notifications for long-lived instances.
 */
export const createMcpServerBlueprint = async (options: McpServerOptions): Promise<McpServerBlueprint> => {
  const sdk = await loadServerSdk();
  const { logger, prompts, tools } = options;
  const providers = options.resources ?? [];
  const providerFor = (uri: string): ResourceProvider => {
    // `url:` has no authority, so match the scheme's colon; `doc://`, `prompt://` match as well.
    const provider = providers.find((candidate) => uri.startsWith(`${candidate.scheme}:`));
    if (provider === undefined) {
      throw new PromptyardError('RESOURCE_NOT_FOUND', `Unknown resource "${uri}": this server serves ${providers.map((candidate) => `${candidate.scheme}://`).join(', ')} URIs; see resources/list.`, { data: { uri } });
    }
    return provider;
  };
  const catalog: Catalog<PromptEntry> = prompts.catalog;
  const promptPage = createPageCache(catalog, toPrompt, options.pageSize);
  const toolPage = tools === undefined ? undefined : createPageCache(tools.catalog, toTool, options.pageSize);

  const create = ({ live }: { readonly live: boolean }): Server => {
    const server = new sdk.Server(
      { name: options.name, version: options.version },
      {
        capabilities: {
          prompts: { listChanged: true },
          ...(tools === undefined ? {} : { tools: { listChanged: true } }),
          ...(providers.length === 0 ? {} : { resources: {} }),
          completions: {},
          logging: {},
        },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );

    server.setRequestHandler('prompts/list', async (request) => {
      try {
        const page = promptPage(request.params?.cursor);
        return { prompts: [...page.items], ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      } catch (error) {
        throw toProtocolError(sdk, error, logger, 'prompts/list');
      }
    });

    server.setRequestHandler('prompts/get', async (request, ctx) => {
      try {
        const rendered = await prompts.get(request.params.name, request.params.arguments, ctx.mcpReq.signal);
        return {
          ...(rendered.description === undefined ? {} : { description: rendered.description }),
          messages: rendered.messages.map((message) => ({ role: message.role, content: { ...message.content } })),
        };
      } catch (error) {
        throw toProtocolError(sdk, error, logger, 'prompts/get');
      }
    });

    if (tools !== undefined && toolPage !== undefined) {
      server.setRequestHandler('tools/list', async (request) => {
        try {
          const page = toolPage(request.params?.cursor);
          return { tools: [...page.items], ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
        } catch (error) {
          throw toProtocolError(sdk, error, logger, 'tools/list');
        }
      });

      // Unknown tools are protocol errors (-32602); everything else, invalid arguments included,
      // comes back as an `isError` result the model can read and act on.
      server.setRequestHandler('tools/call', async (request, ctx) => {
        try {
          const result = await tools.call(request.params.name, request.params.arguments, ctx.mcpReq.signal);
          return {
            content: result.content.map((item) => ({ ...item })),
            ...(result.isError === true ? { isError: true } : {}),
          };
        } catch (error) {
          throw toProtocolError(sdk, error, logger, 'tools/call');
        }
      });
    }

    if (providers.length > 0) {
      server.setRequestHandler('resources/list', async () => {
        try {
          return { resources: providers.flatMap((provider) => provider.list().map((resource) => ({ ...resource }))) };
        } catch (error) {
          throw toProtocolError(sdk, error, logger, 'resources/list');
        }
      });
      server.setRequestHandler('resources/templates/list', async () => {
        try {
          return { resourceTemplates: providers.flatMap((provider) => provider.templates().map((template) => ({ ...template }))) };
        } catch (error) {
          throw toProtocolError(sdk, error, logger, 'resources/templates/list');
        }
      });
      server.setRequestHandler('resources/read', async (request, ctx) => {
        try {
          const contents = await providerFor(request.params.uri).read(request.params.uri, ctx.mcpReq.signal);
          return { contents: contents.map((item) => ({ ...item })) };
        } catch (error) {
          throw toProtocolError(sdk, error, logger, 'resources/read');
        }
      });
    }

    server.setRequestHandler('completion/complete', async (request) => {
      try {
        const { ref, argument } = request.params;
        if (ref.type === 'ref/resource') {
          const provider = providers.find((candidate) => ref.uri.startsWith(`${candidate.scheme}:`));
          const values = (await provider?.complete?.(ref.uri, argument.name, argument.value)) ?? [];
          return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
        }
        if (ref.type !== 'ref/prompt') return { completion: { values: [], total: 0, hasMore: false } };
        const result = prompts.complete(ref.name, argument.name, argument.value, request.params.context?.arguments ?? {});
        return { completion: { values: [...result.values], total: result.total, hasMore: result.hasMore } };
      } catch (error) {
        throw toProtocolError(sdk, error, logger, 'completion/complete');
      }
    });

    if (live) {
      // Warnings reach the client as notifications/message; the client's logging/setLevel lowers the bar.
      let clientLevel: LogLevel = 'warning';
      server.setRequestHandler('logging/setLevel', async (request) => {
        const level = request.params.level;
        clientLevel = level === 'debug' || level === 'info' || level === 'notice' || level === 'warning' ? level : 'error';
        return {};
      });
      const forward = (record: LogRecord): void => {
        if (!logLevelAtLeast(record.level, clientLevel)) return;
        const data: Record<string, unknown> = { message: record.message };
        for (const [key, value] of Object.entries(record.fields)) if (value !== undefined) data[key] = value;
        server.sendLoggingMessage({ level: toMcpLevel(record.level), logger: record.scope, data }).catch(() => {});
      };
      const unsubscribeLogs = logger.subscribe(forward);
      const unsubscribePrompts = catalog.onChange(() => {
        server.sendPromptListChanged().catch(() => {});
      });
      const unsubscribeTools = tools?.catalog.onChange(() => {
        server.sendToolListChanged().catch(() => {});
      });
      const previousOnClose = server.onclose;
      server.onclose = () => {
        unsubscribeLogs();
        unsubscribePrompts();
        unsubscribeTools?.();
        previousOnClose?.();
      };
    }
    return server;
  };

  return {
    create,
    factory: (live) => () => create({ live }),
    onListChanged: (listener) => {
      const unsubscribePrompts = catalog.onChange(() => listener('prompts'));
      const unsubscribeTools = tools?.catalog.onChange(() => listener('tools'));
      return () => {
        unsubscribePrompts();
        unsubscribeTools?.();
      };
    },
    logger,
  };
};
