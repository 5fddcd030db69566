import type { Server } from '@modelcontextprotocol/server';
import type { Adapter } from './adapter.js';

/**
 * `resources/subscribe` and `resources/unsubscribe`: each connection subscribes to a URI once, and
 * the returned set holds what it subscribed to; a live connection's subscriptions end with it. (A
 * stateless request's subscription stays with the handlers: it has no connection to end.)
 */
export const registerSubscriptions = (adapter: Adapter, server: Server): Set<string> => {
  const subscribed = new Set<string>();
  const subscriptions = adapter.handlers.resources?.subscriptions;
  if (subscriptions === undefined) return subscribed;
  const { failed } = adapter;
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    if (!subscribed.has(uri)) {
      await subscriptions.subscribe(uri).catch(failed['resources/subscribe']);
      subscribed.add(uri);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    if (subscribed.delete(request.params.uri)) await subscriptions.unsubscribe(request.params.uri).catch(failed['resources/unsubscribe']);
    return {};
  });
  return subscribed;
};
