/**
 * Multi-round requests: a 2026-07-28 call's `input_required` rounds and their signed `requestState`,
 * the pending call that turns a handler's requests back to the client into rounds, and the
 * `RequestContext` handlers receive on the SDK's path.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { PromptyardError } from '@promptyard/core';
import type { Cluster, Logger } from '@promptyard/core';
import { RpcError, toProtocolError } from '../errors.js';
import type { JsonObject, MultiRoundInput } from '../handlers.js';
import { PendingCall } from './pending-call.js';
import { progressReporter } from './request-context.js';
import type { ServerSdk } from '../sdk.js';

/**
 * What the gateway's `requestState` carries: a call it holds in memory (a 2025-era backend's own
 * requests turned into rounds), or a backend's own `requestState`, passed on.
 */
type RoundState = { readonly call: string; readonly node?: string } | { readonly relay: string };

/** A retry handed to the replica that holds its call (`Cluster.ask`), and what comes back. */
type RoundQuestion = { readonly round: string; readonly request: string; readonly inputResponses: JsonObject | null };
type RoundAnswer =
  { readonly result: JsonObject } | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

export interface InputRoundsOptions {
  /** The key `requestState` is signed with; random per process by default. Replicas share one. */
  readonly key?: Uint8Array | undefined;
  /** Replicas behind one balancer: a retry reaching a replica that does not hold its call is handed to the one that does. */
  readonly cluster?: Cluster | undefined;
  readonly logger: Logger;
}

export interface InputRounds {
  /** `ServerOptions.requestState.verify`: rejects state this process did not mint, or minted too long ago. */
  readonly verify: (state: string, ctx: ServerContext) => Promise<unknown>;
  /**
   * Serves one 2026-07-28 `tools/call`, `prompts/get` or `resources/read` (`request` names it, e.g.
   * `tools/call "x"`): a first request starts `run`; a retry continues the call its state names.
   */
  serve(
    ctx: ServerContext,
    request: string,
    run: (pending: PendingCall, relay: MultiRoundInput) => Promise<JsonObject>,
  ): Promise<JsonObject>;
}

const isInputRequired = (result: JsonObject): boolean => result['resultType'] === 'input_required';

/** The 2025-11-25 "open these URLs, then retry" error (-32042), which 2026-07-28 expresses as a round. */
const urlElicitationRequired = -32042;

/**
 * A 2025-era backend's `UrlElicitationRequiredError` as the round a 2026-07-28 client understands:
 * the URL elicitations as its requests, without state, so the client's retry is a fresh call.
 */
const urlRound = (error: unknown): JsonObject | undefined => {
  if (!(error instanceof RpcError) || error.code !== urlElicitationRequired) return undefined;
  const elicitations = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(elicitations) || elicitations.length === 0) return undefined;
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(
      elicitations.map((params: unknown, index) => [`url-${index + 1}`, { method: 'elicitation/create', params }]),
    ),
  };
};

/** What the rounds' steps share: made once per blueprint. */
interface Rounds {
  readonly sdk: typeof ServerSdk;
  readonly timeoutMs: number;
  readonly codec: RequestStateCodec<RoundState>;
  /** The calls this process holds, by the id their `requestState` names. */
  readonly calls: Map<string, PendingCall>;
  readonly cluster: Cluster | undefined;
  readonly logger: Logger;
}

type Reporter = ReturnType<typeof progressReporter>;

/** One round of `pending`: its outcome as the client sees it, with state to continue by. */
const round = async (
  rounds: Rounds,
  pending: PendingCall,
  signal: AbortSignal,
  reporter: Reporter,
  id: string | undefined,
): Promise<JsonObject> => {
  const outcome = await pending.round(signal, reporter);
  if (outcome.kind === 'error') {
    const urls = urlRound(outcome.error);
    if (urls === undefined) throw outcome.error;
    return urls;
  }
  const { cluster, codec, calls } = rounds;
  if (outcome.kind === 'input') {
    const callId = id ?? randomUUID();
    if (id === undefined) {
      calls.set(callId, pending);
      pending.onEnd = () => calls.delete(callId);
    }
    const state: RoundState = cluster === undefined ? { call: callId } : { call: callId, node: cluster.nodeId };
    return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: await codec.mint(state) };
  }
  const { result } = outcome;
  // A 2026-07-28 backend's own round, passed on: its state travels inside ours.
  if (isInputRequired(result) && typeof result['requestState'] === 'string')
    return { ...result, requestState: await codec.mint({ relay: result['requestState'] }) };
  return result;
};

/** The next round of call `id`, held here. */
const continueHere = (
  rounds: Rounds,
  id: string,
  request: string,
  inputResponses: JsonObject | undefined,
  signal: AbortSignal,
  reporter: Reporter,
): Promise<JsonObject> => {
  const pending = rounds.calls.get(id);
  if (pending === undefined) {
    throw new PromptyardError(
      'INVALID_REQUEST',
      `The ${request} this requestState continues is over: it finished, was cancelled, or waited more than ${Math.round(rounds.timeoutMs / 1000)} s for this retry. Send the request again without requestState.`,
    );
  }
  if (pending.request !== request)
    throw new PromptyardError(
      'INVALID_REQUEST',
      `This requestState continues ${pending.request}, not ${request}: retry the request it came with.`,
    );
  pending.answer(inputResponses);
  return round(rounds, pending, signal, reporter, id);
};

/** Another replica's retry of a call this one holds (progress stays with this replica). */
const answerAsk = async (rounds: Rounds, question: RoundQuestion): Promise<RoundAnswer> => {
  const { round: id, request, inputResponses } = question;
  try {
    const result = await continueHere(rounds, id, request, inputResponses ?? undefined, new AbortController().signal, undefined);
    return { result };
  } catch (error) {
    const { code, message, data } = toProtocolError(rounds.sdk, error, rounds.logger, request);
    return { error: { code, message, ...(data === undefined ? {} : { data }) } };
  }
};

/** The next round of a call another replica holds: the retry is handed to it. */
const continueThere = async (
  cluster: Cluster,
  timeoutMs: number,
  node: string,
  id: string,
  request: string,
  inputResponses: JsonObject | undefined,
): Promise<JsonObject> => {
  const question: RoundQuestion = { round: id, request, inputResponses: inputResponses ?? null };
  const answer = (await cluster.ask(node, question, timeoutMs)) as unknown as RoundAnswer;
  if ('result' in answer) return answer.result;
  throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
};

/** A first request: `run` starts, with what the client sent and can answer, and its first round is served. */
const startCall = (
  rounds: Rounds,
  ctx: ServerContext,
  request: string,
  state: RoundState | undefined,
  run: (pending: PendingCall, relay: MultiRoundInput) => Promise<JsonObject>,
): Promise<JsonObject> => {
  const inputResponses = ctx.mcpReq.inputResponses as JsonObject | undefined;
  const pending = new PendingCall(request, rounds.timeoutMs);
  const clientCapabilities = (ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined)?.[
    rounds.sdk.CLIENT_CAPABILITIES_META_KEY
  ] as JsonObject | undefined;
  const relay = {
    ...(inputResponses === undefined ? {} : { inputResponses }),
    ...(clientCapabilities === undefined ? {} : { clientCapabilities }),
    ...(state !== undefined && 'relay' in state ? { requestState: state.relay } : {}),
  };
  pending.follow(run(pending, relay));
  return round(rounds, pending, ctx.mcpReq.signal, progressReporter(ctx), undefined);
};

/**
 * The multi-round-trip side of the server adapter. Its `requestState` is signed with a key made per
 * process — or shared by the replicas of a cluster — names the call and the replica whose memory
 * holds it, and expires with the calls.
 */
export const createInputRounds = (sdk: typeof ServerSdk, timeoutMs: number, options: InputRoundsOptions): InputRounds => {
  const { cluster } = options;
  const rounds: Rounds = {
    sdk,
    timeoutMs,
    codec: sdk.createRequestStateCodec<RoundState>({ key: options.key ?? randomBytes(32), ttlSeconds: Math.ceil(timeoutMs / 1000) }),
    calls: new Map<string, PendingCall>(),
    cluster,
    logger: options.logger,
  };
  cluster?.onAsk((question) => answerAsk(rounds, question as unknown as RoundQuestion));
  return {
    verify: (state, ctx) => rounds.codec.verify(state, ctx),
    serve: async (ctx, request, run) => {
      const state = ctx.mcpReq.requestState<RoundState>();
      if (state === undefined || !('call' in state)) return startCall(rounds, ctx, request, state, run);
      const inputResponses = ctx.mcpReq.inputResponses as JsonObject | undefined;
      if (cluster !== undefined && state.node !== undefined && state.node !== cluster.nodeId)
        return continueThere(cluster, timeoutMs, state.node, state.call, request, inputResponses);
      return continueHere(rounds, state.call, request, inputResponses, ctx.mcpReq.signal, progressReporter(ctx));
    },
  };
};
