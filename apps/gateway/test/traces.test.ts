/**
 * Traces through the gateway: a client's call (its trace context in `_meta.traceparent` over stdio,
 * in the `traceparent` header over HTTP) makes one trace — the gateway's SERVER span, child of the
 * client's; its CLIENT span to the backend; the promptyard-server backend's SERVER span, child of
 * that — received by an OTLP/HTTP receiver from both processes. Tool calls take the relay, prompts
 * the SDK's full path.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../../../test-support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from '../../../test-support/otlp-receiver.js';
import { cleanup, gatewayToml, makeFolder, newClient, runCli, startHttpGateway, startStdioGateway, textOf } from './harness.js';

const serverCli = fileURLToPath(new URL('../../server/dist/cli.js', import.meta.url));
const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await cleanup();
});
afterAll(async () => {
  await receiver.close();
});

/** A client's own span: a W3C `traceparent`, sampled. */
const clientSpan = (): { readonly traceId: string; readonly spanId: string; readonly traceparent: string } => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};

/** The gateway (spans exported every 50 ms) over one promptyard-server backend that exports too. */
const tracedConfig = async (): Promise<{ readonly config: string; readonly env: Record<string, string> }> => {
  const prompts = await makeFolder({ 'greet.md': '---\ndescription: Greets\narguments:\n  - name: who\n---\nHello {{who}}\n' });
  const config = gatewayToml({
    docs: {
      command: {
        command: process.execPath,
        args: [serverCli, '--prompts', prompts],
        env: { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: receiver.endpoint, PROMPTYARD_FALLBACK_TOOLS: 'true' },
      },
    },
  });
  return { config, env: { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' } };
};

/** The three spans of one call, once both processes exported them: gateway SERVER → gateway CLIENT → backend SERVER. */
const chainOf = async (
  traceId: string,
  gatewayName: string,
  backendName: string,
): Promise<{ server: ReceivedSpan; client: ReceivedSpan; backend: ReceivedSpan }> => {
  const find = (spans: readonly ReceivedSpan[]) => {
    const inTrace = spans.filter((span) => span.traceId === traceId);
    return {
      server: inTrace.find((span) => span.service === 'promptyard-gateway' && span.kind === SERVER && span.name === gatewayName),
      client: inTrace.find((span) => span.service === 'promptyard-gateway' && span.kind === CLIENT && span.name === backendName),
      backend: inTrace.find((span) => span.service === 'promptyard-server' && span.kind === SERVER && span.name === backendName),
    };
  };
  const spans = await receiver.waitFor((received) => Object.values(find(received)).every((span) => span !== undefined));
  const { server, client, backend } = find(spans);
  return { server: server as ReceivedSpan, client: client as ReceivedSpan, backend: backend as ReceivedSpan };
};

describe('gateway traces', () => {
  it('join the client, the gateway and the backend in one trace (stdio, _meta.traceparent)', async () => {
    const { config, env } = await tracedConfig();
    const gateway = await startStdioGateway({ config, env });
    await gateway.stderr.waitFor(/traces to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
    // Relayed calls need the backend ready (before, a call waits for it on the full path).
    await gateway.stderr.waitFor(/1 of 1 servers ready/);

    // tools/call: the relay.
    const call = clientSpan();
    const result = await gateway.client.callTool({
      name: 'docs_get_prompt',
      arguments: { name: 'greet', arguments: { who: 'Ada' } },
      _meta: { traceparent: call.traceparent },
    });
    expect(textOf(result)).toContain('Hello Ada');
    const tool = await chainOf(call.traceId, 'tools/call docs_get_prompt', 'tools/call get_prompt');
    expect(tool.server.parentSpanId).toBe(call.spanId);
    expect(tool.server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'docs_get_prompt',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(tool.client.parentSpanId).toBe(tool.server.spanId);
    expect(tool.client.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_prompt',
      'promptyard.backend': 'docs',
    });
    expect(tool.backend.parentSpanId).toBe(tool.client.spanId);
    expect(tool.backend.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'get_prompt' });

    // tools/call with a progress token: the SDK's path.
    const progressed = clientSpan();
    await gateway.client.callTool(
      { name: 'docs_get_prompt', arguments: { name: 'greet' }, _meta: { traceparent: progressed.traceparent } },
      { onprogress: () => {} },
    );
    const full = await chainOf(progressed.traceId, 'tools/call docs_get_prompt', 'tools/call get_prompt');
    expect(full.server.parentSpanId).toBe(progressed.spanId);
    expect(full.client.parentSpanId).toBe(full.server.spanId);
    expect(full.backend.parentSpanId).toBe(full.client.spanId);

    // prompts/get: the SDK's path.
    const get = clientSpan();
    const prompt = await gateway.client.getPrompt({
      name: 'docs_greet',
      arguments: { who: 'Grace' },
      _meta: { traceparent: get.traceparent },
    });
    expect(JSON.stringify(prompt.messages)).toContain('Hello Grace');
    const chain = await chainOf(get.traceId, 'prompts/get docs_greet', 'prompts/get greet');
    expect(chain.server.parentSpanId).toBe(get.spanId);
    expect(chain.server.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'docs_greet' });
    expect(chain.client.parentSpanId).toBe(chain.server.spanId);
    expect(chain.backend.parentSpanId).toBe(chain.client.spanId);
    expect(chain.backend.attributes).toMatchObject({ 'gen_ai.prompt.name': 'greet', 'jsonrpc.request.id': expect.any(String) });

    // A failing call: the spans say so.
    const failing = clientSpan();
    await expect(gateway.client.getPrompt({ name: 'docs_missing', _meta: { traceparent: failing.traceparent } })).rejects.toThrow();
    const [failed] = await receiver.waitFor((spans) => spans.some((span) => span.traceId === failing.traceId && span.kind === SERVER));
    const failedSpan = receiver.spans.find((span) => span.traceId === failing.traceId && span.kind === SERVER) as ReceivedSpan;
    expect(failed).toBeDefined();
    expect(failedSpan.status).toBe(2);
    expect(failedSpan.attributes['error.type']).toBe('-32602');
    expect(receiver.rejected).toEqual([]);
  });

  it('read the traceparent header over HTTP', async () => {
    const { config, env } = await tracedConfig();
    const gateway = await startHttpGateway({ config, env });
    const call = clientSpan();
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { traceparent: call.traceparent } } }),
    );
    expect(textOf(await client.callTool({ name: 'docs_get_prompt', arguments: { name: 'greet', arguments: { who: 'Alan' } } }))).toContain(
      'Hello Alan',
    );
    const tool = await chainOf(call.traceId, 'tools/call docs_get_prompt', 'tools/call get_prompt');
    expect(tool.server.parentSpanId).toBe(call.spanId);
    expect(tool.client.parentSpanId).toBe(tool.server.spanId);
    expect(tool.backend.parentSpanId).toBe(tool.client.spanId);

    // A traceparent in _meta wins over the header.
    const own = clientSpan();
    await client.getPrompt({ name: 'docs_greet', arguments: { who: 'Barbara' }, _meta: { traceparent: own.traceparent } });
    const chain = await chainOf(own.traceId, 'prompts/get docs_greet', 'prompts/get greet');
    expect(chain.server.parentSpanId).toBe(own.spanId);
    expect(chain.server.attributes['mcp.session.id']).toEqual(expect.any(String));
    expect(chain.backend.parentSpanId).toBe(chain.client.spanId);

    // A 2026-07-28 client: each request stands alone, its trace context in _meta.
    const modern = newClient({ versionNegotiation: { mode: 'auto' } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    for (const [name, request] of [
      [
        'tools/call',
        (traceparent: string) => modern.callTool({ name: 'docs_get_prompt', arguments: { name: 'greet' }, _meta: { traceparent } }),
      ],
      [
        'prompts/get',
        (traceparent: string) => modern.getPrompt({ name: 'docs_greet', arguments: { who: 'Frances' }, _meta: { traceparent } }),
      ],
    ] as const) {
      const span = clientSpan();
      await request(span.traceparent);
      const [gatewayName, backendName] =
        name === 'tools/call' ? ['tools/call docs_get_prompt', 'tools/call get_prompt'] : ['prompts/get docs_greet', 'prompts/get greet'];
      const modernChain = await chainOf(span.traceId, gatewayName, backendName);
      expect(modernChain.server.parentSpanId).toBe(span.spanId);
      expect(modernChain.client.parentSpanId).toBe(modernChain.server.spanId);
      expect(modernChain.backend.parentSpanId).toBe(modernChain.client.spanId);
      // The SDK's path reads the revision from the request's envelope (the relay, which takes tools/call, does not).
      if (name === 'prompts/get') expect(modernChain.server.attributes['mcp.protocol.version']).toBe('2026-07-28');
    }
  });

  it('refuse an endpoint that is not an http(s) URL, saying what they want', async () => {
    const dir = await makeFolder({ 'gateway.toml': gatewayToml({}) });
    const result = await runCli(['--config', `${dir}/gateway.toml`, '--transport', 'http', '--port', '0'], {
      env: { PROMPTYARD_TELEMETRY_OTLP_ENDPOINT: 'localhost:4318' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      '[telemetry] otlp_endpoint must be the http:// or https:// base URL of an OTLP/HTTP receiver, for example http://127.0.0.1:4318',
    );
    expect(result.stderr).toContain('"localhost:4318"');
  });

  it('flush the spans still queued when the gateway shuts down, the server behind it too', async () => {
    const { config, env } = await tracedConfig();
    // The default batch delay (5 s): only the flush at shutdown sends these spans now.
    const { OTEL_BSP_SCHEDULE_DELAY: _delay, ...defaultDelay } = env;
    const gateway = await startHttpGateway({ config, env: defaultDelay });
    const call = clientSpan();
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { traceparent: call.traceparent } } }),
    );
    await client.getPrompt({ name: 'docs_greet', arguments: { who: 'Edsger' } });
    await client.close();
    const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
    process.kill(gateway.pid, 'SIGTERM');
    await exited;
    const chain = await chainOf(call.traceId, 'prompts/get docs_greet', 'prompts/get greet');
    expect(chain.server.parentSpanId).toBe(call.spanId);
    expect(chain.client.parentSpanId).toBe(chain.server.spanId);
    expect(chain.backend.parentSpanId).toBe(chain.client.spanId);
  });
});
