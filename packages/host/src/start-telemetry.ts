import type { Logger, Metrics } from '@promptyard/core';
import { loadMcpTracing } from '@promptyard/mcp';
import type { McpTracing } from '@promptyard/mcp';
import type { TelemetrySettings, TracingSettings } from '@promptyard/telemetry';

export type HostTelemetrySettings = TelemetrySettings & TracingSettings;

export interface HostTelemetry {
  /** Absent when nothing reads them (see `startMetrics`). */
  readonly metrics: Metrics | undefined;
  /** The HTTP endpoint serves /metrics itself (`serveHttp`'s `serveMetrics`). */
  readonly serveMetrics: boolean;
  /** Absent without `[telemetry] otlp_endpoint`: OpenTelemetry is then never loaded. */
  readonly tracing: McpTracing | undefined;
  /** Closes the metrics' listener of their own, if any. */
  closeMetrics(): Promise<void>;
  /** Exports the spans still queued: the last step of closing, so that the spans of closing are sent too. */
  shutdownTracing(): Promise<void>;
}

const noTelemetry: HostTelemetry = {
  metrics: undefined,
  serveMetrics: false,
  tracing: undefined,
  closeMetrics: async () => {},
  shutdownTracing: async () => {},
};

/** Whether anything would read metrics or traces (as `startMetrics` and `startTracing` decide). */
const wanted = (settings: HostTelemetrySettings, http: boolean): boolean =>
  (settings.metricsBind ?? '').trim() !== '' || (http && settings.metrics) || (settings.otlpEndpoint ?? '').trim() !== '';

/**
 * `[telemetry]`: the metrics (on the endpoint or a listener of their own) and the traces. The
 * telemetry package loads only when one of them is on: a plain stdio binary never loads it.
 */
export const startTelemetry = async (
  settings: HostTelemetrySettings,
  options: { readonly http: boolean; readonly logger: Logger; readonly noteLevel: 'info' | 'notice' },
): Promise<HostTelemetry> => {
  if (!wanted(settings, options.http)) return noTelemetry;
  const { startMetrics, startTracing } = await import('@promptyard/telemetry');
  const { logger } = options;
  const started = await startMetrics(settings, { http: options.http, logger });
  const traces = await startTracing(settings, { logger });
  const tracing = traces === undefined ? undefined : await loadMcpTracing(traces.tracer, traces.propagator);
  if (traces !== undefined) logger[options.noteLevel](`traces to ${traces.url}`);
  return {
    metrics: started.metrics,
    serveMetrics: started.onEndpoint,
    tracing,
    closeMetrics: async () => {
      await started.listener?.close();
    },
    shutdownTracing: async () => {
      await traces?.shutdown();
    },
  };
};
