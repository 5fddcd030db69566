import { describe, expect, it } from 'vitest';
import { createCatalog, type PromptEntry } from '@promptyard/core';
import { createPromptSearch } from './prompt-search.js';

const entry = (name: string, description: string, text = ''): PromptEntry => ({
  name,
  description,
  arguments: [],
  origin: { file: `/p/${name}.md` },
  text,
  render: async () => ({ messages: [] }),
});

describe('createPromptSearch', () => {
  it('ranks by name, description and text with prefix and fuzzy matching, and follows catalog changes', () => {
    const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
    const owner = catalog.owner('a');
    owner.replace([
      entry('git/commit', 'Write a commit message'),
      entry('review', 'Review code for bugs', 'Look at the diff'),
      entry('translate', 'Translate a text', 'Into French'),
    ]);
    const search = createPromptSearch({ catalog });
    expect(search.search('comit', 5).map((found) => found.name)[0]).toBe('git/commit');
    expect(search.search('transl', 5).map((found) => found.name)).toEqual(['translate']);
    expect(search.search('french', 5).map((found) => found.name)).toEqual(['translate']);
    expect(search.search('diff commit', 1)).toHaveLength(1);
    owner.replace([entry('deploy', 'Deploy the service')]);
    expect(search.search('deploy', 5).map((found) => found.name)).toEqual(['deploy']);
    expect(search.search('commit', 5)).toEqual([]);
    // An edited prompt is re-indexed: its old words no longer find it, its new ones do.
    owner.update({ upserted: [entry('deploy', 'Ship the release')] });
    expect(search.search('release', 5).map((found) => found.name)).toEqual(['deploy']);
    expect(search.search('service', 5)).toEqual([]);
  });
});
