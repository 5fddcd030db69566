#!/usr/bin/env node
// Regenerates the operator console's screenshots in the docs (`pnpm console:screenshots`, which builds
// first): runs the console's browser tests (every apps/gateway/test/console*.test.ts) with
// PROMPTYARD_CONSOLE_SHOTS set to a temporary folder, where the test saves a PNG of each page, then
// copies them to docs/public/ (shown by docs/gateway/console.md). The test itself never writes into
// the repository.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'docs/public');
const shots = await mkdtemp(join(tmpdir(), 'promptyard-console-shots-'));
try {
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', 'apps/gateway/test/console'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, CI: 'true', PROMPTYARD_CONSOLE_SHOTS: shots } },
  );
  if (run.status !== 0) throw new Error(`the console's browser tests failed (exit ${run.status}); no screenshot was copied`);
  const pictures = (await readdir(shots)).filter((name) => name.endsWith('.png'));
  if (pictures.length === 0)
    throw new Error(`the test saved no screenshot: is /usr/bin/chromium installed (bash scripts/ensure-tools.sh)?`);
  await mkdir(target, { recursive: true });
  for (const name of pictures) await copyFile(join(shots, name), join(target, name));
  process.stderr.write(`copied ${pictures.join(', ')} to docs/public/\n`);
} finally {
  await rm(shots, { recursive: true, force: true });
}
