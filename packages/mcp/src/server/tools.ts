import { toolErrorResult, toProtocolError } from '../errors.js';
import type { McpHandlers } from '../handlers.js';
import type { Adapter, Instance } from './adapter.js';
import { callerOf, governed, listed, multiRound } from './adapter.js';

/** `tools/list` and `tools/call`; failures a model should read come back as `isError` results. */
export const registerTools = (adapter: Adapter, instance: Instance, tools: NonNullable<McpHandlers['tools']>): void => {
  const { sdk, guard, failed, handlers } = adapter;
  instance.server.setRequestHandler('tools/list', (request, ctx) =>
    listed(adapter, 'tools', () => tools.list(request.params?.cursor, callerOf(ctx)), failed['tools/list'], ctx),
  );
  instance.server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const caller = governed(adapter, ctx);
    try {
      guard?.check('tool', name, caller, request.params.arguments);
      return (await multiRound(adapter, instance, ctx, `tools/call "${name}"`, (context) =>
        tools.call(name, request.params.arguments, context),
      )) as never;
    } catch (thrown) {
      const error = guard === undefined ? thrown : guard.conceal(thrown, 'tool', name, caller);
      const result = toolErrorResult(error);
      if (result !== undefined) return result as never;
      throw toProtocolError(sdk, error, handlers.logger, 'tools/call');
    }
  });
};
