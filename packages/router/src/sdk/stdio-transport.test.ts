import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProcessGroupTransport } from './stdio-transport.js';

/** Runs a child that writes `chunks` to stdout (a pause between each), and collects what the transport reads. */
const read = async (chunks: readonly string[]): Promise<{ messages: JSONRPCMessage[]; errors: string[] }> => {
  const script = `const chunks = ${JSON.stringify(chunks)}; (async () => { for (const chunk of chunks) { process.stdout.write(Buffer.from(chunk, 'base64')); await new Promise((r) => setTimeout(r, 20)); } })();`;
  const transport = new ProcessGroupTransport({ command: process.execPath, args: ['-e', script], env: {}, inheritEnv: true }, () => {});
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await transport.start();
  await closed;
  return { messages, errors };
};

const base64 = (bytes: Buffer): string => bytes.toString('base64');

describe('ProcessGroupTransport reading stdout', () => {
  it('reads responses, requests and notifications split anywhere, CRLF and multi-byte characters included', async () => {
    const response = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 'relay-1', result: { content: [{ type: 'text', text: 'héllo ✓' }] } })}\r\n`);
    const rest = Buffer.from(
      [
        JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no such method' } }),
        'a stray log line',
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'roots/list' }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
        '',
      ].join('\n'),
    );
    // Cut inside the "✓" (3 bytes in UTF-8) so a character spans two reads.
    const cut = response.indexOf(Buffer.from('✓')) + 1;
    const { messages, errors } = await read([base64(response.subarray(0, cut)), base64(response.subarray(cut)), base64(rest)]);
    expect(errors).toEqual([]);
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 'relay-1', result: { content: [{ type: 'text', text: 'héllo ✓' }] } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no such method' } },
      { jsonrpc: '2.0', id: 7, method: 'roots/list' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
  });

  it('reports a line that is JSON but not JSON-RPC, and keeps reading', async () => {
    const lines = `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'not an object' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} })}\n`;
    const { messages, errors } = await read([base64(Buffer.from(lines))]);
    expect(errors).toHaveLength(1);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
  });
});
