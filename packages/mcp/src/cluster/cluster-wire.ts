import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Cluster, JsonRpcMessage, SessionEvent } from '@promptyard/core';
import type { SharedEventStore } from './cluster-event-store.js';
import { isObject } from '../json-shapes.js';

type Send = WebStandardStreamableHTTPServerTransport['send'];
type Message = Parameters<Send>[0];
type SendOptions = Parameters<Send>[1];
type Id = string | number;

/**
 * What a 2025 session's transport sends, in a cluster. Every replica may hold a copy of a session,
 * each with its own server and its own request ids, so:
 * - a request to the client (sampling, elicitation, roots) goes out under an id naming this node
 *   (`<node>:<n>`), and the client's answer, whichever node it reaches, is handed back to this one;
 * - a message for the session's GET stream (a request outside any call, a log record) goes through
 *   the cluster's store, from which the node that holds the stream sends it, and a client that
 *   reconnects elsewhere has it replayed.
 */
export class ClusterWire {
  readonly #asked = new Map<string, Id>();
  #next = 0;
  readonly #prefix: string;
  readonly #sessionId: () => string;
  readonly #cluster: Cluster;
  readonly #store: SharedEventStore;
  readonly #send: Send;

  constructor(cluster: Cluster, sessionId: () => string, store: SharedEventStore, send: Send) {
    this.#cluster = cluster;
    this.#prefix = `${cluster.nodeId}:`;
    this.#sessionId = sessionId;
    this.#store = store;
    this.#send = send;
  }

  /** The transport's `send`. */
  send(message: Message, options?: SendOptions): Promise<void> {
    let wire: Message = message;
    if ('method' in message && 'id' in message) {
      const id = `${this.#prefix}${(this.#next += 1)}`;
      this.#asked.set(id, message.id);
      wire = { ...message, id };
    } else if ('method' in message && message.method === 'notifications/cancelled' && isObject(message.params)) {
      // A request this node cancels is named as the client knows it.
      const requestId = message.params['requestId'];
      for (const [id, own] of this.#asked) if (own === requestId) wire = { ...message, params: { ...message.params, requestId: id } };
    }
    const standalone = options?.relatedRequestId === undefined && !('result' in message) && !('error' in message);
    if (!standalone) return this.#send(wire, options);
    return this.#cluster
      .broadcast(wire as unknown as JsonRpcMessage, { sessionId: this.#sessionId() })
      .catch(() => this.#send(wire, options));
  }

  /** A message the cluster stored for the session's GET stream: sent on it if this node holds it. */
  hear(event: SessionEvent): void {
    this.#store.adopt(event.message, event.eventId);
    this.#send(event.message as unknown as Message).catch(() => {});
  }

  /** Whether the answer with this id is to a request this node asked. */
  owns(message: Readonly<Record<string, unknown>>): boolean {
    const id = message['id'];
    return typeof id === 'string' && id.startsWith(this.#prefix) && this.#asked.has(id);
  }

  /** Answers to this node's requests, under the ids its server gave them. */
  take(messages: readonly Readonly<Record<string, unknown>>[]): JsonRpcMessage[] {
    const taken: JsonRpcMessage[] = [];
    for (const message of messages) {
      const id = message['id'] as string;
      const own = this.#asked.get(id);
      if (own === undefined) continue;
      this.#asked.delete(id);
      taken.push({ ...message, id: own });
    }
    return taken;
  }
}
