#!/usr/bin/env node
// No import cycle in the packages and apps, type-only imports included (dpdm without --transform
// follows `import type` too). Other globs may be given as arguments (the lint rules' own test does).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const globs = process.argv.length > 2 ? process.argv.slice(2) : ['packages/*/src/**/*.{ts,tsx}', 'apps/*/src/**/*.{ts,tsx}'];
const require = createRequire(import.meta.url);
const dpdm = join(dirname(require.resolve('dpdm/package.json')), 'lib/bin/dpdm.js');
const { status } = spawnSync(
  process.execPath,
  [dpdm, '--no-tree', '--no-warning', '--no-progress', '--exit-code', 'circular:1', ...globs],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(status ?? 1);
