#!/usr/bin/env node
// Prints vitest's totals as one plain line ("N passed, N failed, N skipped") for CI logs, summed over the
// JSON reports named on the command line, from the repository's root (the main run's .tmp/vitest.json when none is named: `pnpm test`
// names it and the Node matrix's, scripts/test-node-matrix.mjs). A report that is missing counts as a failure.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.tmp/vitest.json'];
const totals = { passed: 0, failed: 0, skipped: 0 };
const missing = [];
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(resolve(root, file), 'utf8'));
  } catch (error) {
    missing.push(`${file} (${error.code ?? error.message})`);
    continue;
  }
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const runs = files.length > 1 ? ` (${files.length} runs)` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${runs}`);
if (missing.length > 0) console.log(`no test report in ${missing.join(', ')}: that run did not finish`);
if (totals.failed > 0 || totals.passed === 0 || missing.length > 0) process.exit(1);
