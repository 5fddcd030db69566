import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createPrometheusMetrics } from './prometheus-metrics.js';

const sample = (body: string, series: string): number | undefined => {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('createPrometheusMetrics', () => {
  it('counts requests by method and outcome, with their durations', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    metrics.request('prompts/get')('ok');
    metrics.request('prompts/get')('ok');
    metrics.request('prompts/get')('invalid_params');
    metrics.request('tools/call')('tool_error');
    const { body, contentType } = await metrics.scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('# HELP promptyard_request_duration_seconds ');
    expect(sample(body, 'promptyard_request_duration_seconds_count{method="prompts/get",outcome="ok"}')).toBe(2);
    expect(sample(body, 'promptyard_request_duration_seconds_count{method="prompts/get",outcome="invalid_params"}')).toBe(1);
    expect(sample(body, 'promptyard_request_duration_seconds_count{method="tools/call",outcome="tool_error"}')).toBe(1);
    // Groups not in use export nothing.
    expect(body).not.toContain('promptyard_backend');
    expect(body).not.toContain('promptyard_http');
    expect(body).not.toContain('promptyard_gateway_decisions_total');
  });

  it('counts the decisions the gateway takes, by decision and profile', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    metrics.decided('denied', 'default');
    metrics.decided('denied', 'default');
    metrics.decided('approved', 'ops');
    const { body } = await metrics.scrape();
    expect(body).toContain('# TYPE promptyard_gateway_decisions_total counter');
    expect(sample(body, 'promptyard_gateway_decisions_total{decision="denied",profile="default"}')).toBe(2);
    expect(sample(body, 'promptyard_gateway_decisions_total{decision="approved",profile="ops"}')).toBe(1);
    expect(sample(body, 'promptyard_gateway_decisions_total{decision="allowed",profile="default"}')).toBeUndefined();
  });

  it('reads backends, sessions, streams and the catalog at each scrape', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    let state = 'starting';
    let restarts = 0;
    metrics.backends(() => [{ id: 'github', state, restarts, inFlight: restarts }]);
    metrics.http({ sessions: () => 3, streams: () => 2 });
    metrics.catalog(() => 42);
    let redis: 'ready' | 'degraded' = 'degraded';
    metrics.cluster(() => redis);
    const first = (await metrics.scrape()).body;
    expect(sample(first, 'promptyard_backend_state{backend="github",state="starting"}')).toBe(1);
    expect(sample(first, 'promptyard_backend_state{backend="github",state="ready"}')).toBe(0);
    expect(sample(first, 'promptyard_catalog_reloads_total')).toBe(0);
    expect(sample(first, 'promptyard_catalog_reload_errors_total')).toBe(0);
    expect(sample(first, 'promptyard_cluster_redis_up')).toBe(0);
    state = 'ready';
    redis = 'ready';
    restarts = 2;
    metrics.backendCall('github')();
    metrics.oversizedMessage('github');
    metrics.oversizedMessage('github');
    metrics.reloaded(0);
    metrics.reloaded(3);
    const second = (await metrics.scrape()).body;
    expect(sample(second, 'promptyard_backend_state{backend="github",state="ready"}')).toBe(1);
    expect(sample(second, 'promptyard_backend_state{backend="github",state="starting"}')).toBe(0);
    expect(sample(second, 'promptyard_backend_restarts_total{backend="github"}')).toBe(2);
    expect(sample(second, 'promptyard_backend_calls_in_flight{backend="github"}')).toBe(2);
    expect(sample(second, 'promptyard_backend_call_duration_seconds_count{backend="github"}')).toBe(1);
    expect(sample(second, 'promptyard_backend_oversized_messages_total{backend="github"}')).toBe(2);
    expect(sample(second, 'promptyard_http_open_sessions')).toBe(3);
    expect(sample(second, 'promptyard_http_open_streams')).toBe(2);
    expect(sample(second, 'promptyard_catalog_prompts')).toBe(42);
    expect(sample(second, 'promptyard_catalog_reloads_total')).toBe(2);
    expect(sample(second, 'promptyard_catalog_reload_errors_total')).toBe(3);
    expect(sample(second, 'promptyard_cluster_redis_up')).toBe(1);
  });

  it('passes promtool check metrics with every group in use and the process metrics', async () => {
    const metrics = createPrometheusMetrics();
    metrics.request('prompts/get')('ok');
    metrics.backends(() => [{ id: 'a', state: 'ready', restarts: 0, inFlight: 0 }]);
    metrics.backendCall('a')();
    metrics.oversizedMessage('a');
    metrics.http({ sessions: () => 0, streams: () => 0 });
    metrics.catalog(() => 1);
    metrics.reloaded(1);
    metrics.decided('quarantined', 'ops');
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: (await metrics.scrape()).body, encoding: 'utf8' });
    if (checked.error !== undefined) throw new Error(`promtool is missing: run bash scripts/ensure-tools.sh (${checked.error.message})`);
    expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
    expect(checked.status).toBe(0);
  });

  it('costs well under a microsecond or two a request', () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const methods = ['prompts/get', 'prompts/list', 'tools/call'];
    const run = (count: number): number => {
      const started = performance.now();
      for (let i = 0; i < count; i++) metrics.request(methods[i % 3] as string)('ok');
      return ((performance.now() - started) * 1000) / count;
    };
    run(20_000);
    const microseconds = Math.min(run(100_000), run(100_000));
    console.log(`metrics: ${microseconds.toFixed(3)} µs a request`);
    // Generous against a busy machine: the point is the order of magnitude, beside ~150 µs for a prompts/get over stdio.
    expect(microseconds).toBeLessThan(5);
  });
});
