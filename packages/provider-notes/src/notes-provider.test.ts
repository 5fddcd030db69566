import { describe, expect, it } from 'vitest';
import { isPromptyardError, silentLogger } from '@promptyard/core';
import { createProvider } from './index.js';

describe('note://{name}', () => {
  const notes = createProvider({ standup: '# Standup\n\nYesterday, today, blockers.', retro: '# Retro' }, { logger: silentLogger(), baseDir: '.', engines: {} });

  it('lists, completes and reads the configured notes', async () => {
    expect(notes.list().map((resource) => resource.uri)).toEqual(['note://retro', 'note://standup']);
    expect(await notes.complete?.('note://{name}', 'name', 'st')).toEqual(['standup']);
    expect(await notes.read('note://standup')).toEqual([{ uri: 'note://standup', mimeType: 'text/markdown', text: '# Standup\n\nYesterday, today, blockers.' }]);
  });

  it('reports an unknown note as RESOURCE_NOT_FOUND with the closest names', async () => {
    const error: unknown = await notes.read('note://standpu').catch((caught: unknown) => caught);
    expect(isPromptyardError(error) && error.code).toBe('RESOURCE_NOT_FOUND');
    expect(String(error)).toMatch(/did you mean "?standup/);
  });
});
