import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { PeerRequests } from './peer-requests.js';
import { ResourceSubscriptions } from './resource-calls.js';
import { CallWindow } from './call-window.js';

/** The part of a backend subscriptions touch: its upstream's subscribe/unsubscribe, scripted. */
const backend = (outcomes: ('ok' | 'fail')[], era: 'legacy' | 'modern' = 'legacy', subscribe = true) => {
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
    era,
    inFlight: 0,
    calls: new CallWindow(),
    capabilities: { resources: subscribe ? { subscribe: true } : {} },
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

  it('refuses a subscription a 2025-era server does not offer, and hands one a 2026-07-28 server does not offer to its connection (which polls)', async () => {
    const subscriptions = new ResourceSubscriptions(new PeerRequests());
    const legacy = backend(['ok'], 'legacy', false);
    await expect(subscriptions.subscribe({ backend: legacy.backend, uri: 'test://a' }, 1000)).rejects.toThrow(
      /Server "alpha" does not support resource subscriptions/,
    );
    expect(legacy.calls).toEqual([]);
    const modern = backend(['ok'], 'modern', false);
    await subscriptions.subscribe({ backend: modern.backend, uri: 'test://a' }, 1000);
    expect(modern.calls).toEqual(['subscribe test://a']);
  });
});
