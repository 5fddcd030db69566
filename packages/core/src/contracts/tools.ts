import type { Logger } from '../logging/logger.js';
import type { TextContent } from './types.js';

/**
 * The tool contract: what a package implements to add a tool, independent of the MCP SDK. The
 * server turns the definition into a `tools/list` entry and runs `execute` on `tools/call`.
 */

/** The JSON Schema subset tool arguments use: flat objects of primitives, string lists and string maps. */
export type ToolPropertySchema =
  | {
      readonly type: 'string';
      readonly description?: string;
      readonly enum?: readonly string[];
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly default?: string;
    }
  | {
      readonly type: 'integer' | 'number';
      readonly description?: string;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    }
  | { readonly type: 'boolean'; readonly description?: string; readonly default?: boolean }
  | {
      /** A map of names to string values (prompt arguments); numbers and booleans are accepted as text. */
      readonly type: 'object';
      readonly description?: string;
      readonly additionalProperties: { readonly type: 'string' };
    }
  | {
      readonly type: 'array';
      readonly description?: string;
      readonly items: { readonly type: 'string'; readonly maxLength?: number };
      readonly maxItems?: number;
    };

export interface ToolInputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, ToolPropertySchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
}

/** Hints for clients; the MCP spec's `ToolAnnotations`. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolResult {
  readonly content: readonly TextContent[];
  /** A failure the model should see and may act on (bad input, an upstream service error). */
  readonly isError?: boolean;
}

export interface ToolContext {
  /** Aborts when the client cancels the call or the tool deadline passes. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * The longest one call may need, enforced by the tool itself. The server's deadline is the larger
   * of this (plus a second of grace) and `[timeouts] tool_ms`, so a tool with its own longer limit
   * (deep research) is not cut short and its own timeout message is the one a client sees.
   */
  readonly timeoutMs?: number;
  /** `args` have been validated against `inputSchema`. Thrown errors become `isError` results. */
  execute(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult>;
}

export type ToolFactory<Options> = (options: Options) => ToolDefinition;

/** A package's tools, as `createToolProvider` returns them. */
export interface ToolProvider {
  readonly tools: readonly ToolDefinition[];
  /** Releases what the tools hold (connections, timers) when the server stops. */
  close?(): Promise<void>;
}

/** The MCP specification's tool names: 1 to 128 ASCII letters, digits, `_`, `-` and `.`. */
export const isValidToolName = (name: string): boolean => /^[A-Za-z0-9_.-]{1,128}$/.test(name);

/** A one-item text result. */
export const textResult = (text: string, isError = false): ToolResult =>
  isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
