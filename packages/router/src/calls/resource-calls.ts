import { PromptyardError } from '@promptyard/core';
import type { ResourceTarget } from '../routes/resource-routes.js';
import { rewriteReadResult, uriMapFor } from '../routes/uri-rewrite.js';
import type { ReadResourceResult } from '../sdk/upstream-types.js';
import type { CallContext } from './call-context.js';
import type { PeerRequests } from './peer-requests.js';

export const readResource = async (
  target: ResourceTarget,
  peers: PeerRequests,
  timeoutMs: number,
  context: CallContext,
): Promise<ReadResourceResult> => {
  const result = await peers.forward(target.backend, { method: 'resources/read', target: target.uri }, timeoutMs, context, (options) =>
    target.backend.upstream.readResource(target.uri, options),
  );
  // Contents carry the URI the client asked for, so links between them stay resolvable.
  return rewriteReadResult(result, uriMapFor(target.backend.config.prefix));
};

/** Resource subscriptions, counted per server and URI: the server is subscribed for the first client and unsubscribed after the last. */
export class ResourceSubscriptions {
  private readonly counts = new Map<string, number>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly peers: PeerRequests;

  constructor(peers: PeerRequests) {
    this.peers = peers;
  }

  async subscribe(target: ResourceTarget, timeoutMs: number): Promise<void> {
    const key = `${target.backend.id}\n${target.uri}`;
    const count = this.counts.get(key) ?? 0;
    this.counts.set(key, count + 1);
    try {
      if (count > 0) {
        // The first client's subscription may still be on its way: share its outcome.
        await this.pending.get(key);
        return;
      }
      const subscribing = this.subscribeUpstream(target, timeoutMs);
      this.pending.set(key, subscribing);
      try {
        await subscribing;
      } finally {
        this.pending.delete(key);
      }
    } catch (error) {
      // Not subscribed after all: this client does not count, so the next one tries again.
      this.release(key);
      throw error;
    }
  }

  private async subscribeUpstream(target: ResourceTarget, timeoutMs: number): Promise<void> {
    // A 2026-07-28 server that cannot announce updates has its resource read again instead (polling).
    if (target.backend.capabilities.resources?.subscribe !== true && target.backend.era !== 'modern')
      throw new PromptyardError('INVALID_REQUEST', `Server "${target.backend.id}" does not support resource subscriptions.`);
    await this.peers.forward(target.backend, { method: 'resources/subscribe' }, timeoutMs, {}, (options) =>
      target.backend.upstream.subscribe(target.uri, options.timeoutMs),
    );
  }

  /** One client less; returns how many were counted before. */
  private release(key: string): number {
    const count = this.counts.get(key) ?? 0;
    if (count <= 1) this.counts.delete(key);
    else this.counts.set(key, count - 1);
    return count;
  }

  async unsubscribe(target: ResourceTarget, timeoutMs: number): Promise<void> {
    const key = `${target.backend.id}\n${target.uri}`;
    if (this.release(key) === 1 && target.backend.state === 'ready')
      await target.backend.upstream.unsubscribe(target.uri, timeoutMs).catch(() => {});
  }
}
