import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The built module both binaries apply first (the package's dist, as the binaries load it).
const host = dirname(createRequire(import.meta.url).resolve('@promptyard/host/package.json'));
const settings = pathToFileURL(join(host, 'dist/heap-settings.js')).href;

/**
 * A program that applies the binaries' heap settings, starts a worker thread (which puts V8's flags
 * back as node was started), then keeps many objects alive: the young generation's size is printed.
 */
const program = `
import { Worker } from 'node:worker_threads';
import { getHeapSpaceStatistics } from 'node:v8';
const { applyHeapSettings } = await import(${JSON.stringify(settings)});
applyHeapSettings();
const worker = new Worker('setTimeout(() => {}, 50)', { eval: true });
await new Promise((resolve) => worker.once('online', resolve));
const kept = [];
for (let index = 0; index < 400000; index++) kept.push({ index, text: 'x' + index, list: [index] });
await new Promise((resolve) => worker.once('exit', resolve));
const space = getHeapSpaceStatistics().find((entry) => entry.space_name === 'new_space');
process.stdout.write(String(space.space_size / 1048576));
`;

const youngGenerationMb = async (nodeOptions: string): Promise<number> => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], {
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  return Number(stdout);
};

describe('the heap settings of promptyard-server and promptyard-gateway', () => {
  it('keep the young generation small, also after a worker thread starts', async () => {
    // V8's default would double it to 32 MB under this load.
    expect(await youngGenerationMb('')).toBeLessThanOrEqual(8);
  });

  it('leave a young-generation flag given to node alone', async () => {
    expect(await youngGenerationMb('--max-semi-space-size=16')).toBeGreaterThan(8);
  });
});
