import type { LoggingLevel, McpServerFactory, Server } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog.js';
import type { Logger, LogLevel, LogRecord } from '../logger.js';
import { logLevelAtLeast } from '../logger.js';
import type { PromptService } from '../prompt-service.js';
import type { PromptEntry } from '../types.js';
import { toProtocolError } from './errors.js';
import { loadServerSdk } from './sdk.js';

export interface McpServerOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  readonly logger: Logger;
  readonly prompts: PromptService;
  /** `prompts/list` page size. */
  readonly pageSize?: number;
}

/** What the serving entries need: a factory for fresh instances, and change events to push. */
export interface McpServerBlueprint {
  /** Builds one instance; `live` instances (stdio, sessions) push notifications until closed. */
  create(options: { readonly live: boolean }): Server;
  readonly factory: (live: boolean) => McpServerFactory;
  /** Fires when any catalog changes, for entries that publish changes themselves. */
  onPromptsChanged(listener: () => void): () => void;
  readonly logger: Logger;
}

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

/**
 * The one place a catalog meets an MCP server: list/get/complete handlers, the `listChanged`,
 * `completions` and `logging` capabilities, and notifications for long-lived instances.
 */
export const createMcpServerBlueprint = async (options: McpServerOptions): Promise<McpServerBlueprint> => {
  const sdk = await loadServerSdk();
  const { logger, prompts } = options;
  const catalog: Catalog<PromptEntry> = prompts.catalog;
  // prompts/list results are serialised once per catalog version and page, then shared.
  const pageCache = new Map<string, ReturnType<typeof buildPage>>();
  let cachedVersion = -1;
  const buildPage = (cursor: string | undefined) => {
    const page = catalog.list({ cursor, pageSize: options.pageSize });
    return { prompts: page.items.map(toPrompt), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
  };
  const listPage = (cursor: string | undefined) => {
    if (cachedVersion !== catalog.version) {
      pageCache.clear();
      cachedVersion = catalog.version;
    }
    const key = cursor ?? '';
    let page = pageCache.get(key);
    if (page === undefined) {
      page = buildPage(cursor);
      if (pageCache.size < 1000) pageCache.set(key, page);
    }
    return page;
  };

  const create = ({ live }: { readonly live: boolean }): Server => {
    const server = new sdk.Server(
      { name: options.name, version: options.version },
      {
        capabilities: { prompts: { listChanged: true }, completions: {}, logging: {} },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );

    server.setRequestHandler('prompts/list', async (request) => {
      try {
        const page = listPage(request.params?.cursor);
        return { ...page, prompts: [...page.prompts] };
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

    server.setRequestHandler('completion/complete', async (request) => {
      try {
        const { ref, argument } = request.params;
        if (ref.type !== 'ref/prompt') return { completion: { values: [], total: 0, hasMore: false } };
        const result = prompts.complete(ref.name, argument.name, argument.value);
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
      const unsubscribeChanges = catalog.onChange(() => {
        server.sendPromptListChanged().catch(() => {});
      });
      const previousOnClose = server.onclose;
      server.onclose = () => {
        unsubscribeLogs();
        unsubscribeChanges();
        previousOnClose?.();
      };
    }
    return server;
  };

  return {
    create,
    factory: (live) => () => create({ live }),
    onPromptsChanged: (listener) => catalog.onChange(() => listener()),
    logger,
  };
};
