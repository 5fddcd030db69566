import type { Transport } from '@modelcontextprotocol/client';

type Response = Readonly<Record<string, unknown>>;

/**
 * The gateway's hot path to a 2025-era stdio backend: a `tools/call` relayed as JSON-RPC with an id
 * of the relay's own, its response handed back as is, skipping the SDK client's bookkeeping and
 * validation (the downstream client validates what it receives).
 */
export interface UpstreamRelay {
  /** `done` gets the backend's JSON-RPC response, or `undefined` when the connection closed first. */
  call(params: Readonly<Record<string, unknown>>, done: (response: Response | undefined) => void): { cancel(reason: string): void };
}

/** The relay, and what its connection calls when it closes: every call in flight is told (`done(undefined)`). */
export type ClosableRelay = UpstreamRelay & { closed(): void };

/**
 * A relay on `transport`, an open connection whose client is already attached: responses to relayed
 * calls (string ids the SDK client never uses) are taken before the client sees them.
 */
export const createRelay = (transport: Transport): ClosableRelay => {
  const relayed = new Map<string, (response: Response | undefined) => void>();
  let relayIds = 0;
  const toClient = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' && !('method' in message)) {
      const done = relayed.get(id);
      if (done !== undefined) {
        relayed.delete(id);
        done(message as unknown as Record<string, unknown>);
        return;
      }
    }
    toClient?.(message, extra);
  };
  return {
    call: (params, done) => {
      const id = `relay-${++relayIds}`;
      relayed.set(id, done);
      transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: params as never }).catch(() => {
        if (relayed.delete(id)) done(undefined);
      });
      return {
        cancel: (reason) => {
          if (!relayed.delete(id)) return;
          transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }).catch(() => {});
        },
      };
    },
    closed: () => {
      for (const done of relayed.values()) done(undefined);
      relayed.clear();
    },
  };
};
