import { describe, expect, it } from 'vitest';
import { PendingCall } from './pending-call.js';

const deferred = <T>(): { promise: Promise<T>; resolve: (value: T) => void } => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
};

describe('PendingCall', () => {
  it('collects requests made together into one round, and a missing answer into the next', async () => {
    const call = new PendingCall('tools/call "x"', 60_000);
    const work = deferred<Record<string, unknown>>();
    call.follow(work.promise);
    const name = call.ask('elicitation/create', { message: 'name?' });
    const model = call.ask('sampling/createMessage', { messages: [] });
    const first = await call.round(new AbortController().signal, undefined);
    expect(first).toEqual({
      kind: 'input',
      inputRequests: {
        'elicitation-1': { method: 'elicitation/create', params: { message: 'name?' } },
        'sampling-2': { method: 'sampling/createMessage', params: { messages: [] } },
      },
    });
    call.answer({ 'elicitation-1': { action: 'accept', content: { name: 'Ada' } }, unknown: { action: 'decline' } });
    await expect(name).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
    const second = await call.round(new AbortController().signal, undefined);
    expect(second).toMatchObject({ kind: 'input', inputRequests: { 'sampling-2': { method: 'sampling/createMessage' } } });
    call.answer({ 'sampling-2': { role: 'assistant', content: { type: 'text', text: 'hi' } } });
    await expect(model).resolves.toMatchObject({ role: 'assistant' });
    const last = call.round(new AbortController().signal, undefined);
    work.resolve({ content: [] });
    await expect(last).resolves.toEqual({ kind: 'result', result: { content: [] } });
  });

  it('a call the client abandons is cancelled and its requests refused', async () => {
    const call = new PendingCall('tools/call "x"', 20);
    call.follow(new Promise(() => {}));
    let ended = false;
    call.onEnd = () => (ended = true);
    const asked = call.ask('roots/list', {});
    await call.round(new AbortController().signal, undefined);
    await expect(asked).rejects.toThrow(/did not answer roots\/list: no retry with the answers/);
    expect(call.controller.signal.aborted).toBe(true);
    expect(ended).toBe(true);
  });

  it('cancelling the round in progress cancels the call', async () => {
    const call = new PendingCall('tools/call "x"', 60_000);
    call.follow(new Promise(() => {}));
    const request = new AbortController();
    const round = call.round(request.signal, undefined);
    request.abort();
    await expect(round).resolves.toMatchObject({ kind: 'error' });
    expect(call.controller.signal.aborted).toBe(true);
    await expect(call.ask('elicitation/create', {})).rejects.toThrow(/after the 2026-07-28 call it belongs to had ended/);
  });
});
