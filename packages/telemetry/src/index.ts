export { createPrometheusMetrics } from './prometheus-metrics.js';
export type { PrometheusMetricsOptions } from './prometheus-metrics.js';
export { parseMetricsBind, serveMetrics } from './serve-metrics.js';
export type { MetricsListener } from './serve-metrics.js';
export { startMetrics } from './start-metrics.js';
export type { StartedMetrics, TelemetrySettings } from './start-metrics.js';
export { startTracing, tracesUrl } from './start-tracing.js';
export type { StartedTracing, TracingSettings } from './start-tracing.js';
