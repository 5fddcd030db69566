import type { Cluster, JsonRpcMessage, SessionEventStore } from '@promptyard/core';
import { createLogger } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { SharedEventStore } from './cluster-event-store.js';
import { ClusterWire } from './cluster-wire.js';

const logger = createLogger({ level: 'error' });

/** The part of a cluster the wire uses, recording what it was given. */
const recordingCluster = (nodeId: string, failing = false) => {
  const broadcasts: { message: JsonRpcMessage; sessionId: string | undefined }[] = [];
  const cluster = {
    nodeId,
    broadcast: async (message: JsonRpcMessage, options?: { sessionId?: string }) => {
      if (failing) throw new Error('store down');
      broadcasts.push({ message, sessionId: options?.sessionId });
    },
  } as unknown as Cluster;
  return { cluster, broadcasts };
};

const memoryStore = (): SessionEventStore & { stored: JsonRpcMessage[] } => {
  const stored: JsonRpcMessage[] = [];
  return {
    stored,
    storeEvent: async (_stream, message) => {
      stored.push(message);
      return `e${stored.length}`;
    },
    getStreamIdForEventId: async () => undefined,
    replayEventsAfter: async () => '_GET_stream',
  };
};

describe('ClusterWire', () => {
  it('names requests to the client after this node and gives their answers back under the server’s ids', async () => {
    const { cluster } = recordingCluster('node-a');
    const sent: { message: unknown; options: unknown }[] = [];
    const wire = new ClusterWire(
      cluster,
      () => 's1',
      new SharedEventStore(memoryStore, logger),
      async (message, options) => {
        sent.push({ message, options });
      },
    );
    await wire.send({ jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: {} }, { relatedRequestId: 7 });
    const wireId = (sent[0]?.message as { id: string }).id;
    expect(wireId).toBe('node-a:1');
    expect(sent[0]?.options).toEqual({ relatedRequestId: 7 });
    expect(wire.owns({ id: wireId })).toBe(true);
    expect(wire.owns({ id: 'node-b:1' })).toBe(false);
    expect(wire.owns({ id: 0 })).toBe(false);
    expect(
      wire.take([
        { jsonrpc: '2.0', id: wireId, result: { action: 'accept' } },
        { jsonrpc: '2.0', id: 'node-b:1', result: {} },
      ]),
    ).toEqual([{ jsonrpc: '2.0', id: 0, result: { action: 'accept' } }]);
    // Taken once.
    expect(wire.owns({ id: wireId })).toBe(false);
  });

  it('sends what belongs on the GET stream through the cluster, and locally while the store is down', async () => {
    const up = recordingCluster('node-a');
    const sent: unknown[] = [];
    const wire = new ClusterWire(
      up.cluster,
      () => 's1',
      new SharedEventStore(memoryStore, logger),
      async (message) => {
        sent.push(message);
      },
    );
    await wire.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    expect(sent).toEqual([]);
    expect(up.broadcasts).toEqual([
      { message: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }, sessionId: 's1' },
    ]);
    // A response always goes on its request's stream.
    await wire.send({ jsonrpc: '2.0', id: 3, result: {} });
    expect(sent).toHaveLength(1);

    const down = recordingCluster('node-a', true);
    const local: unknown[] = [];
    const alone = new ClusterWire(
      down.cluster,
      () => 's1',
      new SharedEventStore(memoryStore, logger),
      async (message) => {
        local.push(message);
      },
    );
    await alone.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(local).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('sends a stored event under its id without storing it again', async () => {
    const { cluster } = recordingCluster('node-a');
    const store = memoryStore();
    const shared = new SharedEventStore(() => store, logger);
    const ids: string[] = [];
    const wire = new ClusterWire(
      cluster,
      () => 's1',
      shared,
      async (message) => {
        ids.push(await shared.storeEvent('_GET_stream', message as unknown as JsonRpcMessage));
      },
    );
    wire.hear({ sessionId: 's1', eventId: 'stored-9', message: { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' } });
    await Promise.resolve();
    expect(ids).toEqual(['stored-9']);
    expect(store.stored).toEqual([]);
    expect(await shared.storeEvent('s', { jsonrpc: '2.0', method: 'x' })).toBe('e1');
  });
});

describe('SharedEventStore', () => {
  it('gives an event no id while the store fails, rather than failing the send', async () => {
    const failing: SessionEventStore = {
      storeEvent: () => Promise.reject(new Error('down')),
      getStreamIdForEventId: () => Promise.reject(new Error('down')),
      replayEventsAfter: () => Promise.reject(new Error('down')),
    };
    const shared = new SharedEventStore(() => failing, logger);
    expect(await shared.storeEvent('s', { jsonrpc: '2.0', method: 'x' })).toBe('');
    expect(await shared.getStreamIdForEventId('x')).toBeUndefined();
  });
});
