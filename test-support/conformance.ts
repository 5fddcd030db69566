import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isAlive } from './output.js';

const ensureScript = fileURLToPath(new URL('../scripts/ensure-conformance.mjs', import.meta.url));

export const conformanceVersions = ['2025-11-25', '2026-07-28'] as const;
type ConformanceVersion = (typeof conformanceVersions)[number];
/** Scenario name → whether every check passed. */
export type ConformanceOutcomes = ReadonlyMap<string, boolean>;

export interface ConformanceSuite {
  /** One run in server mode against `url` at `version`, its results under `dir`: the outcome of each scenario from its checks.json. */
  run(url: string, version: ConformanceVersion, dir: string): Promise<ConformanceOutcomes>;
  /** SIGKILLs the runs still going (for `afterAll`). */
  stop(): void;
}

/** The MCP conformance suite, pinned, with the Node 22 it needs (scripts/ensure-conformance.mjs installs both into .tmp/conformance). */
export const conformanceSuite = async (): Promise<ConformanceSuite> => {
  const installed = await promisify(execFile)(process.execPath, [ensureScript], { encoding: 'utf8', timeout: 240_000 });
  const suite = JSON.parse(installed.stdout) as { node: string; cli: string };
  const runs = new Set<ChildProcess>();
  return {
    run: async (url, version, dir) => {
      const child = spawn(suite.node, [suite.cli, 'server', '--url', url, '--spec-version', version, '--suite', 'all', '-o', dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
        const checks = JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8').catch(() => '[{"status":"FAILURE"}]')) as {
          status: string;
        }[];
        outcomes.set(
          scenario,
          checks.every((check) => check.status !== 'FAILURE'),
        );
      }
      if (outcomes.size === 0) throw new Error(`the conformance suite wrote no results (${url}, ${version}):\n${log}`);
      return outcomes;
    },
    stop: () => {
      for (const child of runs) if (child.pid !== undefined && isAlive(child.pid)) child.kill('SIGKILL');
    },
  };
};

/** What the failed checks of `scenario` said, from its checks.json in a run's results folder `dir` (for a failure message). */
export const failedChecks = async (dir: string, scenario: string): Promise<string[]> => {
  const said: string[] = [];
  for (const entry of await readdir(dir).catch(() => [])) {
    if (/^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1] !== scenario) continue;
    const checks = JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8').catch(() => '[]')) as {
      id?: string;
      status: string;
      errorMessage?: string;
    }[];
    for (const check of checks)
      if (check.status === 'FAILURE') said.push(`${check.id ?? scenario}: ${check.errorMessage ?? '(no message)'}`);
  }
  return said;
};

/** The scenarios that pass in `reference` and not in `other`. */
export const regressions = (reference: ConformanceOutcomes, other: ConformanceOutcomes): string[] =>
  [...reference].filter(([scenario, passed]) => passed && other.get(scenario) !== true).map(([scenario]) => scenario);
