import type { McpRelay } from '../handlers.js';
import type { McpTracing, RequestSpan, TraceContext } from './tracing-types.js';

type Handler = (request: never, ctx: never) => unknown;

/** The SDK's view of a request, as far as its span goes. */
interface TracedCtx {
  readonly sessionId?: string | undefined;
  readonly mcpReq: { readonly id: string | number; readonly envelope?: Readonly<Record<string, unknown>> | undefined };
}

const isToolError = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;

/** `error.type` of a failure: its JSON-RPC code (the SDK answers an error without one as an internal error, -32603). */
const errorTypeOf = (error: unknown): string => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? String(code) : '-32603';
};

/** `error.type` of a JSON-RPC response: its error's code, `tool_error` for an `isError` result, nothing when it succeeded. */
export const responseErrorType = (response: Readonly<Record<string, unknown>>): string | undefined => {
  const error = response['error'] as { code?: unknown } | undefined;
  if (error !== undefined) return errorTypeOf(error);
  return isToolError(response['result']) ? 'tool_error' : undefined;
};

/**
 * A handler in a SERVER span: its context is kept for the request (`traces`, by the SDK's context
 * object) so that what the handler does — a gateway's backend calls — joins the same trace.
 */
export const tracedHandler = <H extends Handler>(
  tracing: McpTracing,
  method: string,
  handler: H,
  traces: WeakMap<object, TraceContext>,
  versionKey: string,
): H =>
  ((request: never, ctx: never) => {
    const { mcpReq, sessionId } = ctx as TracedCtx;
    const version = mcpReq.envelope?.[versionKey];
    const span = tracing.request({
      method,
      params: (request as { params?: Readonly<Record<string, unknown>> }).params,
      id: mcpReq.id,
      sessionId,
      protocolVersion: typeof version === 'string' ? version : undefined,
    });
    traces.set(ctx, span.context);
    let answer: unknown;
    try {
      answer = handler(request, ctx);
    } catch (error) {
      span.end(errorTypeOf(error));
      throw error;
    }
    if (!(answer instanceof Promise)) {
      span.end(isToolError(answer) ? 'tool_error' : undefined);
      return answer;
    }
    return answer.then(
      (result: unknown) => {
        span.end(isToolError(result) ? 'tool_error' : undefined);
        return result;
      },
      (error: unknown) => {
        span.end(errorTypeOf(error));
        throw error;
      },
    );
  }) as H;

/**
 * The relay's requests in SERVER spans, as on the SDK path. A span starts only when the relay takes
 * the request (it asks for the context then): a request it declines gets its span on the full path.
 */
export const tracedRelay = (relay: McpRelay, tracing: McpTracing): McpRelay => ({
  methods: relay.methods,
  open: (client) => {
    const channel = relay.open(client);
    return {
      offer: (message, reply) => {
        const id = message['id'];
        const method = message['method'];
        if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number') || !relay.methods.includes(method))
          return channel.offer(message, reply);
        let span: RequestSpan | undefined;
        const params = message['params'] as Readonly<Record<string, unknown>> | undefined;
        return channel.offer(
          message,
          (response) => {
            span?.end(responseErrorType(response));
            reply(response);
          },
          () => (span ??= tracing.request({ method, params, id })).context,
        );
      },
      close: () => channel.close(),
    };
  },
});
