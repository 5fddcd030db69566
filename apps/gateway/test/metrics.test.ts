/**
 * The gateway's /metrics: requests (the relay's tools/call included), each backend's state and calls,
 * behind the endpoint's token over HTTP; and a real Prometheus scraping the gateway and a
 * promptyard-server behind it, both on [telemetry] metrics_bind.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { promtoolProblems, scrape, seriesValue } from '../../../test-support/metrics.js';
import { freePort, startPrometheus } from '../../../test-support/prometheus.js';
import type { Prometheus } from '../../../test-support/prometheus.js';
import {
  cleanup,
  connectHttp,
  eventually,
  gatewayToml,
  makeFolder,
  startHttpGateway,
  startStdioGateway,
  stdioBackendCommand,
  textOf,
} from './harness.js';

const serverCli = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));

afterEach(async () => {
  await cleanup();
});

let prometheus: Prometheus | undefined;
afterAll(async () => {
  await prometheus?.stop();
});

const echoOk = 'promptyard_request_duration_seconds_count{method="tools/call",outcome="ok"}';

describe('gateway metrics', () => {
  it('count relayed calls and show each backend on a listener of their own (stdio)', async () => {
    const gateway = await startStdioGateway({
      config: gatewayToml({ alpha: { command: stdioBackendCommand({ name: 'alpha' }) } }),
      env: { PROMPTYARD_TELEMETRY_METRICS_BIND: '127.0.0.1:0' },
    });
    const url = (await gateway.stderr.waitFor(/metrics at (http:\/\/\S+)/))[1] as string;
    for (const text of ['one', 'two', 'three'])
      expect(textOf(await gateway.client.callTool({ name: 'alpha_echo', arguments: { text } }))).toContain(text);
    const body = await scrape(url);
    expect(seriesValue(body, echoOk)).toBe(3);
    expect(seriesValue(body, 'promptyard_backend_state{backend="alpha",state="ready"}')).toBe(1);
    expect(seriesValue(body, 'promptyard_backend_state{backend="alpha",state="failed"}')).toBe(0);
    expect(seriesValue(body, 'promptyard_backend_restarts_total{backend="alpha"}')).toBe(0);
    expect(seriesValue(body, 'promptyard_backend_calls_in_flight{backend="alpha"}')).toBe(0);
    expect(seriesValue(body, 'promptyard_backend_call_duration_seconds_count{backend="alpha"}')).toBeGreaterThanOrEqual(3);
    expect(promtoolProblems(body)).toBe('');
  });

  it('are served at /metrics behind the HTTP endpoint token, with its sessions', async () => {
    const gateway = await startHttpGateway({
      config: gatewayToml({ alpha: { command: stdioBackendCommand({ name: 'alpha' }) } }),
      env: { PROMPTYARD_AUTH_TOKEN: 'gateway-token' },
    });
    expect((await fetch(`${gateway.origin}/metrics`)).status).toBe(401);
    const client = await connectHttp(gateway.url, { token: 'gateway-token' });
    await client.callTool({ name: 'alpha_echo', arguments: { text: 'hi' } });
    const body = await scrape(`${gateway.origin}/metrics`, { authorization: 'Bearer gateway-token' });
    expect(seriesValue(body, echoOk)).toBe(1);
    expect(seriesValue(body, 'promptyard_http_open_sessions')).toBe(1);
    expect(promtoolProblems(body)).toBe('');
  });

  it('are scraped by a real Prometheus from the gateway and the server behind it', async () => {
    const prompts = await makeFolder({ 'greet.md': '---\ndescription: Greets\n---\nHello\n' });
    const serverMetrics = `127.0.0.1:${await freePort()}`;
    const gateway = await startStdioGateway({
      config: gatewayToml({
        prompts: {
          command: {
            command: process.execPath,
            args: [serverCli, '--prompts', prompts],
            env: { PROMPTYARD_TELEMETRY_METRICS_BIND: serverMetrics },
          },
        },
      }),
      env: { PROMPTYARD_TELEMETRY_METRICS_BIND: '127.0.0.1:0' },
    });
    const gatewayMetrics = new URL((await gateway.stderr.waitFor(/metrics at (http:\/\/\S+)/))[1] as string).host;
    await gateway.client.getPrompt({ name: 'prompts_greet' });
    prometheus = await startPrometheus([gatewayMetrics, serverMetrics]);
    const scraper = prometheus;
    await eventually(
      () => scraper.query('up == 1'),
      (up) => up.length === 2,
      20_000,
    );

    const total = 'sum by (instance) (promptyard_request_duration_seconds_count{method="prompts/get"})';
    const before = await eventually(
      () => scraper.query(total),
      (samples) => samples.length === 2,
      20_000,
    );
    for (let i = 0; i < 5; i++) await gateway.client.getPrompt({ name: 'prompts_greet' });
    const valueOf = (samples: { labels: Record<string, string>; value: number }[], instance: string): number =>
      samples.find((sample) => sample.labels['instance'] === instance)?.value ?? 0;
    await eventually(
      () => scraper.query(total),
      (samples) => [gatewayMetrics, serverMetrics].every((instance) => valueOf(samples, instance) >= valueOf(before, instance) + 5),
      20_000,
    );
  });
});
