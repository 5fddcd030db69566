import type { Metrics, RequestOutcome } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { RpcError } from '../errors.js';
import type { JsonObject, McpRelay } from '../handlers.js';
import { timedHandler, timedRelay } from './request-metrics.js';

const recorder = (): { metrics: Metrics; seen: string[] } => {
  const seen: string[] = [];
  const metrics = {
    request: (method: string) => (outcome: RequestOutcome) => void seen.push(`${method} ${outcome}`),
  } as Metrics;
  return { metrics, seen };
};

describe('timedHandler', () => {
  it('records each answer once with its outcome and passes answers and errors on', async () => {
    const { metrics, seen } = recorder();
    const ok = timedHandler(metrics, 'prompts/get', (async () => ({ messages: [] })) as (request: never, ctx: never) => unknown);
    const toolError = timedHandler(metrics, 'tools/call', (async () => ({ content: [], isError: true })) as (
      request: never,
      ctx: never,
    ) => unknown);
    const invalid = timedHandler(metrics, 'prompts/get', (async () => {
      throw new RpcError(-32602, 'bad');
    }) as (request: never, ctx: never) => unknown);
    const plain = timedHandler(metrics, 'ping', (() => {
      throw new Error('boom');
    }) as (request: never, ctx: never) => unknown);
    expect(await ok(undefined as never, undefined as never)).toEqual({ messages: [] });
    await toolError(undefined as never, undefined as never);
    await expect(invalid(undefined as never, undefined as never)).rejects.toThrow('bad');
    expect(() => plain(undefined as never, undefined as never)).toThrow('boom');
    expect(seen).toEqual(['prompts/get ok', 'tools/call tool_error', 'prompts/get invalid_params', 'ping internal_error']);
  });
});

describe('timedRelay', () => {
  it('records the requests the relay takes (its methods), by the outcome of their replies, and nothing else', () => {
    const { metrics, seen } = recorder();
    const replies: ((message: JsonObject) => void)[] = [];
    const relay: McpRelay = {
      methods: ['tools/call', 'prompts/get'],
      open: () => ({
        offer: (message, reply) => {
          if (message['method'] !== 'tools/call' && message['method'] !== 'prompts/get') return false;
          replies.push(reply);
          return true;
        },
        close: () => {},
      }),
    };
    const channel = timedRelay(relay, metrics).open(undefined);
    const answered: JsonObject[] = [];
    expect(channel.offer({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }, (reply) => answered.push(reply))).toBe(false);
    expect(channel.offer({ jsonrpc: '2.0', id: 2, method: 'tools/call' }, (reply) => answered.push(reply))).toBe(true);
    expect(channel.offer({ jsonrpc: '2.0', id: 3, method: 'tools/call' }, (reply) => answered.push(reply))).toBe(true);
    expect(channel.offer({ jsonrpc: '2.0', id: 4, method: 'prompts/get' }, (reply) => answered.push(reply))).toBe(true);
    replies[0]?.({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    replies[1]?.({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'no' } });
    replies[2]?.({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'unknown prompt' } });
    expect(answered).toHaveLength(3);
    expect(seen).toEqual(['tools/call ok', 'tools/call method_not_found', 'prompts/get invalid_params']);
  });
});
