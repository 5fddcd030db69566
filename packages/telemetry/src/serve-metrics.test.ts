import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createPrometheusMetrics } from './prometheus-metrics.js';
import { parseMetricsBind, serveMetrics } from './serve-metrics.js';
import type { MetricsListener } from './serve-metrics.js';

const listeners: MetricsListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

describe('parseMetricsBind', () => {
  it('reads host:port and [v6]:port, and says what it wants otherwise', () => {
    expect(parseMetricsBind('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsBind('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(() => parseMetricsBind('9464')).toThrow('[telemetry] metrics_bind must be host:port (for example 127.0.0.1:9464), got "9464"');
    expect(() => parseMetricsBind('127.0.0.1:70000')).toThrow('must be host:port');
  });
});

describe('serveMetrics', () => {
  it('serves the exposition at GET /metrics only', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    metrics.request('prompts/list')('ok');
    const listener = await serveMetrics(metrics, { bind: '127.0.0.1:0', logger: silentLogger() });
    listeners.push(listener);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const scraped = await fetch(listener.url);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    expect(await scraped.text()).toContain('promptyard_request_duration_seconds_count{method="prompts/list",outcome="ok"} 1');
    expect((await fetch(listener.url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(listener.url, { method: 'POST' })).status).toBe(405);
  });

  it('names the setting when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(
        serveMetrics(createPrometheusMetrics({ processMetrics: false }), { bind: `127.0.0.1:${port}`, logger: silentLogger() }),
      ).rejects.toThrow(`[telemetry] metrics_bind 127.0.0.1:${port} cannot be bound (EADDRINUSE): choose another address or port`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
