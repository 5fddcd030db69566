import type { Logger, Metrics } from '@promptyard/core';
import { loadMcpTracing } from '@promptyard/mcp';
import type { McpTracing } from '@promptyard/mcp';
import { startMetrics, startTracing } from '@promptyard/telemetry';
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

/** `[telemetry]`: the metrics (on the endpoint or a listener of their own) and the traces. */
export const startTelemetry = async (
  settings: HostTelemetrySettings,
  options: { readonly http: boolean; readonly logger: Logger; readonly noteLevel: 'info' | 'notice' },
): Promise<HostTelemetry> => {
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
