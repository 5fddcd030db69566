import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import type { McpTracing } from './tracing-types.js';

/**
 * MCP tracing over `tracer`. Loaded on demand, so that a process that exports no traces never
 * evaluates `@opentelemetry/api` at all.
 */
export const loadMcpTracing = async (tracer: Tracer, propagator?: TextMapPropagator): Promise<McpTracing> => {
  const { createMcpTracing } = await import('./tracing.js');
  return createMcpTracing(tracer, propagator);
};
