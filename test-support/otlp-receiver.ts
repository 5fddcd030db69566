/**
 * An OTLP/HTTP trace receiver on a loopback port: decodes the JSON export requests
 * (`POST /v1/traces`, `ExportTraceServiceRequest`) the OpenTelemetry JS exporter sends, answers as a
 * collector does, and lets a test wait for the spans it expects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
}

export interface OtlpReceiver {
  /** The base URL, as `[telemetry] otlp_endpoint` takes it. */
  readonly endpoint: string;
  readonly spans: readonly ReceivedSpan[];
  /** Export requests that were not OTLP JSON on /v1/traces. */
  readonly rejected: readonly string[];
  /** Resolves with the spans once `predicate` holds for them (checked at each export that arrives). */
  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<readonly ReceivedSpan[]>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

const valueOf = (value: AnyValue): string | number | boolean =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''));

const attributesOf = (list: readonly KeyValue[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));

interface ExportRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
}

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const spans: ReceivedSpan[] = [];
  const rejected: string[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').includes('application/json')) {
        rejected.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers['content-type'] ?? ''}`);
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":5,"message":"not found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: String(span['traceId']),
              spanId: String(span['spanId']),
              parentSpanId: String(span['parentSpanId'] ?? ''),
              name: String(span['name']),
              kind: Number(span['kind']),
              attributes: attributesOf(span['attributes'] as KeyValue[] | undefined),
              status: Number((span['status'] as { code?: number } | undefined)?.code ?? 0),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    rejected,
    waitFor: (predicate, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `spans not received in ${timeoutMs} ms; received: ${JSON.stringify(spans.map(({ service, name, traceId, spanId, parentSpanId }) => ({ service, name, traceId, spanId, parentSpanId })))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
