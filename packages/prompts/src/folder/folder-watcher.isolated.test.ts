import { EventEmitter } from 'node:events';
import type * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createTempFolder, testEngines, type CapturedLogs, type TempFolder } from '../test-helpers.js';

interface FakeWatcher extends EventEmitter {
  readonly path: string;
  readonly listener: (type: string, name: string | null) => void;
  closed: boolean;
}

// fs.watch stand-ins that fail the way fs.watch does when the system runs out of watches.
const fake = vi.hoisted(() => ({ watchers: [] as FakeWatcher[], failFor: undefined as ((path: string) => Error | undefined) | undefined }));

vi.mock('node:fs', async (importOriginal) => ({
  ...(await importOriginal<typeof fs>()),
  watch: (path: string, _options: unknown, listener: FakeWatcher['listener']) => {
    const error = fake.failFor?.(path);
    if (error !== undefined) throw error;
    const watcher = Object.assign(new EventEmitter(), {
      path,
      listener,
      closed: false,
      close: () => {
        watcher.closed = true;
      },
    });
    fake.watchers.push(watcher);
    return watcher;
  },
}));

let folder: TempFolder;
let logs: CapturedLogs;

beforeEach(async () => {
  folder = await createTempFolder();
  logs = captureLogs();
  fake.watchers.length = 0;
  fake.failFor = undefined;
});

afterEach(async () => {
  await folder.cleanup();
});

const enospc = (): Error => Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });

describe('folder watcher failures', () => {
  it('turns hot reload off with one warning when the watcher fails', async () => {
    await folder.write('a.md', 'A');
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    await source.load();
    const changes: unknown[] = [];
    await source.watch((delta) => changes.push(delta));
    const [watcher] = fake.watchers;
    watcher?.emit('error', enospc());
    watcher?.emit('error', enospc());
    await vi.waitFor(() => expect(watcher?.closed).toBe(true));
    watcher?.listener('change', 'a.md');
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(logs.warnings()).toMatchObject([
      { message: 'hot reload is off: cannot watch the prompt folder', fields: { dir: folder.dir, code: 'ENOSPC' } },
    ]);
    expect(changes).toEqual([]);
    await source.close();
  });

  it('resolves watch() when watching fails before it is ready, and closes what it watched', async () => {
    await folder.writeAll({ 'a/one.md': 'One', 'b/two.md': 'Two' });
    fake.failFor = (path) => (path.endsWith('/b') ? enospc() : undefined);
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    await source.watch(() => {});
    expect(logs.records.map((record) => record.message)).toEqual(['hot reload is off: cannot watch the prompt folder']);
    await vi.waitFor(() => expect(fake.watchers.every((watcher) => watcher.closed)).toBe(true));
    await source.close();
  });

  it('survives a watcher that throws when created', async () => {
    fake.failFor = () => Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' });
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    await source.watch(() => {});
    expect(logs.warnings()).toMatchObject([{ fields: { code: 'EMFILE' } }]);
    await source.close();
  });
});
