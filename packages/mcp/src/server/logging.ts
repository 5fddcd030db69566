import type { LoggingLevel, Server } from '@modelcontextprotocol/server';
import type { McpHandlers, McpLogLevel } from '../handlers.js';
import type { Adapter } from './adapter.js';

const levels: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const levelRank = (level: McpLogLevel): number => levels.indexOf(level);

/** A connection's level: it hears log records at or above it. */
export interface ClientLevel {
  current: McpLogLevel | undefined;
}

/**
 * `logging/setLevel`: the connection's level is the handlers' default until it sends one. Stateless
 * requests have no connection to hear records, but may still set the level.
 */
export const registerLogging = (adapter: Adapter, server: Server): ClientLevel => {
  const { handlers, failed } = adapter;
  const level: ClientLevel = { current: handlers.logs.defaultLevel };
  server.setRequestHandler('logging/setLevel', async (request) => {
    level.current = request.params.level;
    await handlers.setLogLevel?.(request.params.level).catch(failed['logging/setLevel']);
    return {};
  });
  return level;
};

/** The handlers' log records, sent to a live connection as `notifications/message` at or above its level; returns the stop. */
export const forwardLogs = (handlers: McpHandlers, server: Server, level: ClientLevel): (() => void) =>
  handlers.logs.subscribe((record) => {
    if (level.current !== undefined && levelRank(record.level) < levelRank(level.current)) return;
    const params = {
      level: record.level as LoggingLevel,
      data: record.data,
      ...(record.logger === undefined ? {} : { logger: record.logger }),
    };
    server.sendLoggingMessage(params).catch(() => {});
  });
