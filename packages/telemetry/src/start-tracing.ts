import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describeError, PromptyardError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';

export interface TracingSettings {
  /** `[telemetry] otlp_endpoint`: an OTLP/HTTP receiver's base URL; absent or empty: no traces. */
  readonly otlpEndpoint?: string | undefined;
  /** `[telemetry] service_name`: the traces' `service.name`. */
  readonly serviceName: string;
  /** `service.version`. */
  readonly serviceVersion?: string | undefined;
}

export interface StartedTracing {
  readonly tracer: Tracer;
  /** W3C trace context (`traceparent`, `tracestate`). */
  readonly propagator: TextMapPropagator;
  /** Where spans are sent. */
  readonly url: string;
  /** Exports the spans still queued, then stops; bounded, so that a receiver that is gone cannot hold up an exit. */
  shutdown(): Promise<void>;
}

const tracesPath = '/v1/traces';

/**
 * `[telemetry] otlp_endpoint` → the URL spans are posted to: a base URL gets `/v1/traces` appended, as
 * the OTLP/HTTP spec says of `OTEL_EXPORTER_OTLP_ENDPOINT`; a URL already ending in `/v1/traces` is
 * taken as it is.
 */
export const tracesUrl = (endpoint: string): string => {
  const trimmed = endpoint.trim();
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `[telemetry] otlp_endpoint must be the http:// or https:// base URL of an OTLP/HTTP receiver, for example http://127.0.0.1:4318 (traces go to <url>/v1/traces), got ${JSON.stringify(endpoint)}`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(tracesPath) ? path : `${path}${tracesPath}`}`;
};

/** How long a shutdown waits for the last spans to be exported. */
const shutdownMs = 2000;

/**
 * Traces of a binary, when `[telemetry] otlp_endpoint` is set: the OpenTelemetry SDK (2.x, which runs
 * on Node 20) with a batch processor and the OTLP/HTTP JSON exporter. The SDK is imported here, on
 * demand: without an endpoint nothing of it is loaded, and `undefined` is returned. Export failures
 * are logged once (at warn) until an export succeeds again; they never end the process. The batch
 * processor honours `OTEL_BSP_SCHEDULE_DELAY` and the other `OTEL_BSP_*` variables.
 */
export const startTracing = async (settings: TracingSettings, options: { readonly logger: Logger }): Promise<StartedTracing | undefined> => {
  const endpoint = settings.otlpEndpoint?.trim();
  if (endpoint === undefined || endpoint === '') return undefined;
  const url = tracesUrl(endpoint);
  const [api, core, sdk, { OTLPTraceExporter }, { resourceFromAttributes }, { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const { logger } = options;
  const exporter = new OTLPTraceExporter({ url });
  let failing = false;
  const reported = (result: ExportResult): void => {
    if (result.code === core.ExportResultCode.SUCCESS) {
      if (failing) logger.notice('traces are exported again', { url });
      failing = false;
      return;
    }
    if (failing) return;
    failing = true;
    logger.warn('traces could not be exported; spans are dropped until the receiver answers (logged once)', {
      url,
      reason: result.error === undefined ? 'unknown' : describeError(result.error),
    });
  };
  const watched: SpanExporter = {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) =>
      exporter.export(spans, (result) => {
        reported(result);
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    ...(settings.serviceVersion === undefined ? {} : { [ATTR_SERVICE_VERSION]: settings.serviceVersion }),
  });
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [new sdk.BatchSpanProcessor(watched)] });
  const propagator = new core.W3CTraceContextPropagator();
  // Global too, so that provider packages using @opentelemetry/api trace into the same pipeline.
  api.trace.setGlobalTracerProvider(provider);
  api.propagation.setGlobalPropagator(propagator);
  // The SDK's own errors (a failed export among them) go to its error handler: reported above instead.
  core.setGlobalErrorHandler(() => {});
  let stopped: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('promptyard', settings.serviceVersion),
    propagator,
    url,
    shutdown: () =>
      (stopped ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, shutdownMs);
        provider.shutdown().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (error: unknown) => {
            clearTimeout(timer);
            logger.warn('traces could not be flushed at shutdown', { url, reason: describeError(error) });
            resolve();
          },
        );
      })),
  };
};
