import type { Adapter, Instance } from './adapter.js';
import { asResult, callerOf, governed, listed, multiRound } from './adapter.js';

/** `prompts/list` and `prompts/get`, which every server answers. */
export const registerPrompts = (adapter: Adapter, instance: Instance): void => {
  const { handlers, guard, failed } = adapter;
  instance.server.setRequestHandler('prompts/list', (request, ctx) =>
    listed(adapter, 'prompts', () => handlers.prompts.list(request.params?.cursor, callerOf(ctx)), failed['prompts/list'], ctx),
  );
  instance.server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params;
    const caller = governed(adapter, ctx);
    try {
      guard?.check('prompt', name, caller, request.params.arguments);
      return asResult(
        await multiRound(adapter, instance, ctx, `prompts/get "${name}"`, (context) =>
          handlers.prompts.get(name, request.params.arguments, context),
        ),
      );
    } catch (error) {
      return failed['prompts/get'](guard === undefined ? error : guard.conceal(error, 'prompt', name, caller));
    }
  });
};
