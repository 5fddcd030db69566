/**
 * The clients of the cluster tests: a 2025-era client on SDK v1 (sessions, a GET stream that resumes
 * with Last-Event-ID), a 2026-07-28 client on SDK v2, and the counters read from each replica.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Cluster } from '../../test-support/cluster.js';

export interface V1Session {
  readonly client: ClientV1;
  readonly transport: TransportV1;
  /** The session id the client got at initialize. */
  readonly sessionId: string;
  /** list_changed notifications (prompts or tools) heard on the GET stream so far. */
  readonly heard: () => number;
  close(): Promise<void>;
}

/** Answers every elicitation like a user accepting the form of server-everything's trigger-elicitation-request. */
const elicitationAnswer = { action: 'accept' as const, content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };

/** A 2025-11-25 client on SDK v1 (1.x) with a session; its GET stream reconnects with Last-Event-ID when dropped. */
export const connectV1 = async (url: string, options: { readonly elicitation?: boolean } = {}): Promise<V1Session> => {
  const client = new ClientV1(
    { name: 'cluster-e2e-v1', version: '1.0.0' },
    { capabilities: options.elicitation === true ? { elicitation: {} } : {} },
  );
  let heard = 0;
  const count = (): void => {
    heard += 1;
  };
  client.setNotificationHandler(PromptListChangedNotificationSchema, count);
  client.setNotificationHandler(ToolListChangedNotificationSchema, count);
  if (options.elicitation === true) client.setRequestHandler(ElicitRequestSchema, () => elicitationAnswer);
  const transport = new TransportV1(new URL(url), {
    reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 2000, reconnectionDelayGrowFactor: 1.5, maxRetries: 10 },
  });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  if (sessionId === undefined) throw new Error('the 2025-11-25 client got no Mcp-Session-Id at initialize');
  return { client, transport, sessionId, heard: () => heard, close: () => client.close() };
};

/** A 2026-07-28 client on SDK v2: no session, every request stands alone (any replica may answer it). */
export const connectModern = async (url: string): Promise<Client> => {
  const client = new Client({ name: 'cluster-e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
};

/** `promptyard_request_duration_seconds_count` of `method` on each replica, all outcomes summed; `outcome` narrows to one. */
export const requestCounts = async (cluster: Cluster, method: string, outcome?: string): Promise<number[]> =>
  Promise.all(
    cluster.nodes.map(async (node) => {
      const body = await cluster.metrics(node.index);
      let total = 0;
      for (const line of body.split('\n')) {
        const match = /^promptyard_request_duration_seconds_count\{([^}]*)\} (\S+)$/.exec(line);
        if (match === null) continue;
        const labels = match[1] as string;
        if (!labels.includes(`method="${method}"`)) continue;
        if (outcome !== undefined && !labels.includes(`outcome="${outcome}"`)) continue;
        total += Number(match[2]);
      }
      return total;
    }),
  );

/** One metric's value on each replica (0 when a replica does not export it). */
export const gaugeOnEach = async (cluster: Cluster, series: string): Promise<number[]> =>
  Promise.all(
    cluster.nodes.map(async (node) => {
      const line = (await cluster.metrics(node.index)).split('\n').find((candidate) => candidate.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    }),
  );

/** Resolves when `predicate` holds, polling `probe` (for effects with no event to await); fails after `timeoutMs`. */
export const eventually = async <T>(
  probe: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let failure: unknown;
  for (;;) {
    try {
      last = await probe();
      failure = undefined;
      if (predicate(last)) return last;
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: not within ${timeoutMs} ms; last ${failure === undefined ? `value: ${JSON.stringify(last)}` : `error: ${(failure as Error).message}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Runs `task(i)` for i in [0, count) with at most `width` at once. */
export const inParallel = async <T>(
  count: number,
  width: number,
  task: (index: number) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> => {
  const results: PromiseSettledResult<T>[] = new Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
};
