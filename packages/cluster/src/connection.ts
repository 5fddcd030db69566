import { PromptyardError, describeError } from '@promptyard/core';
import type { ClusterStatus, Logger } from '@promptyard/core';
import { Redis } from 'ioredis';
import { Listeners } from './listeners.js';
import { defineScripts } from './scripts.js';
import type { ScriptedRedis } from './scripts.js';

export interface ConnectionOptions {
  readonly url: string;
  readonly logger: Logger;
  readonly nodeId: string;
  readonly commandTimeoutMs: number;
  /** Channels the subscriber listens to, and what hears each one's messages. */
  readonly channels: ReadonlyMap<string, (message: string) => void>;
}

/** How often each connection is checked with a PING, so one that silently stopped answering is replaced. */
const heartbeatMs = 5000;

/** Reconnect delays: 100 ms doubling up to 2 s, for as long as it takes. */
const retryDelay = (attempt: number): number => Math.min(2000, 100 * 2 ** Math.max(0, Math.min(attempt - 1, 5)));

/** The URL without its user info (a password, an ACL user), for logs and errors. */
export const redactUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace('//', '//***@');
  } catch {
    return '(an unparsable URL)';
  }
};

/**
 * The two connections of a node (commands, and a subscriber) and the status they make together:
 * `ready` when both are connected and subscribed, `degraded` from the first failure until then.
 * Commands never queue while disconnected and time out after `commandTimeoutMs`, so every call
 * fails fast with `BACKEND_UNAVAILABLE` instead of waiting for Redis to come back.
 */
export class Connection {
  readonly redis: ScriptedRedis;
  readonly #commands: Redis;
  readonly #subscriber: Redis;
  readonly #options: ConnectionOptions;
  readonly #url: string;
  readonly statusListeners: Listeners<[ClusterStatus]>;
  #status: ClusterStatus = 'connecting';
  #commandsReady = false;
  #subscribed = false;
  #failed = false;
  #lastError: string | undefined;
  #closing: Promise<void> | undefined;
  readonly #probing = new Set<Redis>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#url = redactUrl(options.url);
    this.statusListeners = new Listeners(options.logger, 'cluster status');
    const settings = {
      enableOfflineQueue: false,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: Math.max(options.commandTimeoutMs, 2000),
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      autoResubscribe: false,
      retryStrategy: retryDelay,
      // CLIENT SETNAME refuses spaces and newlines, and a refused name would fail every connection.
      connectionName: `promptyard:${options.nodeId.replace(/[^\w.:-]/g, '_')}`,
    };
    this.#commands = new Redis(options.url, settings);
    this.#subscriber = new Redis(options.url, settings);
    this.redis = defineScripts(this.#commands);

    this.#commands.on('ready', () => {
      this.#lastError = undefined;
      this.#commandsReady = true;
      this.#update();
    });
    this.#commands.on('close', () => {
      this.#lastError ??= 'the connection was lost';
      this.#commandsReady = false;
      this.#update();
    });
    this.#commands.on('error', (error: Error) => this.#failure(error));
    this.#subscriber.on('ready', () => this.#subscribe());
    this.#subscriber.on('close', () => {
      this.#lastError ??= 'the connection was lost';
      this.#subscribed = false;
      this.#update();
    });
    this.#subscriber.on('error', (error: Error) => this.#failure(error));
    this.#subscriber.on('message', (channel: string, message: string) => {
      try {
        this.#options.channels.get(channel)?.(message);
      } catch (error) {
        // A message of another shape (another version's node) must not reach the client's parser.
        options.logger.warn('dropped a message from the shared Redis that this version cannot read', {
          channel,
          error: describeError(error),
        });
      }
    });
    this.#heartbeat = setInterval(() => {
      this.#probe(this.#commands);
      this.#probe(this.#subscriber);
    }, heartbeatMs);
    this.#heartbeat.unref();
  }

  status(): ClusterStatus {
    return this.#status;
  }

  /** Whether the subscriber hears the channels (else a node delivers its own events itself). */
  get subscribed(): boolean {
    return this.#subscribed;
  }

  /** Whether commands can be sent now. */
  get writable(): boolean {
    return this.#closing === undefined && this.#commands.status === 'ready';
  }

  /** Runs `work` against Redis, failing at once while unreachable, with a `PromptyardError` on failure. */
  async run<T>(work: (redis: ScriptedRedis) => Promise<T>): Promise<T> {
    if (!this.writable) throw this.unavailable();
    try {
      return await work(this.redis);
    } catch (error) {
      throw this.#asError(error);
    }
  }

  /** Why a call cannot be served: the shared Redis is unreachable. */
  unavailable(cause?: unknown): PromptyardError {
    const reason =
      this.#closing !== undefined
        ? 'this node closed its connection'
        : cause !== undefined
          ? describeError(cause)
          : (this.#lastError ?? 'not connected yet');
    return new PromptyardError(
      'BACKEND_UNAVAILABLE',
      `the shared Redis at ${this.#url} is unreachable (${reason}); this node serves on its own until it reconnects — check [cluster] redis_url (PROMPTYARD_CLUSTER_REDIS_URL) and that Redis is running`,
      cause === undefined ? {} : { cause },
    );
  }

  #asError(error: unknown): PromptyardError {
    if (error instanceof PromptyardError) return error;
    if (error instanceof Error && error.message === 'Command timed out') this.#probe(this.#commands);
    // A reply error is Redis refusing a command (a wrong type, out of memory), not an outage.
    if (error instanceof Error && error.name === 'ReplyError') {
      return new PromptyardError('BACKEND_ERROR', `the shared Redis at ${this.#url} refused a command: ${error.message}`, { cause: error });
    }
    return this.unavailable(error);
  }

  #subscribe(): void {
    this.#subscriber.subscribe(...this.#options.channels.keys()).then(
      () => {
        if (this.#subscriber.status !== 'ready') return;
        this.#subscribed = true;
        this.#update();
      },
      (error: unknown) => {
        // Unsubscribed, this node would miss events: start over on a new connection.
        this.#failure(error);
        if (this.#closing === undefined) this.#subscriber.disconnect(true);
      },
    );
  }

  /**
   * PINGs `client`; when Redis does not answer within the command timeout (a frozen server, a
   * connection a firewall dropped without a word), drops the connection: the node goes degraded and
   * reconnects, instead of timing out call after call on a connection that looks fine.
   */
  #probe(client: Redis): void {
    if (this.#closing !== undefined || this.#probing.has(client) || client.status !== 'ready') return;
    this.#probing.add(client);
    client.ping().then(
      () => this.#probing.delete(client),
      (error: unknown) => {
        this.#probing.delete(client);
        if (this.#closing !== undefined || client.status !== 'ready') return;
        this.#lastError = `Redis did not answer a PING (${describeError(error)})`;
        client.disconnect(true);
      },
    );
  }

  #failure(error: unknown): void {
    this.#lastError = describeError(error);
    if (this.#status === 'connecting') this.#failed = true;
    this.#update();
  }

  #update(): void {
    if (this.#closing !== undefined) return;
    const previous = this.#status;
    const next: ClusterStatus =
      this.#commandsReady && this.#subscribed ? 'ready' : previous === 'connecting' && !this.#failed ? 'connecting' : 'degraded';
    if (next === previous) return;
    this.#status = next;
    const fields = { url: this.#url, node: this.#options.nodeId };
    if (next === 'ready') {
      this.#options.logger.info(
        previous === 'degraded' ? 'reconnected to the shared Redis; serving as one cluster again' : 'connected to the shared Redis',
        fields,
      );
    } else {
      this.#options.logger.warn(
        'the shared Redis is unreachable; this node serves on its own and keeps reconnecting — check [cluster] redis_url',
        {
          ...fields,
          error: this.#lastError,
        },
      );
    }
    this.statusListeners.emit(next);
  }

  /** Quits both connections (idempotent); no reconnect timer is left behind. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#heartbeat);
      this.statusListeners.clear();
      await Promise.all(
        [this.#commands, this.#subscriber].map(async (client) => {
          if (client.status === 'ready') await client.quit().catch(() => {});
          client.disconnect();
        }),
      );
    })();
    return this.#closing;
  }
}
