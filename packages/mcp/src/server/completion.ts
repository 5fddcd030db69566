import type { Adapter, Instance } from './adapter.js';
import { asResult, contextOf, governed } from './adapter.js';

/** `completion/complete` suggests values, but only for what the caller may use: anything else completes to nothing. */
export const registerCompletion = (adapter: Adapter, instance: Instance): void => {
  const { handlers, guard, failed } = adapter;
  instance.server.setRequestHandler('completion/complete', (request, ctx) => {
    const { ref } = request.params;
    const target = ref.type === 'ref/prompt' ? (['prompt', ref.name] as const) : (['resource', ref.uri] as const);
    if (guard !== undefined && !guard.allows(target[0], target[1], governed(adapter, ctx)))
      return Promise.resolve(asResult({ completion: { values: [], total: 0, hasMore: false } }));
    return handlers.complete(request.params, contextOf(adapter, instance, ctx)).then(asResult, failed['completion/complete']);
  });
};
