import type * as PromClient from 'prom-client';
import type { BackendSample, ClusterStatus } from '@promptyard/core';

/**
 * The instruments registered as a group: the process metrics, the reload counters, and those read at
 * scrape time, whose `collect` asks the serving layer for its current value (backend states, open
 * sessions and streams, the cluster's Redis, the catalog's size).
 */

type Client = typeof PromClient;
type Registers = PromClient.Registry[];

/** The process metrics prom-client collects (`process_*`, `nodejs_*`), those `promtool` accepts. */
export const registerProcessMetrics = ({ collectDefaultMetrics }: Client, registry: PromClient.Registry): void => {
  // The event-loop lag is sampled once a second, not every 10 ms (prom-client's default): the finer
  // timer slows a stdio prompts/get down measurably.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1000 });
  // Gauges named like counters, which `promtool check metrics` rejects; the per-type series remain.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
};

export interface ReloadCounters {
  readonly batches: PromClient.Counter;
  readonly failures: PromClient.Counter;
}

export const createReloadCounters = ({ Counter }: Client, registers: Registers): ReloadCounters => ({
  batches: new Counter({
    name: 'promptyard_catalog_reloads_total',
    help: 'Batches of prompt file changes applied by hot reload.',
    registers,
  }),
  failures: new Counter({
    name: 'promptyard_catalog_reload_errors_total',
    help: 'Prompt files that failed to load on hot reload (each logged; a served prompt keeps its last good version).',
    registers,
  }),
});

/** A gateway backend's states (router's `BackendState`), each a series of `promptyard_backend_state`. */
const backendStates = ['starting', 'ready', 'restarting', 'needs-login', 'failed', 'disabled', 'stopped'];

export const registerBackendGauges = ({ Counter, Gauge }: Client, registers: Registers, read: () => readonly BackendSample[]): void => {
  let samples: readonly BackendSample[] = [];
  // One read per scrape, shared by the three gauges (collected in registration order).
  new Gauge({
    name: 'promptyard_backend_state',
    help: 'The state of each gateway backend: 1 for its current state, 0 for the others.',
    labelNames: ['backend', 'state'] as const,
    registers,
    collect() {
      samples = read();
      this.reset();
      for (const sample of samples) {
        for (const state of backendStates.includes(sample.state) ? backendStates : [...backendStates, sample.state]) {
          this.set({ backend: sample.id, state }, state === sample.state ? 1 : 0);
        }
      }
    },
  });
  new Counter({
    name: 'promptyard_backend_restarts_total',
    help: 'Restarts of each gateway backend since the gateway started.',
    labelNames: ['backend'] as const,
    registers,
    collect() {
      this.reset();
      for (const sample of samples) this.inc({ backend: sample.id }, sample.restarts);
    },
  });
  new Gauge({
    name: 'promptyard_backend_calls_in_flight',
    help: 'Calls to each gateway backend not yet answered.',
    labelNames: ['backend'] as const,
    registers,
    collect() {
      this.reset();
      for (const sample of samples) this.set({ backend: sample.id }, sample.inFlight);
    },
  });
};

export const registerHttpGauges = (
  { Gauge }: Client,
  registers: Registers,
  read: { readonly sessions: () => number; readonly streams: () => number },
): void => {
  new Gauge({
    name: 'promptyard_http_open_sessions',
    help: 'Open 2025-11-25 sessions on the HTTP endpoint.',
    registers,
    collect() {
      this.set(read.sessions());
    },
  });
  new Gauge({
    name: 'promptyard_http_open_streams',
    help: 'Open SSE response streams on the HTTP endpoint (2025-11-25 GET streams and streamed answers).',
    registers,
    collect() {
      this.set(read.streams());
    },
  });
};

export const registerClusterGauge = ({ Gauge }: Client, registers: Registers, read: () => ClusterStatus): void => {
  new Gauge({
    name: 'promptyard_cluster_redis_up',
    help: 'Whether the shared Redis of [cluster] is reachable: 1 ready, 0 connecting or degraded (the node then serves on its own).',
    registers,
    collect() {
      this.set(read() === 'ready' ? 1 : 0);
    },
  });
};

export const registerCatalogGauge = ({ Gauge }: Client, registers: Registers, read: () => number): void => {
  new Gauge({
    name: 'promptyard_catalog_prompts',
    help: 'Prompts served.',
    registers,
    collect() {
      this.set(read());
    },
  });
};
