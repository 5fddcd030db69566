import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createTempFolder, testEngines, type CapturedLogs, type TempFolder } from '../test-helpers.js';

interface FakeWatcher extends EventEmitter {
  closed: boolean;
}

// A chokidar stand-in whose watcher fails the way fs.watch does when the system runs out of watches.
const fake = vi.hoisted(() => ({ watchers: [] as FakeWatcher[], throwOnWatch: false }));

vi.mock('chokidar', () => ({
  watch: () => {
    if (fake.throwOnWatch) throw Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' });
    const watcher = Object.assign(new EventEmitter(), {
      closed: false,
      close: async () => {
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
  fake.throwOnWatch = false;
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
    const watching = source.watch((delta) => changes.push(delta));
    const [watcher] = fake.watchers;
    watcher?.emit('ready');
    await watching;
    watcher?.emit('error', enospc());
    watcher?.emit('error', enospc());
    watcher?.emit('all', 'change', folder.dir + '/a.md');

    expect(watcher?.closed).toBe(true);
    expect(logs.warnings()).toMatchObject([
      { message: 'hot reload is off: cannot watch the prompt folder', fields: { dir: folder.dir, code: 'ENOSPC' } },
    ]);
    expect(changes).toEqual([]);
    await source.close();
  });

  it('resolves watch() when the watcher fails before it is ready', async () => {
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    const watching = source.watch(() => {});
    fake.watchers[0]?.emit('error', enospc());
    await watching;
    expect(logs.records.map((record) => record.message)).toEqual(['hot reload is off: cannot watch the prompt folder']);
    await source.close();
  });

  it('survives a watcher that throws when created', async () => {
    fake.throwOnWatch = true;
    const source = createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger });
    await source.watch(() => {});
    expect(logs.warnings()).toMatchObject([{ fields: { code: 'EMFILE' } }]);
    await source.close();
  });
});
