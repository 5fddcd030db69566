import { outcomeOfCode } from '@promptyard/core';
import type { Metrics, RequestOutcome } from '@promptyard/core';
import type { McpRelay } from '../handlers.js';

type Handler = (request: never, ctx: never) => unknown;

const outcomeOfResult = (result: unknown): RequestOutcome =>
  typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true ? 'tool_error' : 'ok';

/** A thrown error's class: the SDK answers an error without a JSON-RPC code as an internal error. */
const outcomeOfError = (error: unknown): RequestOutcome => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? outcomeOfCode(code) : 'internal_error';
};

/** A handler timed into `metrics`, its answer and errors passed on untouched. */
export const timedHandler = <H extends Handler>(metrics: Metrics, method: string, handler: H): H =>
  ((request: never, ctx: never) => {
    const done = metrics.request(method);
    let answer: unknown;
    try {
      answer = handler(request, ctx);
    } catch (error) {
      done(outcomeOfError(error));
      throw error;
    }
    if (!(answer instanceof Promise)) {
      done(outcomeOfResult(answer));
      return answer;
    }
    return answer.then(
      (result: unknown) => {
        done(outcomeOfResult(result));
        return result;
      },
      (error: unknown) => {
        done(outcomeOfError(error));
        throw error;
      },
    );
  }) as H;

/** The relay's requests, timed like the SDK path's: the relay answers them before any handler sees them. */
export const timedRelay = (relay: McpRelay, metrics: Metrics): McpRelay => ({
  methods: relay.methods,
  open: (client) => {
    const channel = relay.open(client);
    return {
      offer: (message, reply, trace) => {
        const method = message['method'];
        if (typeof method !== 'string' || message['id'] === undefined || !relay.methods.includes(method))
          return channel.offer(message, reply, trace);
        const done = metrics.request(method);
        return channel.offer(
          message,
          (response) => {
            const error = response['error'] as { code?: unknown } | undefined;
            done(error === undefined ? outcomeOfResult(response['result']) : outcomeOfCode(error.code));
            reply(response);
          },
          trace,
        );
      },
      close: () => channel.close(),
    };
  },
});
