/**
 * A Chrome DevTools Protocol client for a binary started with `--inspect=127.0.0.1:0`, for `pnpm soak`:
 * the live heap after a full collection (`HeapProfiler.collectGarbage`, `Runtime.getHeapUsage`) and
 * heap snapshots written to a file (`HeapProfiler.takeHeapSnapshot`). The binary itself is unchanged;
 * only the Runtime and HeapProfiler domains are used (the Debugger domain, which slows a process, is
 * never enabled).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import WebSocket from 'ws';

interface Pending {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

export interface Inspector {
  /** MB of heap still in use after full collections. */
  liveHeapMb(): Promise<number>;
  /** Writes a heap snapshot (taken after a full collection) to `file`. */
  snapshot(file: string): Promise<void>;
  close(): void;
}

/** The `ws://` address node prints on stderr when started with `--inspect`. */
export const inspectorUrlPattern = /Debugger listening on (ws:\/\/\S+)/;

export const connectInspector = async (url: string): Promise<Inspector> => {
  const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0 });
  await once(socket, 'open');
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (message.id === undefined) {
      if (message.method !== undefined) listeners.get(message.method)?.(message.params ?? {});
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiting?.reject(new Error(`inspector: ${message.error.message}`));
    else waiting?.resolve(message.result ?? {});
  });
  socket.on('close', () => {
    for (const waiting of pending.values()) waiting.reject(new Error('inspector: the process closed its debugger connection'));
    pending.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  // Two collections: the first may leave objects that only finalisers or weak references released.
  const collect = async (): Promise<void> => {
    await send('HeapProfiler.collectGarbage');
    await send('HeapProfiler.collectGarbage');
  };
  return {
    liveHeapMb: async () => {
      await collect();
      const usage = await send('Runtime.getHeapUsage');
      return Number(usage['usedSize']) / 1024 / 1024;
    },
    snapshot: async (file) => {
      await collect();
      const out = createWriteStream(file);
      listeners.set('HeapProfiler.addHeapSnapshotChunk', (params) => out.write(String(params['chunk'])));
      try {
        await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
      } finally {
        listeners.delete('HeapProfiler.addHeapSnapshotChunk');
        out.end();
        await once(out, 'close');
      }
    },
    close: () => socket.close(),
  };
};
