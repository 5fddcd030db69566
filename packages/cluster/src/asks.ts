import { randomBytes, randomUUID } from 'node:crypto';
import { PromptyardError } from '@promptyard/core';
import type { JsonRpcMessage, Logger } from '@promptyard/core';
import type { Connection } from './connection.js';
import type { Keys } from './keys.js';

interface Waiting {
  readonly resolve: (answer: JsonRpcMessage) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

type AskMessage = { readonly id: string; readonly from: string; readonly request: JsonRpcMessage };
type AnswerMessage = { readonly id: string; readonly answer?: JsonRpcMessage; readonly error?: string };

/**
 * Node-to-node requests over pub/sub: each node listens on a channel of its own for questions and
 * one for answers. A question to a node that is not there is refused at once (nobody subscribed),
 * one that is never answered fails after its timeout.
 */
export const createAsks = (connection: Connection, keys: Keys, nodeId: string, logger: Logger) => {
  const waiting = new Map<string, Waiting>();
  let handler: ((request: JsonRpcMessage) => Promise<JsonRpcMessage>) | undefined;
  const secrets = new Map<string, Promise<Uint8Array>>();

  const gone = (target: string): PromptyardError =>
    new PromptyardError(
      'BACKEND_UNAVAILABLE',
      `replica ${target} of the cluster did not answer: it stopped, or the cluster Redis is unreachable. Send the request again from the start.`,
    );

  const answer = async (message: AskMessage): Promise<void> => {
    let reply: AnswerMessage;
    try {
      if (handler === undefined) throw new Error('this replica answers no questions');
      reply = { id: message.id, answer: await handler(message.request) };
    } catch (error) {
      reply = { id: message.id, error: (error as Error).message };
    }
    await connection
      .run((redis) => redis.publish(keys.channels.answers(message.from), JSON.stringify(reply)))
      .catch((error: unknown) => {
        logger.warn('an answer to another replica was lost: the cluster Redis is unreachable', { reason: (error as Error).message });
      });
  };

  return {
    /** A message on this node's question channel (`keys.channels.asks(nodeId)`). */
    hearQuestion: (text: string): void => void answer(JSON.parse(text) as AskMessage),
    /** A message on this node's answer channel (`keys.channels.answers(nodeId)`). */
    hearAnswer: (text: string): void => {
      const reply = JSON.parse(text) as AnswerMessage;
      const one = waiting.get(reply.id);
      if (one === undefined) return;
      waiting.delete(reply.id);
      clearTimeout(one.timer);
      if (reply.answer !== undefined) one.resolve(reply.answer);
      else one.reject(new PromptyardError('BACKEND_ERROR', reply.error ?? 'the replica gave no answer'));
    },

    ask: (target: string, request: JsonRpcMessage, timeoutMs: number): Promise<JsonRpcMessage> =>
      new Promise<JsonRpcMessage>((resolve, reject) => {
        const id = randomUUID();
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(gone(target));
        }, timeoutMs);
        waiting.set(id, { resolve, reject, timer });
        const message: AskMessage = { id, from: nodeId, request };
        connection
          .run((redis) => redis.publish(keys.channels.asks(target), JSON.stringify(message)))
          .then(
            (receivers) => {
              if (receivers > 0 || !waiting.delete(id)) return;
              clearTimeout(timer);
              reject(gone(target));
            },
            (error: unknown) => {
              if (!waiting.delete(id)) return;
              clearTimeout(timer);
              reject(error as Error);
            },
          );
      }),

    onAsk: (next: (request: JsonRpcMessage) => Promise<JsonRpcMessage>): (() => void) => {
      handler = next;
      return () => {
        if (handler === next) handler = undefined;
      };
    },

    sharedSecret: (name: string): Promise<Uint8Array> => {
      let secret = secrets.get(name);
      if (secret === undefined) {
        secret = connection.run(async (redis) => {
          await redis.set(keys.secret(name), randomBytes(32).toString('base64'), 'NX');
          const stored = await redis.get(keys.secret(name));
          if (stored === null) throw new PromptyardError('BACKEND_ERROR', `the cluster Redis lost the shared key ${name}`);
          return new Uint8Array(Buffer.from(stored, 'base64'));
        });
        secret.catch(() => secrets.delete(name));
        secrets.set(name, secret);
      }
      return secret;
    },

    close: (): void => {
      for (const [id, one] of waiting) {
        clearTimeout(one.timer);
        one.reject(new PromptyardError('BACKEND_UNAVAILABLE', 'the cluster connection closed'));
        waiting.delete(id);
      }
      handler = undefined;
    },
  };
};
