/**
 * The MCP conformance suite (server mode, pinned; installed with Node 22 by
 * scripts/ensure-conformance.mjs into .tmp/conformance) at 2025-11-25 and 2026-07-28, against our
 * reference "everything server" (conformance/everything-server.mjs) directly and through the HTTP
 * gateway in front of it: every scenario that passes direct must pass through the gateway.
 * Scenarios that fail direct are reported and do not fail the test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceSuite, conformanceVersions, regressions } from '../../../test-support/conformance.js';
import type { ConformanceOutcomes, ConformanceSuite } from '../../../test-support/conformance.js';
import { cleanup, conformanceServer, gatewayToml, startHttpGateway } from './harness.js';

let output: string;
let suite: ConformanceSuite | undefined;

describe('the conformance suite, direct and through the gateway (HTTP)', () => {
  const results = new Map<string, ConformanceOutcomes>();

  beforeAll(async () => {
    suite = await conformanceSuite();
    const running = suite;
    output = await mkdtemp(join(tmpdir(), 'promptyard-conformance-'));
    const reference = await conformanceServer();
    // The suite calls tools by their plain names: no prefix.
    const gateway = await startHttpGateway({ config: gatewayToml({ reference: { url: reference.url, prefix: false } }) });
    await Promise.all(
      conformanceVersions.flatMap((version) => [
        running
          .run(reference.url, version, join(output, `direct-${version}`))
          .then((outcomes) => results.set(`direct ${version}`, outcomes)),
        running
          .run(gateway.url, version, join(output, `gateway-${version}`))
          .then((outcomes) => results.set(`gateway ${version}`, outcomes)),
      ]),
    );
  }, 300_000);

  afterAll(async () => {
    suite?.stop();
    expect(await cleanup()).toEqual([]);
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it.each(conformanceVersions)('at %s, every scenario that passes direct passes through the gateway', (version) => {
    const direct = results.get(`direct ${version}`) as ConformanceOutcomes;
    const gateway = results.get(`gateway ${version}`) as ConformanceOutcomes;
    const failingDirect = [...direct].filter(([, passed]) => !passed).map(([scenario]) => scenario);
    if (failingDirect.length > 0)
      console.warn(`conformance ${version}: the reference server fails ${failingDirect.join(', ')} (not counted)`);
    // The suite ran for real: the scenarios this part of the gateway exists for passed direct.
    expect([...direct].filter(([, passed]) => passed).map(([scenario]) => scenario)).toEqual(
      expect.arrayContaining(
        version === '2026-07-28'
          ? ['input-required-result-basic-elicitation', 'input-required-result-multi-round']
          : ['tools-call-elicitation', 'tools-call-sampling'],
      ),
    );
    expect(regressions(direct, gateway), `scenarios that pass direct but fail through the gateway at ${version}`).toEqual([]);
  });
});
