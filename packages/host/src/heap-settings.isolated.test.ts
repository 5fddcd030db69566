import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyHeapSettings } from './heap-settings.js';

const v8 = vi.hoisted(() => ({ flags: [] as string[] }));
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => v8.flags.push(flag) }));

const execArgv = process.execArgv;
const nodeOptions = process.env['NODE_OPTIONS'];
type WorkerListener = (worker: Worker) => void;
let workerListeners: WorkerListener[];

beforeEach(() => {
  v8.flags = [];
  process.env['NODE_OPTIONS'] = '';
  workerListeners = process.listeners('worker');
});
afterEach(() => {
  process.execArgv = execArgv;
  if (nodeOptions === undefined) delete process.env['NODE_OPTIONS'];
  else process.env['NODE_OPTIONS'] = nodeOptions;
  for (const listener of process.listeners('worker')) if (!workerListeners.includes(listener)) process.off('worker', listener);
});

describe('applyHeapSettings', () => {
  it('keeps the young generation and bounds the old generation', () => {
    process.execArgv = [];
    applyHeapSettings();
    expect(v8.flags).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=30']);
  });

  it('favours memory over speed when asked', () => {
    process.execArgv = [];
    applyHeapSettings({ favourMemory: true });
    expect(v8.flags).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=30', '--optimize-for-size']);
  });

  it('leaves each flag given to node alone, on the command line or in NODE_OPTIONS', () => {
    process.execArgv = ['--no-optimize-for-size'];
    process.env['NODE_OPTIONS'] = '--max-semi-space-size=16';
    applyHeapSettings({ favourMemory: true });
    expect(v8.flags).toEqual(['--heap-growing-percent=30']);
  });
});
