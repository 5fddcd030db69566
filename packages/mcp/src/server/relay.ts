import type { Metrics } from '@promptyard/core';
import type { McpHandlers, McpRelay } from '../handlers.js';
import type { ServerSdk } from '../sdk.js';
import { createPromptRelay, joinRelays } from '../stdio/prompt-relay.js';
import { instrumentRelay } from '../telemetry/instrument.js';
import type { McpTracing } from '../telemetry/tracing-types.js';

/**
 * The blueprint's relay: the prompt relay first when the handlers' `get` needs its signal alone, then
 * the handlers' own relay; timed and traced when metrics and traces are on.
 */
export const assembleRelay = (
  handlers: McpHandlers,
  sdk: typeof ServerSdk,
  metrics: Metrics | undefined,
  tracing: McpTracing | undefined,
): McpRelay | undefined =>
  instrumentRelay(
    handlers.prompts.getNeedsSignalOnly === true
      ? joinRelays(createPromptRelay(handlers, sdk, handlers.logger), handlers.relay)
      : handlers.relay,
    metrics,
    tracing,
  );
