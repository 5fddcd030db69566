import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { BackendSample, Metrics, RequestDone, RequestOutcome } from '@promptyard/core';
import {
  createReloadCounters,
  registerBackendGauges,
  registerCatalogGauge,
  registerClusterGauge,
  registerHttpGauges,
  registerProcessMetrics,
} from './prometheus-gauges.js';
import type { ReloadCounters } from './prometheus-gauges.js';

/**
 * prom-client, loaded by the first `createPrometheusMetrics` (it is CommonJS, so synchronously): a
 * binary that serves no metrics never loads it, and spends neither its memory nor its start-up time.
 */
let promClient: typeof PromClient | undefined;
const loadPromClient = (): typeof PromClient => (promClient ??= createRequire(import.meta.url)('prom-client') as typeof PromClient);

export interface PrometheusMetricsOptions {
  /** The process metrics prom-client collects (`process_*`, `nodejs_*`); default on. */
  readonly processMetrics?: boolean;
}

/** From half a millisecond (a prompt rendered from memory) to a minute (a slow backend tool). */
const durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Observer = { observe(value: number): void };

/**
 * `promptyard_gateway_decisions_total`, registered at the first decision (a promptyard-server takes
 * none), its series looked up once per decision and profile.
 */
const decisionCounter = (client: typeof PromClient, registers: PromClient.Registry[]): Metrics['decided'] => {
  let decisions: PromClient.Counter<'decision' | 'profile'> | undefined;
  const series = new Map<string, PromClient.Counter.Internal>();
  return (decision, profile) => {
    const key = `${decision} ${profile}`;
    let counter = series.get(key);
    if (counter === undefined) {
      decisions ??= new client.Counter({
        name: 'promptyard_gateway_decisions_total',
        help: 'Calls the gateway decided on, by decision (allowed, denied, quarantined, approved, declined, failed) and profile.',
        labelNames: ['decision', 'profile'] as const,
        registers,
      });
      counter = decisions.labels(decision, profile);
      series.set(key, counter);
    }
    counter.inc();
  };
};

/**
 * Core's `Metrics` as Prometheus instruments in a registry of their own. Groups register on first use:
 * a promptyard-server shows no backend series, a stdio server no HTTP ones.
 *
 * Per request: one `performance.now()` at each end and a histogram observation through a child looked
 * up once per method and outcome (prom-client's `labels()` would hash the label set each time).
 * `prometheus-metrics.test.ts` bounds the cost of a request.
 */
export const createPrometheusMetrics = (options: PrometheusMetricsOptions = {}): Metrics => {
  const client = loadPromClient();
  const { Histogram, Registry } = client;
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) registerProcessMetrics(client, registry);

  const requests = new Histogram({
    name: 'promptyard_request_duration_seconds',
    help: 'MCP requests answered, by method and outcome (ok, tool_error or the JSON-RPC error class), and how long they took.',
    labelNames: ['method', 'outcome'] as const,
    buckets: durationBuckets,
    registers,
  });
  const requestSeries = new Map<string, Observer>();

  let backendCalls: PromClient.Histogram<'backend'> | undefined;
  const backendCallSeries = new Map<string, Observer>();
  const callHistogram = (): PromClient.Histogram<'backend'> =>
    (backendCalls ??= new Histogram({
      name: 'promptyard_backend_call_duration_seconds',
      help: 'Calls the gateway made to a backend server (tools, prompts, resources, completions), and how long they took.',
      labelNames: ['backend'] as const,
      buckets: durationBuckets,
      registers,
    }));

  const decided = decisionCounter(client, registers);
  let oversized: PromClient.Counter<'backend'> | undefined;

  let reloads: ReloadCounters | undefined;
  /** Registered with the catalog, so that both counters are exported at 0 before the first reload. */
  const reloadCounters = (): ReloadCounters => (reloads ??= createReloadCounters(client, registers));

  return {
    request: (method: string): RequestDone => {
      const started = performance.now();
      return (outcome: RequestOutcome) => {
        const key = `${method} ${outcome}`;
        let series = requestSeries.get(key);
        if (series === undefined) {
          series = requests.labels(method, outcome);
          requestSeries.set(key, series);
        }
        series.observe((performance.now() - started) / 1000);
      };
    },
    backendCall: (backend: string) => {
      const started = performance.now();
      return () => {
        let series = backendCallSeries.get(backend);
        if (series === undefined) {
          series = callHistogram().labels(backend);
          backendCallSeries.set(backend, series);
        }
        series.observe((performance.now() - started) / 1000);
      };
    },
    oversizedMessage: (backend: string) => {
      oversized ??= new client.Counter({
        name: 'promptyard_backend_oversized_messages_total',
        help: 'Messages over [limits] max_message_bytes a gateway backend sent, each dropped (the request it answered failed).',
        labelNames: ['backend'] as const,
        registers,
      });
      oversized.inc({ backend });
    },
    backends: (read: () => readonly BackendSample[]) => {
      callHistogram();
      registerBackendGauges(client, registers, read);
    },
    http: (read) => registerHttpGauges(client, registers, read),
    cluster: (read) => registerClusterGauge(client, registers, read),
    catalog: (read) => {
      reloadCounters();
      registerCatalogGauge(client, registers, read);
    },
    reloaded: (failures) => {
      const counters = reloadCounters();
      counters.batches.inc();
      if (failures > 0) counters.failures.inc(failures);
    },
    decided,
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
};
