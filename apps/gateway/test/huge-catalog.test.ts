/**
 * `[limits] max_definitions` against a server that lists 100,000 tools (backends/huge-catalog.mjs,
 * pages of 1,000) beside a normal one: the gateway asks for no page past the cap, serves the first
 * 10,000, shows the server degraded in /health with the reason (logged once), keeps the other
 * server's tools listed and its calls answered while the big list is taken in, and its peak memory
 * stays under 300 MB. The time bounds are the acceptance figures: each is measured here and printed.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { cleanup, connectHttp, eventually, gatewayToml, health, startHttpGateway, stdioBackendCommand, textOf } from './harness.js';
import type { HttpGateway } from './harness.js';

const hugeCatalog = fileURLToPath(new URL('./backends/huge-catalog.mjs', import.meta.url));
const reason =
  'big: lists more than 10000 tools, over [limits] max_definitions (10000); the first 10000 are served — raise the limit or trim the server';

afterEach(async () => {
  await cleanup();
});

/** The highest resident memory process `pid` has had (VmHWM), in MB. */
const peakRssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
};

/** Lists tools through the gateway until alpha's are there: the names listed. */
const listUntilAlpha = async (client: Client): Promise<string[]> => {
  for (;;) {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    if (names.includes('alpha_echo')) return names;
  }
};

/** Calls alpha's echo one after another until `settled` is true, then once more: each call's time in ms, and how many came before. */
const callAlphaUntil = async (client: Client, settled: () => boolean): Promise<{ times: number[]; during: number }> => {
  const times: number[] = [];
  let during = 0;
  for (let last = false; !last;) {
    last = settled();
    const began = performance.now();
    const result = await client.callTool({ name: 'alpha_echo', arguments: { text: `call ${times.length}` } });
    times.push(performance.now() - began);
    expect(textOf(result)).toContain(`call ${times.length - 1}`);
    if (!last) during++;
  }
  return { times, during };
};

const startGateway = (): Promise<HttpGateway> =>
  startHttpGateway({
    config: gatewayToml(
      {
        big: { command: { command: process.execPath, args: [hugeCatalog, '--tools', '100000', '--page-size', '1000'] } },
        alpha: { command: stdioBackendCommand({ name: 'alpha' }) },
      },
      // Lists answer at once with the servers that are ready; the servers' stderr lines are logged.
      { startup_wait_ms: 0, log_level: 'debug' },
    ),
    waitForServers: false,
  });

describe('[limits] max_definitions', () => {
  it('serves the first 10,000 of a server listing 100,000 tools, degraded, while the other server is listed and called at once', async () => {
    const gateway = await startGateway();
    const client = await connectHttp(gateway.url);
    await gateway.stderr.waitFor(/server ready server=alpha/, 20_000);
    const alphaReady = performance.now();
    await listUntilAlpha(client);
    const listedMs = performance.now() - alphaReady;
    let bigReady = false;
    void gateway.stderr.waitFor(/server ready server=big/, 60_000).then(() => (bigReady = true));
    const calls = await callAlphaUntil(client, () => bigReady);
    const callMaxMs = Math.max(...calls.times);
    const peakMb = await peakRssMb(gateway.pid);
    console.log(
      `huge catalog: alpha listed ${listedMs.toFixed(0)} ms after it was ready; ${calls.times.length} alpha calls (${calls.during} while the big list was taken in), max ${callMaxMs.toFixed(0)} ms; peak RSS ${peakMb.toFixed(0)} MB`,
    );
    expect(listedMs).toBeLessThan(1000);
    expect(calls.during).toBeGreaterThan(0);
    expect(callMaxMs).toBeLessThan(1000);

    // The server is ready and serves its first 10,000 tools, degraded, with the reason.
    const big = await eventually(
      async () => (await health(gateway)).servers.find((server) => server.id === 'big'),
      (server) => server?.state === 'ready' && server.counts['tools'] === 10_000,
      30_000,
    );
    expect(big).toMatchObject({ state: 'ready', degraded: [reason] });
    const names = await eventually(
      async () => (await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('big_')),
      (listed) => listed.length > 0,
      30_000,
    );
    expect(names).toHaveLength(10_000);
    expect(names[0]).toBe('big_list_issues_000000');
    expect(names.at(-1)).toBe('big_get_projects_009999');
    expect(textOf(await client.callTool({ name: 'big_get_projects_009999', arguments: { owner: 'o', repo: 'r' } }))).toBe(
      'called get_projects_009999',
    );
    // Pages of 1,000: the eleventh passes the cap, and none is asked for after it.
    expect(gateway.stderr.text.match(/listed page \d+/g)).toHaveLength(11);
    expect(gateway.stderr.text.split(reason)).toHaveLength(2);
    expect(await peakRssMb(gateway.pid)).toBeLessThan(300);
  }, 120_000);
});
