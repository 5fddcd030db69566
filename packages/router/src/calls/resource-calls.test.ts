import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { PeerRequests } from './peer-requests.js';
import { ResourceSubscriptions } from './resource-calls.js';
import { CallWindow } from './call-window.js';

/** The part of a backend subscriptions touch: its upstream's subscribe/unsubscribe, scripted. */
const backend = (outcomes: ('ok' | 'fail')[]) => {
  const calls: string[] = [];
  const upstream = {
    subscribe: async (uri: string) => {
      calls.push(`subscribe ${uri}`);
      if (outcomes.shift() === 'fail') throw Object.assign(new Error('subscription refused'), { code: -32603 });
    },
    unsubscribe: async (uri: string) => void calls.push(`unsubscribe ${uri}`),
  };
  const stub = {
    id: 'alpha',
    state: 'ready',
    era: 'legacy',
    inFlight: 0,
    calls: new CallWindow(),
    capabilities: { resources: { subscribe: true } },
    upstream,
    upstreamOrUndefined: () => upstream,
  };
  return { backend: stub as unknown as Backend, calls };
};

describe('ResourceSubscriptions', () => {
  it('subscribes upstream for the first client and unsubscribes after the last', async () => {
    const { backend: alpha, calls } = backend(['ok']);
    const subscriptions = new ResourceSubscriptions(new PeerRequests());
    const target = { backend: alpha, uri: 'test://a' };
    await Promise.all([subscriptions.subscribe(target, 1000), subscriptions.subscribe(target, 1000)]);
    await subscriptions.unsubscribe(target, 1000);
    expect(calls).toEqual(['subscribe test://a']);
    await subscriptions.unsubscribe(target, 1000);
    expect(calls).toEqual(['subscribe test://a', 'unsubscribe test://a']);
  });

  it('does not count a subscription that failed: every client waiting on it fails, and the next one tries again', async () => {
    const { backend: alpha, calls } = backend(['fail', 'ok']);
    const subscriptions = new ResourceSubscriptions(new PeerRequests());
    const target = { backend: alpha, uri: 'test://a' };
    const outcomes = await Promise.allSettled([subscriptions.subscribe(target, 1000), subscriptions.subscribe(target, 1000)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await subscriptions.subscribe(target, 1000);
    expect(calls).toEqual(['subscribe test://a', 'subscribe test://a']);
    await subscriptions.unsubscribe(target, 1000);
    expect(calls.at(-1)).toBe('unsubscribe test://a');
  });
});
