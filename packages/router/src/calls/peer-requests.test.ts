import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { CallWindow } from './call-window.js';
import { PeerRequests } from './peer-requests.js';
import type { ClientPeer } from '@promptyard/mcp';

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
    upstreamFor: async () => upstream,
    connections: () => [upstream],
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

describe('PeerRequests.ask, with a server reached at both revisions', () => {
  it('asks the 2025-11-25 caller on the session, though a 2026-07-28 call is in flight on the primary', async () => {
    const primary = { era: 'modern' };
    const session = { era: 'legacy' };
    const backend = {
      ...readyBackend(),
      calls: new CallWindow(),
      upstreamFor: async (peer: ClientPeer | undefined) => (peer?.revision === '2025-11-25' ? session : primary),
    } as unknown as Backend;
    const asked: string[] = [];
    const client = (label: string, revision: ClientPeer['revision']): ClientPeer => ({
      label,
      session: {},
      revision,
      elicitation: async () => {
        asked.push(label);
        return { action: 'accept' };
      },
    });
    const peers = new PeerRequests();
    let finish = (): void => {};
    const modern = peers.forward(
      backend,
      target,
      1000,
      { peer: client('modern', '2026-07-28') },
      () =>
        new Promise<object>((resolve) => {
          finish = () => resolve({});
        }),
    );
    // The server asks from its 2025-11-25 session, outside any call's flow, while the legacy call runs.
    const legacy = peers.forward(backend, target, 1000, { peer: client('legacy', '2025-11-25') }, async (upstream) => {
      expect(upstream).toBe(session);
      return peers.ask(backend, 'elicitation', (peer) => peer.elicitation?.({}));
    });
    await expect(legacy).resolves.toEqual({ action: 'accept' });
    expect(asked).toEqual(['legacy']);
    finish();
    await modern;
  });
});
