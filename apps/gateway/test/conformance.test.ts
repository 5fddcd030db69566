/**
 * The MCP conformance suite (server mode, pinned; installed with Node 22 by
 * scripts/ensure-conformance.mjs into .tmp/conformance) at 2025-11-25 and 2026-07-28, against our
 * reference "everything server" (conformance/everything-server.mjs) directly and through the HTTP
 * gateway in front of it: every scenario that passes direct must pass through the gateway.
 * Scenarios that fail direct are reported and do not fail the test.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, conformanceServer, gatewayToml, isAlive, startHttpGateway } from './harness.js';

const ensureScript = fileURLToPath(new URL('../../../scripts/ensure-conformance.mjs', import.meta.url));
const versions = ['2025-11-25', '2026-07-28'] as const;
type Version = (typeof versions)[number];
/** Scenario name → whether every check passed. */
type Outcomes = ReadonlyMap<string, boolean>;

const runs = new Set<ChildProcess>();
let output: string;

/** One run of the suite against `url` at `version`; the outcome of each scenario from its checks.json. */
const runSuite = async (suite: { node: string; cli: string }, url: string, version: Version, name: string): Promise<Outcomes> => {
  const dir = join(output, `${name}-${version}`);
  const child = spawn(suite.node, [suite.cli, 'server', '--url', url, '--spec-version', version, '--suite', 'all', '-o', dir], { stdio: ['ignore', 'pipe', 'pipe'], cwd: output });
  runs.add(child);
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  runs.delete(child);
  const outcomes = new Map<string, boolean>();
  for (const entry of await readdir(dir).catch(() => [])) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8').catch(() => '[{"status":"FAILURE"}]')) as { status: string }[];
    outcomes.set(scenario, checks.every((check) => check.status !== 'FAILURE'));
  }
  if (outcomes.size === 0) throw new Error(`the conformance suite wrote no results (${name}, ${version}):\n${log}`);
  return outcomes;
};

describe('the conformance suite, direct and through the gateway (HTTP)', () => {
  const results = new Map<string, Outcomes>();

  beforeAll(async () => {
    const installed = await promisify(execFile)(process.execPath, [ensureScript], { encoding: 'utf8', timeout: 240_000 });
    const suite = JSON.parse(installed.stdout) as { node: string; cli: string };
    output = await mkdtemp(join(tmpdir(), 'promptyard-conformance-'));
    const reference = await conformanceServer();
    // The suite calls tools by their plain names: no prefix.
    const gateway = await startHttpGateway({ config: gatewayToml({ reference: { url: reference.url, prefix: false } }) });
    await Promise.all(
      versions.flatMap((version) => [
        runSuite(suite, reference.url, version, 'direct').then((outcomes) => results.set(`direct ${version}`, outcomes)),
        runSuite(suite, gateway.url, version, 'gateway').then((outcomes) => results.set(`gateway ${version}`, outcomes)),
      ]),
    );
  }, 300_000);

  afterAll(async () => {
    for (const child of runs) if (child.pid !== undefined && isAlive(child.pid)) child.kill('SIGKILL');
    expect(await cleanup()).toEqual([]);
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it.each(versions)('at %s, every scenario that passes direct passes through the gateway', (version) => {
    const direct = results.get(`direct ${version}`) as Outcomes;
    const gateway = results.get(`gateway ${version}`) as Outcomes;
    const failingDirect = [...direct].filter(([, passed]) => !passed).map(([scenario]) => scenario);
    if (failingDirect.length > 0) console.warn(`conformance ${version}: the reference server fails ${failingDirect.join(', ')} (not counted)`);
    // The suite ran for real: the scenarios this part of the gateway exists for passed direct.
    expect([...direct].filter(([, passed]) => passed).map(([scenario]) => scenario)).toEqual(
      expect.arrayContaining(version === '2026-07-28' ? ['input-required-result-basic-elicitation', 'input-required-result-multi-round'] : ['tools-call-elicitation', 'tools-call-sampling']),
    );
    const regressions = [...direct].filter(([scenario, passed]) => passed && gateway.get(scenario) !== true).map(([scenario]) => scenario);
    expect(regressions, `scenarios that pass direct but fail through the gateway at ${version}`).toEqual([]);
  });
});
