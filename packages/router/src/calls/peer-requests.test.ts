import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { CallWindow } from './call-window.js';
import { PeerRequests } from './peer-requests.js';

/** A ready 2025-era backend: enough of one for `forward`. */
const readyBackend = (): Backend => {
  const upstream = {};
  return {
    id: 'alpha',
    state: 'ready',
    era: 'legacy',
    inFlight: 0,
    calls: new CallWindow(),
    upstream,
    upstreamOrUndefined: () => upstream,
  } as unknown as Backend;
};

const target = { method: 'tools/call', target: 'echo' };

describe('PeerRequests.forward', () => {
  it('counts each call in the backend’s recent calls: an error as failed, isError apart, a cancelled one not at all', async () => {
    const backend = readyBackend();
    const peers = new PeerRequests();
    await peers.forward(backend, target, 1000, {}, async () => ({ content: [] }));
    await peers.forward(backend, target, 1000, {}, async () => ({ content: [], isError: true }));
    const failing = Object.assign(new Error('boom'), { code: -32603 });
    await expect(peers.forward(backend, target, 1000, {}, () => Promise.reject(failing))).rejects.toThrow(/boom/);
    const cancel = new AbortController();
    cancel.abort();
    await expect(
      peers.forward(backend, target, 1000, { signal: cancel.signal }, () => Promise.reject(new Error('cancelled by the client'))),
    ).rejects.toThrow();
    expect(backend.calls.summary()).toMatchObject({ count: 3, failed: 1, toolErrors: 1 });
    expect(backend.inFlight).toBe(0);
  });
});
