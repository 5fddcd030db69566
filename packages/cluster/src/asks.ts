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

/** One node's side of the questions: who waits for an answer, who answers, and the shared secrets read so far. */
interface AskState {
  readonly connection: Connection;
  readonly keys: Keys;
  readonly nodeId: string;
  readonly logger: Logger;
  readonly waiting: Map<string, Waiting>;
  handler: ((request: JsonRpcMessage) => Promise<JsonRpcMessage>) | undefined;
  readonly secrets: Map<string, Promise<Uint8Array>>;
}

const gone = (target: string): PromptyardError =>
  new PromptyardError(
    'BACKEND_UNAVAILABLE',
    `replica ${target} of the cluster did not answer: it stopped, or the cluster Redis is unreachable. Send the request again from the start.`,
  );

/** Answers a question from another node with this node's handler, or with the error it threw. */
const answer = async (state: AskState, message: AskMessage): Promise<void> => {
  let reply: AnswerMessage;
  try {
    if (state.handler === undefined) throw new Error('this replica answers no questions');
    reply = { id: message.id, answer: await state.handler(message.request) };
  } catch (error) {
    reply = { id: message.id, error: (error as Error).message };
  }
  await state.connection
    .run((redis) => redis.publish(state.keys.channels.answers(message.from), JSON.stringify(reply)))
    .catch((error: unknown) => {
      state.logger.warn('an answer to another replica was lost: the cluster Redis is unreachable', { reason: (error as Error).message });
    });
};

const hearAnswer = (state: AskState, text: string): void => {
  const reply = JSON.parse(text) as AnswerMessage;
  const one = state.waiting.get(reply.id);
  if (one === undefined) return;
  state.waiting.delete(reply.id);
  clearTimeout(one.timer);
  if (reply.answer !== undefined) one.resolve(reply.answer);
  else one.reject(new PromptyardError('BACKEND_ERROR', reply.error ?? 'the replica gave no answer'));
};

/** Publishes a question to `target`; refused at once when no node listens, failed after `timeoutMs` without an answer. */
const ask = (state: AskState, target: string, request: JsonRpcMessage, timeoutMs: number): Promise<JsonRpcMessage> =>
  new Promise<JsonRpcMessage>((resolve, reject) => {
    const { waiting } = state;
    const id = randomUUID();
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(gone(target));
    }, timeoutMs);
    waiting.set(id, { resolve, reject, timer });
    const message: AskMessage = { id, from: state.nodeId, request };
    state.connection
      .run((redis) => redis.publish(state.keys.channels.asks(target), JSON.stringify(message)))
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
  });

/** The secret every node shares under `name`: the first node to ask sets it, the others read it. */
const sharedSecret = (state: AskState, name: string): Promise<Uint8Array> => {
  const { secrets, keys } = state;
  let secret = secrets.get(name);
  if (secret === undefined) {
    secret = state.connection.run(async (redis) => {
      await redis.set(keys.secret(name), randomBytes(32).toString('base64'), 'NX');
      const stored = await redis.get(keys.secret(name));
      if (stored === null) throw new PromptyardError('BACKEND_ERROR', `the cluster Redis lost the shared key ${name}`);
      return new Uint8Array(Buffer.from(stored, 'base64'));
    });
    secret.catch(() => secrets.delete(name));
    secrets.set(name, secret);
  }
  return secret;
};

const close = (state: AskState): void => {
  for (const [id, one] of state.waiting) {
    clearTimeout(one.timer);
    one.reject(new PromptyardError('BACKEND_UNAVAILABLE', 'the cluster connection closed'));
    state.waiting.delete(id);
  }
  state.handler = undefined;
};

/**
 * Node-to-node requests over pub/sub: each node listens on a channel of its own for questions and
 * one for answers. A question to a node that is not there is refused at once (nobody subscribed),
 * one that is never answered fails after its timeout.
 */
export const createAsks = (connection: Connection, keys: Keys, nodeId: string, logger: Logger) => {
  const state: AskState = { connection, keys, nodeId, logger, waiting: new Map(), handler: undefined, secrets: new Map() };
  return {
    /** A message on this node's question channel (`keys.channels.asks(nodeId)`). */
    hearQuestion: (text: string): void => void answer(state, JSON.parse(text) as AskMessage),
    /** A message on this node's answer channel (`keys.channels.answers(nodeId)`). */
    hearAnswer: (text: string): void => hearAnswer(state, text),
    ask: (target: string, request: JsonRpcMessage, timeoutMs: number): Promise<JsonRpcMessage> => ask(state, target, request, timeoutMs),
    onAsk: (next: (request: JsonRpcMessage) => Promise<JsonRpcMessage>): (() => void) => {
      state.handler = next;
      return () => {
        if (state.handler === next) state.handler = undefined;
      };
    },
    sharedSecret: (name: string): Promise<Uint8Array> => sharedSecret(state, name),
    close: (): void => close(state),
  };
};
