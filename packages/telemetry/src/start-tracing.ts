import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import type * as Core from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as Sdk from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type * as SemanticConventions from '@opentelemetry/semantic-conventions';
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

/**
 * The SDK, loaded by the first `startTracing` with an endpoint: a binary that exports no traces never
 * loads it, and spends neither the time nor the memory. Required as CommonJS, which is what
 * Node's `import()` gets of these packages too: their ESM builds are offered only under the bundlers'
 * `module` condition and import without file extensions. The exporter is made on demand, so a test
 * can put a collector of its own in its place.
 */
const loadSdk = () => {
  const require = createRequire(import.meta.url);
  return {
    exporter: (url: string): SpanExporter =>
      new (require('@opentelemetry/exporter-trace-otlp-http') as typeof Exporter).OTLPTraceExporter({ url }),
    api: require('@opentelemetry/api') as typeof Api,
    core: require('@opentelemetry/core') as typeof Core,
    sdk: require('@opentelemetry/sdk-trace-base') as typeof Sdk,
    resources: require('@opentelemetry/resources') as typeof Resources,
    conventions: require('@opentelemetry/semantic-conventions') as typeof SemanticConventions,
  };
};

/** How long a shutdown waits for the last spans to be exported. */
const shutdownMs = 2000;

/**
 * Traces of a binary, when `[telemetry] otlp_endpoint` is set: the OpenTelemetry SDK (2.x, which runs
 * on Node 20) with a batch processor and the OTLP/HTTP JSON exporter. The SDK is loaded here, on
 * demand: without an endpoint nothing of it is loaded, and `undefined` is returned. Export failures
 * are logged once (at warn) until an export succeeds again; they never end the process. The batch
 * processor honours `OTEL_BSP_SCHEDULE_DELAY` and the other `OTEL_BSP_*` variables.
 */
export const startTracing = async (
  settings: TracingSettings,
  options: {
    readonly logger: Logger;
    /** Where spans go instead of the OTLP/HTTP exporter (tests). */
    readonly exporter?: ((url: string) => SpanExporter) | undefined;
  },
): Promise<StartedTracing | undefined> => {
  const endpoint = settings.otlpEndpoint?.trim();
  if (endpoint === undefined || endpoint === '') return undefined;
  const url = tracesUrl(endpoint);
  const { api, core, sdk, resources, conventions, ...load } = loadSdk();
  const { resourceFromAttributes } = resources;
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = conventions;
  const { logger } = options;
  const exporter = (options.exporter ?? load.exporter)(url);
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
    forceFlush: async () => {
      await exporter.forceFlush?.();
    },
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
