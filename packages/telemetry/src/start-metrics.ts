import type { Logger, Metrics } from '@promptyard/core';
import { createPrometheusMetrics } from './prometheus-metrics.js';
import { serveMetrics } from './serve-metrics.js';
import type { MetricsListener } from './serve-metrics.js';

export interface TelemetrySettings {
  /** `[telemetry] metrics`: /metrics on the HTTP endpoint. */
  readonly metrics: boolean;
  /** `[telemetry] metrics_bind`: a listener of its own instead. */
  readonly metricsBind?: string | undefined;
}

export interface StartedMetrics {
  /** Absent when nothing would read them: the serving paths then measure nothing. */
  readonly metrics?: Metrics;
  /** The HTTP endpoint serves /metrics itself (no listener of its own). */
  readonly onEndpoint: boolean;
  readonly listener?: MetricsListener;
}

/**
 * `[telemetry]` of a binary: metrics exist when something serves them — the HTTP endpoint
 * (`metrics`, the default) or `metrics_bind` on any transport. A stdio server without `metrics_bind`
 * gets none, and its requests take no timing at all.
 */
export const startMetrics = async (
  settings: TelemetrySettings,
  options: { readonly http: boolean; readonly logger: Logger },
): Promise<StartedMetrics> => {
  const bind = settings.metricsBind?.trim();
  if (bind !== undefined && bind !== '') {
    const metrics = createPrometheusMetrics();
    const listener = await serveMetrics(metrics, { bind, logger: options.logger });
    options.logger.notice(`metrics at ${listener.url}`);
    return { metrics, onEndpoint: false, listener };
  }
  if (options.http && settings.metrics) return { metrics: createPrometheusMetrics(), onEndpoint: true };
  return { onEndpoint: false };
};
