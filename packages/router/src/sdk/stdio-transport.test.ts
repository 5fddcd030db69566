import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { adoptEarlyChild, endEarlyChildren, spawnEarly } from './early-spawn.js';
import { liveChildren } from './kill.js';
import type { MessageBounds, OversizedMessage } from './message-bounds.js';
import { ProcessGroupTransport } from './stdio-transport.js';

const bounds: MessageBounds = { server: 'test', maxBytes: 10 * 1024 * 1024, oversized: () => {} };

/** Starts `script` as the server, collecting what the transport reads within `limits`; `closed` settles when it exits. */
const open = async (script: string, limits: MessageBounds = bounds) => {
  const transport = new ProcessGroupTransport(
    { command: process.execPath, args: ['-e', script], env: {}, inheritEnv: true },
    () => {},
    limits,
  );
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await transport.start();
  return { transport, messages, errors, closed };
};

/** Runs `script` as the server, and collects what the transport reads within `limits` until the child exits. */
const run = async (script: string, limits: MessageBounds = bounds): Promise<{ messages: JSONRPCMessage[]; errors: string[] }> => {
  const { messages, errors, closed } = await open(script, limits);
  await closed;
  return { messages, errors };
};

/** Runs a child that writes `chunks` to stdout (a pause between each), and collects what the transport reads. */
const read = async (chunks: readonly string[]): Promise<{ messages: JSONRPCMessage[]; errors: string[] }> => {
  const script = `const chunks = ${JSON.stringify(chunks)}; (async () => { for (const chunk of chunks) { process.stdout.write(Buffer.from(chunk, 'base64')); await new Promise((r) => setTimeout(r, 20)); } })();`;
  return run(script);
};

const base64 = (bytes: Buffer): string => bytes.toString('base64');

describe('ProcessGroupTransport reading stdout', () => {
  it('reads responses, requests and notifications split anywhere, CRLF and multi-byte characters included', async () => {
    const response = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'relay-1', result: { content: [{ type: 'text', text: 'héllo ✓' }] } })}\r\n`,
    );
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

  it('fails the request a message over the limit answers (its id before or after the payload), and reads on', async () => {
    const script = `
      const big = 'a'.repeat(3 * 1024 * 1024);
      const write = (message) => process.stdout.write(message + '\\n');
      write('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"' + big + '"}]}}');
      write('{"result":{"content":[{"type":"text","text":"' + big + '"}]},"jsonrpc":"2.0","id":"relay-2"}');
      write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"' + big + '"}}');
      write('{"jsonrpc":"2.0","id":3,"result":{}}');`;
    const reports: OversizedMessage[] = [];
    const limits = { server: 'big', maxBytes: 1024 * 1024, oversized: (message: OversizedMessage) => reports.push(message) };
    const { messages, errors } = await run(script, limits);
    expect(errors).toEqual([]);
    const limitError = {
      code: -32603,
      message: expect.stringContaining('Server "big" sent a message of more than 1048576 bytes, over [limits] max_message_bytes'),
      data: { server: 'big', maxMessageBytes: 1024 * 1024 },
    };
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: limitError },
      { jsonrpc: '2.0', id: 'relay-2', error: limitError },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(reports.map((report) => report.failed)).toEqual([1, undefined, undefined]);
    for (const report of reports) expect(report.bytes).toBeGreaterThan(1024 * 1024);
  });
});

describe('ProcessGroupTransport with one request in flight', () => {
  const opened: ProcessGroupTransport[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((transport) => transport.close(0)));
  });

  it('fails it the moment a response over the limit passes the limit, though its id would come last', async () => {
    // Reads the request, then starts an answer in the TypeScript SDK's order (result first) that never ends.
    const script = `process.stdin.once('data', () => {
      process.stdout.write('{"result":{"content":[{"type":"text","text":"' + 'a'.repeat(3 * 1024 * 1024));
      setInterval(() => {}, 1000);
    });`;
    const limits = { server: 'big', maxBytes: 1024 * 1024, oversized: () => {} };
    const transport = new ProcessGroupTransport(
      { command: process.execPath, args: ['-e', script], env: {}, inheritEnv: true },
      () => {},
      limits,
    );
    const first = new Promise<JSONRPCMessage>((resolve) => {
      transport.onmessage = resolve;
    });
    opened.push(transport);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 'relay-7', method: 'tools/call', params: { name: 'big' } });
    expect(await first).toMatchObject({ jsonrpc: '2.0', id: 'relay-7', error: { code: -32603, data: { server: 'big' } } });
  });
});

describe('ProcessGroupTransport reading a line that never ends', () => {
  it('cuts it at 4× the limit: the requests in flight fail at once naming the limit, the child is stopped, the transport closes', async () => {
    // Reads the requests, then writes one line without end.
    const script = `process.stdin.once('data', () => {
      const chunk = 'a'.repeat(64 * 1024);
      const more = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', more); };
      more();
    });`;
    const reports: OversizedMessage[] = [];
    const limits = { server: 'endless', maxBytes: 256 * 1024, oversized: (message: OversizedMessage) => reports.push(message) };
    const { transport, messages, errors, closed } = await open(script, limits);
    const pid = transport.pid as number;
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } });
    await transport.send({ jsonrpc: '2.0', id: 'relay-2', method: 'tools/call', params: { name: 'b' } });
    await closed;
    const cutError = {
      code: -32603,
      message: expect.stringContaining(
        'Server "endless" wrote a line that did not end within 1048576 bytes (4× [limits] max_message_bytes, 262144)',
      ),
      data: { server: 'endless', maxMessageBytes: 256 * 1024 },
    };
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: cutError },
      { jsonrpc: '2.0', id: 'relay-2', error: cutError },
    ]);
    expect(errors).toEqual([expect.stringContaining('did not end within 4× [limits] max_message_bytes (262144 bytes)')]);
    expect(reports.map(({ unbounded }) => unbounded)).toEqual([undefined, true]);
    expect(reports[1]?.bytes).toBeGreaterThan(4 * 256 * 1024);
    expect(liveChildren.has(pid)).toBe(false);
    await expect(transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' })).rejects.toThrow(/not running/);
  });
});

describe('ProcessGroupTransport taking over a child started early', () => {
  it('reads what the child wrote (stdout and stderr) before the transport existed, and spawns no second child', async () => {
    const script = `process.stderr.write('early line\\n'); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pid: process.pid } }) + '\\n');`;
    const spec = { command: process.execPath, args: ['-e', script], env: {}, inheritEnv: true };
    spawnEarly(spec);
    const stderr: string[] = [];
    const transport = new ProcessGroupTransport(spec, (line) => stderr.push(line), bounds);
    const messages: JSONRPCMessage[] = [];
    transport.onmessage = (message) => messages.push(message);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    const pid = transport.pid;
    await closed;
    expect(stderr).toEqual(['early line']);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { pid } }]);
  });

  it('closes when the child ended before it was taken over', async () => {
    const marker = join(tmpdir(), `promptyard-early-${process.pid}-${Date.now()}`);
    const script = `process.stderr.write('boom\\n'); require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1);`;
    const spec = { command: process.execPath, args: ['-e', script], env: {}, inheritEnv: true };
    spawnEarly(spec);
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 5));
    rmSync(marker);
    const stderr: string[] = [];
    const transport = new ProcessGroupTransport(spec, (line) => stderr.push(line), bounds);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    await closed;
    expect(stderr).toEqual(['boom']);
  });

  it('reports a command that was not found, as when it spawns the child itself', async () => {
    const spec = { command: 'promptyard-no-such-command', args: [], env: {}, inheritEnv: true };
    spawnEarly(spec);
    await expect(new ProcessGroupTransport(spec, () => {}, bounds).start()).rejects.toThrow(/"promptyard-no-such-command" was not found/);
  });

  it('ends an early child that no transport took over', async () => {
    const spec = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {}, inheritEnv: true };
    const before = new Set(liveChildren);
    spawnEarly(spec);
    const newPid = (): number | undefined => [...liveChildren].find((pid) => !before.has(pid));
    while (newPid() === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const pid = newPid() as number;
    endEarlyChildren();
    expect(adoptEarlyChild(spec)).toBeUndefined();
    expect(liveChildren.has(pid)).toBe(false);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
