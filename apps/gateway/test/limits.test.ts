/**
 * `[limits] max_message_bytes` against backends that send too much: a 3.5 MB stdio answer, and HTTP
 * answers that never end (an SSE line, an SSE event, a JSON body), and a stdio line that never ends
 * (cut at 4× the limit, the server restarted). Each time the call it answers
 * fails within a second of the limit being crossed with an error naming the backend and the limit,
 * the backend beside it keeps serving, /health and /metrics count the message, and the gateway's
 * peak memory stays far below what the backend sent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { scrape, seriesValue } from '../../../test-support/metrics.js';
import { startHostileHttp } from './backends/hostile-http.js';
import type { Flood, HostileHttp } from './backends/hostile-http.js';
import {
  cleanup,
  connectHttp,
  eventually,
  gatewayToml,
  health,
  makeFolder,
  startHttpGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';
import type { HttpGateway } from './harness.js';

const LIMIT = 1024 * 1024;
const limits = `[limits]\nmax_message_bytes = ${LIMIT}`;
const limitError = 'Server "big" sent a message of more than 1048576 bytes, over [limits] max_message_bytes (1048576); it was dropped';
const hostileStdio = fileURLToPath(new URL('./backends/hostile-stdio.mjs', import.meta.url));
const alpha = { command: stdioBackendCommand({ name: 'alpha' }) };

const hostile: HostileHttp[] = [];
afterEach(async () => {
  await cleanup();
  await Promise.all(hostile.splice(0).map((server) => server.stop()));
});

/** The highest resident memory process `pid` has had (VmHWM), in MB. */
const peakRssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
};

/** Calls `name`, expecting it to fail: the error's text, and when it came. */
const failedCall = async (client: Client, name: string): Promise<{ message: string; at: number }> => {
  try {
    const result = await client.callTool({ name, arguments: {} });
    return { message: `it answered: ${textOf(result).slice(0, 200)}`, at: Date.now() };
  } catch (error) {
    return { message: (error as Error).message, at: Date.now() };
  }
};

/** Calls the misbehaving backend's `tool` and, beside it, the healthy one's echo. */
const floodBesideEcho = async (client: Client, tool: string): Promise<{ message: string; at: number }> => {
  const [failed, echo] = await Promise.all([
    failedCall(client, tool),
    client.callTool({ name: 'alpha_echo', arguments: { text: 'still here' } }),
  ]);
  expect(textOf(echo)).toContain('still here');
  return failed;
};

/** What /health shows of server "big". */
const bigHealth = async (gateway: HttpGateway): Promise<Record<string, unknown>> =>
  (await health(gateway)).servers.find((server) => server.id === 'big') as unknown as Record<string, unknown>;

describe('[limits] max_message_bytes', () => {
  it('fails a call a stdio server answers with 3.5 MB within a second of the limit, its id before the payload or after', async () => {
    const crossed = join(await makeFolder({}), 'crossed');
    // Under 4× the limit, the line ends before the stream would be taken as unbounded: it is skipped, the server kept.
    const bytes = String(3.5 * LIMIT);
    const big = {
      command: { command: process.execPath, args: [hostileStdio, '--limit', String(LIMIT), '--bytes', bytes, '--crossed', crossed] },
    };
    const gateway = await startHttpGateway({ config: gatewayToml({ big, alpha }, {}, limits) });
    const client = await connectHttp(gateway.url);
    for (const [index, tool] of ['big_flood', 'big_flood_id_last'].entries()) {
      const failed = await floodBesideEcho(client, tool);
      expect(failed.message).toContain(limitError);
      const crossedAt = Number((await readFile(crossed, 'utf8')).trim().split('\n')[index]);
      expect(failed.at - crossedAt).toBeLessThan(1000);
    }
    expect(textOf(await client.callTool({ name: 'alpha_echo', arguments: { text: 'after' } }))).toContain('after');
    expect(await bigHealth(gateway)).toMatchObject({ state: 'ready', oversizedMessages: 2, lastOversized: { where: 'stdout line' } });
    expect(seriesValue(await scrape(`${gateway.origin}/metrics`), 'promptyard_backend_oversized_messages_total{backend="big"}')).toBe(2);
    expect(gateway.stderr.text).toContain('server "big" sent a message over [limits] max_message_bytes (1048576 bytes');
    expect(await peakRssMb(gateway.pid)).toBeLessThan(300);
  });

  it('cuts a stdio line that never ends at 4× the limit: the calls waiting on the server fail at once, and it is restarted', async () => {
    const crossed = join(await makeFolder({}), 'crossed');
    const big = { command: { command: process.execPath, args: [hostileStdio, '--limit', String(LIMIT), '--crossed', crossed] } };
    const restart = '[restart]\ninitial_ms = 100\nmax_ms = 1000';
    const gateway = await startHttpGateway({ config: gatewayToml({ big, alpha }, {}, `${limits}\n${restart}`) });
    const client = await connectHttp(gateway.url);
    const firstPid = (await bigHealth(gateway))['pid'];
    // Two calls in flight: the endless answer's id would come last, so neither is known to be the one it answers.
    const [writing, waiting] = await Promise.all([failedCall(client, 'big_endless'), failedCall(client, 'big_endless')]);
    const cutAt = Number((await readFile(crossed, 'utf8')).trim());
    const unbounded = 'Server "big" wrote a line that did not end within 4194304 bytes (4× [limits] max_message_bytes, 1048576)';
    expect([writing.message, waiting.message]).toEqual([expect.stringContaining(unbounded), expect.stringContaining(unbounded)]);
    expect(Math.max(writing.at, waiting.at) - cutAt).toBeLessThan(1000);
    const back = await eventually(
      () => bigHealth(gateway),
      (entry) => entry['state'] === 'ready' && entry['pid'] !== firstPid,
    );
    expect(back).toMatchObject({ restarts: 1, oversizedMessages: 2, lastOversized: { where: 'stdout line' } });
    expect(gateway.stderr.text).toContain('server "big" wrote a line that did not end within 4× [limits] max_message_bytes');
    expect(textOf(await client.callTool({ name: 'alpha_echo', arguments: { text: 'after' } }))).toContain('after');
    expect(await peakRssMb(gateway.pid)).toBeLessThan(300);
  });

  const floods: [Flood, string][] = [
    ['sse-line', 'an SSE line that never ends'],
    ['sse-event', 'an SSE event that never ends'],
    ['json', 'a JSON body that never ends'],
  ];
  it.each(floods)('cuts %s (%s) at the limit and fails the call within a second', async (kind) => {
    const server = await startHostileHttp(kind, LIMIT);
    hostile.push(server);
    const gateway = await startHttpGateway({
      config: gatewayToml({ big: { url: server.url, protocol: '2025-11-25' }, alpha }, {}, limits),
    });
    const client = await connectHttp(gateway.url);
    const failed = await floodBesideEcho(client, 'big_flood');
    expect(failed.message).toContain(limitError);
    expect(failed.at - (await server.crossed)).toBeLessThan(1000);
    // The gateway hung up on the endless answer.
    await server.hungUp;
    expect(await bigHealth(gateway)).toMatchObject({
      state: 'ready',
      oversizedMessages: 1,
      lastOversized: { where: kind === 'json' ? 'HTTP body' : 'SSE event' },
    });
    expect(textOf(await client.callTool({ name: 'alpha_echo', arguments: { text: 'after' } }))).toContain('after');
    expect(await peakRssMb(gateway.pid)).toBeLessThan(300);
  });
});
