/**
 * The MCP conformance suite (server mode, pinned; installed with Node 22 by
 * scripts/ensure-conformance.mjs into .tmp/conformance) at 2025-11-25 and 2026-07-28, against our
 * reference "everything server" (conformance/everything-server.mjs) directly and through the HTTP
 * gateway in front of it, for each way a 2026-07-28 server may offer list changes: an SSE listen
 * stream, a listen stream of JSON lines, and none. The server with JSON lines also answers loosely,
 * as the conformance repository's own reference server does (`--loose`: results without
 * `resultType`, a body of JSON lines, no subscriptions on 2026-07-28). Every scenario that passes
 * direct must pass through the gateway; scenarios that fail direct are reported and do not fail the
 * test. The gateway in front of the loose server warns once and hands each client a valid result.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite, conformanceVersions, regressions } from '../../../test-support/conformance.js';
import type { ConformanceOutcomes, ConformanceSuite } from '../../../test-support/conformance.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { cleanup, conformanceServer, connectHttp, gatewayToml, health, startHttpGateway } from './harness.js';
import type { HttpGateway, ListenFraming } from './harness.js';

const framings: readonly ListenFraming[] = ['sse', 'json-lines', 'none'];
/** The framing whose server answers loosely (`--loose`), as the reference server it mimics frames its listen stream. */
const loose: ListenFraming = 'json-lines';
/** Suite runs at once: each is a Node process beside its servers (two per core keeps them all busy without starving the servers). */
const runsAtOnce = Math.max(2, availableParallelism() * 2);

let output: string;
let suite: ConformanceSuite | undefined;
const results = new Map<string, ConformanceOutcomes>();
const gateways = new Map<ListenFraming, HttpGateway>();

/** Runs `tasks` with at most `limit` under way at once. */
const inBatches = async (tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> => {
  const queue = [...tasks];
  const worker = async (): Promise<void> => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) await task();
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
};

describe('the conformance suite, direct and through the gateway (HTTP), for each kind of listen stream', () => {
  beforeAll(async () => {
    suite = await conformanceSuite();
    const running = suite;
    output = await mkdtemp(join(tmpdir(), 'promptyard-conformance-'));
    const started = Date.now();
    const targets = await Promise.all(
      framings.map(async (framing) => {
        const reference = await conformanceServer(framing, framing === loose);
        // The suite calls tools by their plain names: no prefix.
        const gateway = await startHttpGateway({ config: gatewayToml({ reference: { url: reference.url, prefix: false } }) });
        gateways.set(framing, gateway);
        return [
          { key: `direct ${framing}`, url: reference.url },
          { key: `gateway ${framing}`, url: gateway.url },
        ];
      }),
    );
    const tasks = targets.flat().flatMap(({ key, url }) =>
      conformanceVersions.map((version) => async () => {
        const outcomes = await running.run(url, version, join(output, `${key.replace(' ', '-')}-${version}`));
        results.set(`${key} ${version}`, outcomes);
      }),
    );
    await inBatches(tasks, runsAtOnce);
    console.info(`conformance: ${tasks.length} suite runs, ${runsAtOnce} at once, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }, 900_000);

  afterAll(async () => {
    suite?.stop();
    expect(await cleanup()).toEqual([]);
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it.each([
    ['sse', 'stream'],
    ['json-lines', 'stream'],
    ['none', 'polling every 30 s'],
  ] as const)('a server with a %s listen stream is used on 2026-07-28, its list changes learned by %s', async (framing, learned) => {
    const status = (await health(gateways.get(framing) as HttpGateway)).servers.find((server) => server.id === 'reference');
    expect(status).toMatchObject({ state: 'ready', protocolVersion: '2026-07-28', listChanges: learned });
    expect(status).not.toHaveProperty('protocolFallback');
  });

  const cases = framings.flatMap((framing) => conformanceVersions.map((version) => [framing, version] as const));
  it.each(cases)('%s listen stream, at %s: every scenario that passes direct passes through the gateway', (framing, version) => {
    const direct = results.get(`direct ${framing} ${version}`) as ConformanceOutcomes;
    const gateway = results.get(`gateway ${framing} ${version}`) as ConformanceOutcomes;
    const failingDirect = [...direct].filter(([, passed]) => !passed).map(([scenario]) => scenario);
    const passing = (outcomes: ConformanceOutcomes): number => [...outcomes.values()].filter(Boolean).length;
    const tasks = [...direct.keys()].filter((scenario) => scenario.includes('task'));
    console.info(
      `conformance ${framing} ${version}: ${passing(direct)} of ${direct.size} scenarios pass direct, ${passing(gateway)} through the gateway; tasks: ${
        tasks.map((scenario) => `${scenario} ${direct.get(scenario) === true ? 'passes' : 'fails'} direct`).join(', ') || 'none'
      }`,
    );
    if (failingDirect.length > 0)
      console.warn(`conformance ${framing} ${version}: the reference server fails ${failingDirect.join(', ')} (not counted)`);
    // The suite ran for real: the scenarios this part of the gateway exists for passed direct.
    expect([...direct].filter(([, passed]) => passed).map(([scenario]) => scenario)).toEqual(
      expect.arrayContaining(
        version === '2026-07-28'
          ? ['input-required-result-basic-elicitation', 'input-required-result-multi-round']
          : ['tools-call-elicitation', 'tools-call-sampling'],
      ),
    );
    expect(regressions(direct, gateway), `scenarios that pass direct but fail through the gateway (${framing}, ${version})`).toEqual([]);
  });

  it('reads the loose server liberally: one warning per deviation, and a valid result for each client', async () => {
    const gateway = gateways.get(loose) as HttpGateway;
    const warnings = (): Record<string, number> => ({
      resultType: gateway.stderr.text.match(/WARNING.*without resultType; read as complete.*server=reference/g)?.length ?? 0,
      jsonLines:
        gateway.stderr.text.match(/WARNING.*one a line in an application\/json body; read as a batch.*server=reference/g)?.length ?? 0,
    });
    // The suite called its tools many times over, on both revisions.
    expect(warnings().resultType).toBe(1);
    for (const era of ['modern', 'legacy'] as const) {
      const wire: JSONRPCMessage[] = [];
      const client = await connectHttp(gateway.url, { ...(era === 'modern' ? { era } : {}), onWire: (message) => wire.push(message) });
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      for (const [name, text] of [
        ['test_simple_text', 'This is a simple text response for testing.'],
        ['test_streaming_elicitation', 'Streaming complete'],
      ] as const) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError, `${name} (${era})`).not.toBe(true);
        expect(result.content).toEqual([{ type: 'text', text }]);
        const answered = wire.findLast((message) => 'result' in message) as { result: Record<string, unknown> };
        // 2026-07-28 results must say they are complete; 2025-11-25 has no resultType.
        if (era === 'modern') expect(answered.result['resultType'], name).toBe('complete');
        else expect(answered.result, name).not.toHaveProperty('resultType');
      }
      await client.close();
    }
    expect(warnings()).toEqual({ resultType: 1, jsonLines: 1 });
  });
});
