#!/usr/bin/env node
// Prints vitest's totals as one plain line ("N passed, N failed, N skipped") for CI logs.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../.tmp/vitest.json', import.meta.url), 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
