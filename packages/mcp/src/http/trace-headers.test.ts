import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { adoptTraceHeaders } from './trace-headers.js';

const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const header = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const own = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('adoptTraceHeaders', () => {
  it('copies traceparent and tracestate into the request’s _meta, keeping what it holds', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 2 } } };
    adoptTraceHeaders(request({ traceparent: header, tracestate: 'a=1' }), body);
    expect(body.params._meta).toEqual({ progressToken: 2, traceparent: header, tracestate: 'a=1' });
    const bare: Record<string, unknown> = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    adoptTraceHeaders(request({ traceparent: header }), bare);
    expect(bare['params']).toEqual({ _meta: { traceparent: header } });
  });

  it('leaves a traceparent in _meta as it is: it names the MCP request, the header only the HTTP one', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'x', _meta: { traceparent: own } } };
    adoptTraceHeaders(request({ traceparent: header, tracestate: 'a=1' }), body);
    expect(body.params._meta).toEqual({ traceparent: own });
  });

  it('touches nothing without the header, nor notifications, responses or odd params', () => {
    const cases: unknown[] = [
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [1] },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: 'x' } },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ];
    for (const body of cases) {
      const before = JSON.stringify(body);
      adoptTraceHeaders(request({ traceparent: header }), body);
      expect(JSON.stringify(body)).toBe(before);
    }
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    adoptTraceHeaders(request({}), body);
    expect(body).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  });
});
