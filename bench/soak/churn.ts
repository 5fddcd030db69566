/**
 * The load of `pnpm soak`: session churn over Streamable HTTP at a fixed rate. Each client opens a
 * 2025-11-25 session (`initialize`, `notifications/initialized`), makes its calls in it — `tools/call`
 * and `prompts/get` in turn, every fourth call a stateless 2026-07-28 request replayed from the SDK
 * client's own — closes it with `DELETE`, and opens the next. Calls are paced so that all clients
 * together make `rate` a second (a late call goes at once; a client more than a second behind starts
 * afresh rather than bursting). Plain `node:http` on keep-alive connections: a load far cheaper than
 * the servers under test.
 */
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** A JSON-RPC request's method and params. */
export interface Call {
  readonly method: 'tools/call' | 'prompts/get';
  readonly params: Record<string, unknown>;
}

/** A 2026-07-28 request as the SDK client sent it, replayed with ids of its own. */
export interface Replayed {
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

export interface ChurnOptions {
  readonly url: string;
  readonly clients: number;
  /** Calls a second, all clients together (sessions' opening and closing requests not counted). */
  readonly rate: number;
  readonly callsPerSession: number;
  /** Made in turn inside each session. */
  readonly calls: readonly Call[];
  /** Made in turn, as every fourth call. */
  readonly stateless: readonly Replayed[];
}

/** What the load saw since the last `take()`. */
export interface Tally {
  calls: number;
  errors: number;
  sessionsOpened: number;
  sessionsClosed: number;
  latencies: number[];
  firstError?: string;
}

interface Answer {
  readonly status: number;
  readonly sessionId: string | undefined;
  readonly text: string;
}

const legacyVersion = '2025-11-25';
const baseHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const emptyTally = (): Tally => ({ calls: 0, errors: 0, sessionsOpened: 0, sessionsClosed: 0, latencies: [] });

/** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event. */
const messageOf = (text: string): { error?: { message?: string }; result?: unknown } => {
  // An SSE answer may open with a priming event of empty data (an event id to resume from).
  const data = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
        ?.slice(5);
  if (data === undefined) throw new Error(`no JSON-RPC message in the answer: ${text.slice(0, 200)}`);
  return JSON.parse(data) as { error?: { message?: string }; result?: unknown };
};

export const startChurn = (options: ChurnOptions): { take(): Tally; stop(): Promise<void> } => {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients * 2 });
  let tally = emptyTally();
  let stopped = false;
  let nextId = 1;

  const send = (method: 'POST' | 'DELETE', headers: Record<string, string>, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(target, { method, agent, headers }, (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          const sessionId = incoming.headers['mcp-session-id'];
          resolve({ status: incoming.statusCode ?? 0, sessionId: typeof sessionId === 'string' ? sessionId : undefined, text });
        });
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const fail = (message: string): void => {
    tally.errors++;
    tally.firstError ??= message;
  };

  /** One timed call; an HTTP or JSON-RPC error counts as an error. */
  const timed = async (headers: Record<string, string>, body: Record<string, unknown>): Promise<void> => {
    const began = performance.now();
    try {
      const answer = await send('POST', headers, JSON.stringify({ ...body, jsonrpc: '2.0', id: nextId++ }));
      const latency = performance.now() - began;
      if (answer.status !== 200) return fail(`HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
      const message = messageOf(answer.text);
      if (message.error !== undefined) return fail(`${String(body['method'])}: ${message.error.message ?? 'error'}`);
      tally.calls++;
      tally.latencies.push(latency);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  };

  const open = async (): Promise<Record<string, string> | undefined> => {
    const initialize = {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: legacyVersion, capabilities: {}, clientInfo: { name: 'promptyard-soak', version: '1.0.0' } },
    };
    const answer = await send('POST', baseHeaders, JSON.stringify(initialize));
    if (answer.status !== 200 || answer.sessionId === undefined) {
      fail(`initialize: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
      return undefined;
    }
    const headers = { ...baseHeaders, 'mcp-session-id': answer.sessionId, 'mcp-protocol-version': legacyVersion };
    const initialized = await send('POST', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    if (initialized.status !== 202) fail(`notifications/initialized: HTTP ${initialized.status}`);
    tally.sessionsOpened++;
    return headers;
  };

  const client = async (index: number): Promise<void> => {
    const interval = (options.clients / options.rate) * 1000;
    let due = performance.now() + (interval * index) / options.clients;
    let turn = index;
    let sessionCalls = index;
    while (!stopped) {
      const headers = await open().catch((error: unknown) => fail(String(error)));
      for (let made = 0; headers !== undefined && made < options.callsPerSession && !stopped; made++, turn++) {
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        else if (wait < -1000) due = performance.now();
        due += interval;
        const stateless = options.stateless[Math.floor(turn / 4) % options.stateless.length];
        if (turn % 4 === 3 && stateless !== undefined) await timed(stateless.headers, stateless.body);
        else {
          const call = options.calls[sessionCalls++ % options.calls.length] as Call;
          await timed(headers, { method: call.method, params: call.params });
        }
      }
      if (headers === undefined) {
        await sleep(interval);
        continue;
      }
      const closed = await send('DELETE', headers).catch((error: unknown) => ({ status: 0, text: String(error) }));
      if (closed.status === 200 || closed.status === 204) tally.sessionsClosed++;
      else fail(`DELETE: HTTP ${closed.status} ${closed.text.slice(0, 200)}`);
    }
  };

  const running = Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  return {
    take: () => {
      const taken = tally;
      tally = emptyTally();
      return taken;
    },
    stop: async () => {
      stopped = true;
      await running;
      agent.destroy();
    },
  };
};
