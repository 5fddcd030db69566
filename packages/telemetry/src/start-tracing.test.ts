import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createLogger } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startTracing, tracesUrl } from './start-tracing.js';

afterEach(() => {
  delete process.env['OTEL_BSP_SCHEDULE_DELAY'];
});

/** A logger whose lines the test reads, and can wait for. */
const recordingLogger = (): { logger: Logger; lines: string[]; next: (pattern: RegExp) => Promise<string> } => {
  const lines: string[] = [];
  const waiting = new Set<(line: string) => void>();
  const logger = createLogger({
    level: 'debug',
    write: (line) => {
      lines.push(line);
      for (const wake of waiting) wake(line);
    },
  });
  const next = (pattern: RegExp): Promise<string> =>
    new Promise((resolve) => {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return resolve(found);
      const check = (line: string): void => {
        if (!pattern.test(line)) return;
        waiting.delete(check);
        resolve(line);
      };
      waiting.add(check);
    });
  return { logger, lines, next };
};

/** A span exporter standing in for a collector: it records each batch, and refuses them while `failing`. */
const fakeCollector = () => {
  const batches: ReadableSpan[][] = [];
  const urls: string[] = [];
  const arrived = new Set<() => void>();
  const collector = {
    batches,
    urls,
    failing: false,
    exporter: (url: string): SpanExporter => {
      urls.push(url);
      return {
        export: (spans, done) => {
          batches.push(spans);
          done(
            collector.failing
              ? { code: ExportResultCode.FAILED, error: new Error('refused by the collector') }
              : { code: ExportResultCode.SUCCESS },
          );
          for (const wake of arrived) wake();
        },
        shutdown: async () => {},
        forceFlush: async () => {},
      };
    },
    /** Resolves once `count` batches were exported. */
    exports: (count: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (batches.length < count) return;
          arrived.delete(check);
          resolve();
        };
        arrived.add(check);
        check();
      }),
  };
  return collector;
};

describe('tracesUrl', () => {
  it('appends /v1/traces to a base URL, and takes a full traces URL as it is', () => {
    expect(tracesUrl('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl(' https://collector.example/ ')).toBe('https://collector.example/v1/traces');
    expect(tracesUrl('http://gateway.local/otel/')).toBe('http://gateway.local/otel/v1/traces');
    expect(tracesUrl('http://127.0.0.1:4318/v1/traces')).toBe('http://127.0.0.1:4318/v1/traces');
  });

  it('says what it wants otherwise', () => {
    for (const bad of ['127.0.0.1:4318', 'localhost', 'grpc://127.0.0.1:4317', 'http://h/x?y=1', '']) {
      expect(() => tracesUrl(bad)).toThrow(
        /^\[telemetry\] otlp_endpoint must be the http:\/\/ or https:\/\/ base URL of an OTLP\/HTTP receiver, for example http:\/\/127\.0\.0\.1:4318/,
      );
    }
  });
});

describe('startTracing', () => {
  it('loads nothing without an endpoint', async () => {
    expect(await startTracing({ serviceName: 'promptyard-server' }, { logger: createLogger({ write: () => {} }) })).toBeUndefined();
    expect(
      await startTracing({ otlpEndpoint: ' ', serviceName: 'promptyard-server' }, { logger: createLogger({ write: () => {} }) }),
    ).toBeUndefined();
  });

  it('exports spans with the service name and version, and flushes them at shutdown', async () => {
    const collector = fakeCollector();
    const traces = await startTracing(
      { otlpEndpoint: 'http://127.0.0.1:4318', serviceName: 'promptyard-test', serviceVersion: '1.2.3' },
      { logger: createLogger({ write: () => {} }), exporter: collector.exporter },
    );
    expect(traces?.url).toBe('http://127.0.0.1:4318/v1/traces');
    expect(collector.urls).toEqual(['http://127.0.0.1:4318/v1/traces']);
    traces?.tracer.startSpan('prompts/get review').end();
    await traces?.shutdown();
    const [span] = collector.batches.flat();
    expect(span?.name).toBe('prompts/get review');
    expect(span?.resource.attributes).toMatchObject({ 'service.name': 'promptyard-test', 'service.version': '1.2.3' });
  });

  it('warns once while exports fail, says when they work again, and never throws', async () => {
    process.env['OTEL_BSP_SCHEDULE_DELAY'] = '10';
    const collector = fakeCollector();
    collector.failing = true;
    const { logger, lines, next } = recordingLogger();
    const traces = await startTracing(
      { otlpEndpoint: 'http://127.0.0.1:4318', serviceName: 'promptyard-test' },
      { logger, exporter: collector.exporter },
    );
    traces?.tracer.startSpan('one').end();
    await collector.exports(1);
    await next(/traces could not be exported/);
    traces?.tracer.startSpan('two').end();
    await collector.exports(2);
    collector.failing = false;
    traces?.tracer.startSpan('three').end();
    await next(/traces are exported again/);
    await traces?.shutdown();
    expect(lines.filter((line) => line.includes('could not be exported'))).toHaveLength(1);
    expect(lines.find((line) => line.includes('could not be exported'))).toContain('refused by the collector');
  });
});
