#!/usr/bin/env node
// The black-box tests on each Node the project supports besides the one running `pnpm test`: vitest
// itself runs on the pinned Node (scripts/ensure-node.mjs), so the binaries the tests spawn with
// process.execPath run on it, and its folder leads PATH, so a `node` found there is the same one.
// Each run writes its own JSON report (.tmp/vitest-node<major>.json, summed by scripts/test-summary.mjs)
// and prints one plain line. `node scripts/test-node-matrix.mjs [major …]` runs some of them.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, pinnedNodes } from './ensure-node.mjs';

const blackBox = ['e2e', 'cluster'];
/** The runs, in order: every black-box test on each pinned Node, the active LTS first. */
const matrixRuns = [24, 22, 26].map((major) => ({ major, projects: blackBox, label: blackBox.join(', ') }));

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** The report file of the run on Node `major`, relative to the root (as `pnpm test` names it). */
const reportFile = (major) => `.tmp/vitest-node${major}.json`;

const totals = (file) => {
  try {
    const report = JSON.parse(readFileSync(join(root, file), 'utf8'));
    const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    return `${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed, ${skipped} skipped`;
  } catch {
    return 'no report';
  }
};

/** One vitest run on Node `major`: its exit code. */
const runOn = (node, run) =>
  new Promise((resolve) => {
    const args = [
      vitest,
      'run',
      ...run.projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile(run.major)}`,
    ];
    const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
    const child = spawn(node, args, { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      process.stderr.write(`test-node-matrix: could not start ${node}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const wanted = process.argv.slice(2);
const runs = matrixRuns.filter((run) => wanted.length === 0 || wanted.includes(String(run.major)));
if (runs.length === 0) {
  process.stderr.write(
    `test-node-matrix: no run for ${wanted.join(', ')}; the matrix has Node ${matrixRuns.map((run) => run.major).join(', ')}\n`,
  );
  process.exit(2);
}
const lines = [];
let failed = false;
for (const run of runs) {
  const node = ensureNode(run.major);
  rmSync(join(root, reportFile(run.major)), { force: true });
  const started = Date.now();
  process.stdout.write(`\nnode ${pinnedNodes[run.major]}: ${run.label}\n`);
  const code = await runOn(node, run);
  const seconds = Math.round((Date.now() - started) / 1000);
  const line = `node ${pinnedNodes[run.major]} (${run.label}): ${totals(reportFile(run.major))} in ${seconds} s`;
  process.stdout.write(`${line}\n`);
  lines.push(line);
  if (code !== 0) failed = true;
}
if (lines.length > 1) process.stdout.write(`\n${lines.join('\n')}\n`);
if (failed) process.exit(1);
