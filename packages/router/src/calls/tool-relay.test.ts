import type { McpTracing } from '@promptyard/mcp';
import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import { PeerRequests } from './peer-requests.js';
import type { RouteTable } from '../routes/route-table.js';
import { Auditor } from './call-audit.js';
import { CallWindow } from './call-window.js';
import { relayToolCall } from './tool-relay.js';

/** A ready 2025-era stdio backend whose relay answers every call with `result` (or the whole `response`). */
const relayed = (
  prefix: string | false,
  result: Record<string, unknown>,
  tracing?: McpTracing,
  trace?: () => never,
  response: Record<string, unknown> = { jsonrpc: '2.0', id: 'relay-1', result },
) => {
  const sent: Readonly<Record<string, unknown>>[] = [];
  const relay = {
    call: (params: Readonly<Record<string, unknown>>, done: (response: Readonly<Record<string, unknown>>) => void) => {
      sent.push(params);
      queueMicrotask(() => done(response));
      return { cancel: () => {} };
    },
  };
  const backend = {
    id: 'everything',
    config: { prefix },
    state: 'ready',
    inFlight: 0,
    calls: new CallWindow(),
    upstreamOrUndefined: () => ({ relay }),
  } as unknown as Backend;
  const tools: RouteTable['tools'] = new Map([
    [
      'everything_get-resource-links',
      { backend, original: 'get-resource-links', item: { name: 'everything_get-resource-links', inputSchema: { type: 'object' } } },
    ],
  ]);
  const call = () =>
    new Promise<Readonly<Record<string, unknown>>>((resolve) => {
      const peers = new PeerRequests();
      peers.tracing = tracing;
      relayToolCall(
        {
          tools,
          timeouts: { requestMs: 1000, toolMs: 1000 },
          peers,
          auditor: new Auditor(undefined, 'default', undefined),
          approvals: undefined,
        },
        { id: 7, params: { name: 'everything_get-resource-links', arguments: {}, _meta: { traceparent: 'the client’s', other: 1 } } },
        undefined,
        resolve,
        trace,
      );
    });
  return { call, sent, backend };
};

describe('relayToolCall', () => {
  const links = {
    content: [
      { type: 'text', text: 'links:' },
      { type: 'resource_link', uri: 'demo://resource/dynamic/text/2', name: 'Text Resource 2' },
    ],
    _meta: { ui: { resourceUri: 'ui://a/b.html' } },
  };

  it('namespaces the resource URIs of the relayed result and restores the client’s id and the tool’s name', async () => {
    const { call, sent } = relayed('everything', links);
    expect(await call()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        content: [
          { type: 'text', text: 'links:' },
          { type: 'resource_link', uri: 'everything+demo://resource/dynamic/text/2', name: 'Text Resource 2' },
        ],
        _meta: { ui: { resourceUri: 'everything+ui://a/b.html' } },
      },
    });
    // Without traces, _meta goes on as the client sent it.
    expect(sent).toEqual([{ name: 'get-resource-links', arguments: {}, _meta: { traceparent: 'the client’s', other: 1 } }]);
  });

  it('passes a text-only result on untouched, and a pass-through server’s result as it is', async () => {
    const text = { content: [{ type: 'text', text: 'hello' }] };
    expect((await relayed('everything', text).call())['result']).toBe(text);
    expect((await relayed(false, links).call())['result']).toBe(links);
  });

  it('with traces, sends the call in a CLIENT span, child of the relayed request’s, its context in _meta', async () => {
    const calls: { parent: unknown; call: unknown; ended: unknown[] }[] = [];
    const tracing: McpTracing = {
      request: () => {
        throw new Error('not used');
      },
      backendCall: (parent, call) => {
        const record = { parent, call, ended: [] as unknown[] };
        calls.push(record);
        return {
          context: {} as never,
          end: (error) => void record.ended.push(error),
          meta: (meta) => ({ ...meta, traceparent: 'the gateway’s' }),
        };
      },
      traceId: () => undefined,
    };
    const served = { span: 'served' };
    const { call, sent } = relayed('everything', { content: [], isError: true }, tracing, () => served as never);
    await call();
    expect(calls).toEqual([
      {
        parent: served,
        call: { method: 'tools/call', params: { name: 'get-resource-links' }, backend: 'everything' },
        ended: ['tool_error'],
      },
    ]);
    expect(sent).toEqual([{ name: 'get-resource-links', arguments: {}, _meta: { traceparent: 'the gateway’s', other: 1 } }]);
  });

  it('counts each call in the backend’s recent calls: a JSON-RPC error as failed, an isError result as a tool error', async () => {
    const { call, backend } = relayed('everything', { content: [] });
    await call();
    expect(backend.calls.summary()).toMatchObject({ count: 1, failed: 0, toolErrors: 0 });
    const failing = relayed('everything', {}, undefined, undefined, {
      jsonrpc: '2.0',
      id: 'relay-1',
      error: { code: -32603, message: 'boom' },
    });
    expect((await failing.call())['error']).toMatchObject({ message: 'everything: boom' });
    expect(failing.backend.calls.summary()).toMatchObject({ count: 1, failed: 1, toolErrors: 0 });
    const toolError = relayed('everything', { content: [], isError: true });
    await toolError.call();
    expect(toolError.backend.calls.summary()).toMatchObject({ count: 1, failed: 0, toolErrors: 1 });
  });
});
