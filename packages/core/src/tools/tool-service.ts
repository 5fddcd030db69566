/**
 * Tools: the behaviour behind `tools/call` (here), with each call's arguments checked against the
 * tool's schema first (`tool-arguments.ts`), independent of any transport or SDK.
 */
import type { Catalog } from '../catalog/catalog.js';
import { findOrSuggest } from '../catalog/catalog.js';
import { createDeadlines } from '../deadlines/deadlines.js';
import { describeError, isPromptyardError, PromptyardError } from '../errors/errors.js';
import type { Logger } from '../logging/logger.js';
import { cutNote, truncateUtf8 } from '../text/text.js';
import { validateToolArguments } from './tool-arguments.js';
import type { ToolDefinition, ToolResult } from '../contracts/tools.js';
import { textResult } from '../contracts/tools.js';

export interface ToolServiceOptions {
  readonly catalog: Catalog<ToolDefinition>;
  readonly logger: Logger;
  /** How long one call may take (`[timeouts] tool_ms`), unless the tool declares a longer limit. */
  readonly timeoutMs: number;
  /** Results whose text is larger than this (UTF-8 bytes) are cut, with a note saying so. */
  readonly maxResponseBytes: number;
  /**
   * Tools left unlisted for want of a setting (a search tool without its API key): a call to one
   * is refused like an unknown tool (`TOOL_NOT_FOUND`), but its message names the setting that
   * enables it instead of suggesting other names.
   */
  readonly unlisted?: readonly UnlistedTool[];
}

export interface UnlistedTool {
  readonly name: string;
  /** The setting that has it listed, e.g. `SERPER_API_KEY` (also in the error's data). */
  readonly setting: string;
  /** What a call is told: what the tool lacks and how to enable it. */
  readonly message: string;
}

export interface ToolService {
  readonly catalog: Catalog<ToolDefinition>;
  /** Looks a tool up, or throws `TOOL_NOT_FOUND` naming the closest known names (or, for an unlisted one, the setting it lacks). */
  find(name: string): ToolDefinition;
  /**
   * Runs a tool. Unknown names throw (a protocol error); everything a model should see — invalid
   * arguments, failures, timeouts — comes back as a result with `isError: true`.
   */
  call(name: string, args: Readonly<Record<string, unknown>> | undefined, signal?: AbortSignal): Promise<ToolResult>;
}

const capResult = (result: ToolResult, maxBytes: number): ToolResult => {
  let remaining = maxBytes;
  let cut = false;
  const content = result.content.map((item) => {
    const bytes = Buffer.byteLength(item.text, 'utf8');
    if (bytes <= remaining) {
      remaining -= bytes;
      return item;
    }
    cut = true;
    const text = truncateUtf8(item.text, remaining);
    remaining = 0;
    return { type: 'text' as const, text };
  });
  if (!cut) return result;
  const note = { type: 'text' as const, text: cutNote(maxBytes, '[limits] max_response_bytes') };
  const kept = content.filter((item) => item.text !== '');
  return { content: [...kept, note], ...(result.isError === true ? { isError: true } : {}) };
};

const argumentLengths = (args: Readonly<Record<string, unknown>>): string | undefined => {
  const parts = Object.entries(args).map(([key, value]) => {
    const length = typeof value === 'string' ? value.length : Array.isArray(value) ? value.length : String(value).length;
    return `${key}:${length}`;
  });
  return parts.length > 0 ? parts.join(',') : undefined;
};

/** The behaviour behind `tools/list` and `tools/call`, independent of any transport or SDK. */
export const createToolService = (options: ToolServiceOptions): ToolService => {
  const { catalog, logger, timeoutMs, maxResponseBytes } = options;
  const withDeadline = createDeadlines(timeoutMs);

  const unlisted = new Map((options.unlisted ?? []).map((tool) => [tool.name, tool]));

  const find = (name: string): ToolDefinition => {
    const hidden = catalog.get(name) === undefined ? unlisted.get(name) : undefined;
    if (hidden !== undefined) throw new PromptyardError('TOOL_NOT_FOUND', hidden.message, { data: { name, setting: hidden.setting } });
    return findOrSuggest(catalog, name, 'TOOL_NOT_FOUND');
  };

  return {
    catalog,
    find,
    call: async (name, given, clientSignal) => {
      const tool = find(name);
      const args = given ?? {};
      const started = performance.now();
      const log = (outcome: string): void =>
        logger.info('tools/call', { tool: name, args: argumentLengths(args), outcome, ms: Math.round(performance.now() - started) });

      const problems = validateToolArguments(tool.inputSchema, args);
      if (problems.length > 0) {
        log('invalid arguments');
        return textResult(`Invalid arguments for tool "${name}": ${problems.join('; ')}.`, true);
      }
      // A tool with its own limit gets a second more, so its own, more specific message wins.
      const limit = Math.max(timeoutMs, tool.timeoutMs === undefined ? 0 : tool.timeoutMs + 1000);
      try {
        const result = await withDeadline(
          () =>
            new PromptyardError(
              'TIMEOUT',
              `Tool "${name}" did not finish within ${limit / 1000} s${limit === timeoutMs ? ' ([timeouts] tool_ms)' : ''}; try again, narrow the request or raise the limit.`,
            ),
          (deadline) =>
            tool.execute(args, {
              signal: clientSignal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, clientSignal]),
              logger,
            }),
          limit,
        );
        log(result.isError === true ? 'error' : 'ok');
        return capResult(result, maxResponseBytes);
      } catch (error) {
        if (clientSignal?.aborted === true) {
          log('cancelled');
          return textResult(`Tool "${name}" was cancelled by the client.`, true);
        }
        log(isPromptyardError(error) && error.code === 'TIMEOUT' ? 'timeout' : 'failed');
        return textResult(describeError(error), true);
      }
    },
  };
};
