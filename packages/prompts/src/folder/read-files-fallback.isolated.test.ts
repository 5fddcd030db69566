import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPromptFolderSource } from './prompt-folder-source.js';
import { captureLogs, createTempFolder, testEngines, type TempFolder } from '../test-helpers.js';

// A reader thread that dies after handing over its first result.
vi.mock('./read-files-in-worker.js', () => ({
  readFilesInWorker: async (files: readonly string[], _maxBytes: number, onResult: (result: unknown) => void) => {
    onResult({ file: files[0], kind: 'text', text: 'From the thread', latin1: false });
    throw new Error('the file reader thread exited early (code 1)');
  },
}));

let folder: TempFolder;

beforeEach(async () => {
  folder = await createTempFolder();
});

afterEach(async () => {
  await folder.cleanup();
});

describe('reader thread failure', () => {
  it('reads the remaining files on the main thread', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 120; index++) files[`p${String(index).padStart(3, '0')}.md`] = `Prompt ${index}`;
    await folder.writeAll(files);
    const logs = captureLogs();
    const entries = await createPromptFolderSource({ dir: folder.dir, engines: testEngines, logger: logs.logger }).load();
    expect(entries).toHaveLength(120);
    expect(entries.filter((entry) => entry.description === 'From the thread')).toHaveLength(1);
    expect(logs.records).toContainEqual(
      expect.objectContaining({ level: 'debug', message: 'prompt reader thread failed; reading on the main thread' }),
    );
  });
});
